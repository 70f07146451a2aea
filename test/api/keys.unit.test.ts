// Unit tests of the key registry (api/keys.ts) over a real <state>/state.db in a temporary folder (read back here
// with node:sqlite directly), and the import of an older keys.json.
// Oracles: the documented key format (ries_live_<8 base62>_<32 base62>), sha256 of the secret computed here with
// node:crypto, and the lifecycle rules (revoked keys fail with key_revoked, rotation revokes the old key and
// points it at the new one, a key written by another process works at once).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { checkKey, KeyStore, makeKey, type KeyRecord } from '../../api/keys.ts';
import { CliError } from '../../warehouse/errors.ts';

const KEY = /^ries_live_([0-9A-Za-z]{8})_([0-9A-Za-z]{32})$/;
const sha = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');
const dirs: string[] = [];
const tmpState = (): string => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-keys-unit-')); dirs.push(d); return d; };
const stores: KeyStore[] = [];
const open = (dir: string): KeyStore => { const s = new KeyStore(dir); stores.push(s); return s; };
/** The key records in a state folder's database, read directly (not through the store under test). */
function dbKeys(dir: string): KeyRecord[] {
  const db = new DatabaseSync(path.join(dir, 'state.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT record FROM keys ORDER BY id').all() as { record: string }[]).map((r) => JSON.parse(r.record) as KeyRecord);
  } finally {
    db.close();
  }
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function record(over: Partial<KeyRecord> = {}): KeyRecord {
  return { id: 'AbCd1234', name: null, plan: 'starter', rpm: null, sha256: sha('S'.repeat(32)), created_at: '2026-01-01T00:00:00.000Z', revoked_at: null, rotated_to: null, ...over };
}

describe('makeKey', () => {
  test('a key in the documented format whose record holds only the sha256 of the secret', () => {
    const before = Date.now();
    const { key, record: r } = makeKey({ plan: 'builder', name: 'ci', rpm: 7 }, () => false);
    const m = KEY.exec(key);
    expect(m, key).not.toBeNull();
    expect(r.id).toBe(m![1]);
    expect(r.sha256).toBe(sha(m![2]!));
    expect(JSON.stringify(r)).not.toContain(m![2]!);
    expect(r).toMatchObject({ name: 'ci', plan: 'builder', rpm: 7, revoked_at: null, rotated_to: null });
    const created = Date.parse(r.created_at);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(Date.now());
  });

  test('ids already taken are drawn again', () => {
    const seen: string[] = [];
    const { record: r } = makeKey({ plan: 'starter', name: null, rpm: null }, (id) => { seen.push(id); return seen.length < 3; });
    expect(seen).toHaveLength(3);
    expect(r.id).toBe(seen[2]);
  });

  test('secrets use the whole base62 alphabet (no bias towards a few characters) and differ each time', () => {
    const chars = new Set<string>();
    const secrets = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = KEY.exec(makeKey({ plan: 'starter', name: null, rpm: null }, () => false).key)![2]!;
      secrets.add(s);
      for (const c of s) chars.add(c);
    }
    expect(secrets.size).toBe(200);
    expect(chars.size).toBe(62); // 6,400 draws: every character appears (a missing one has odds below 1e-40)
  });

  test('an unknown plan is a usage error naming the plans', () => {
    let err: unknown;
    try { makeKey({ plan: 'gold', name: null, rpm: null }, () => false); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as Error).message).toBe('unknown plan "gold"; plans are starter, builder, pro, scale, enterprise');
  });
});

describe('checkKey', () => {
  const good = `ries_live_AbCd1234_${'S'.repeat(32)}`;
  const byId = new Map([['AbCd1234', record()]]);

  test('missing: no header, empty or blank', () => {
    for (const h of [undefined, '', '   ']) expect(checkKey(byId, h)).toEqual({ ok: false, code: 'key_missing' });
  });

  test('the right key passes (surrounding blanks ignored), with its record', () => {
    expect(checkKey(byId, good)).toEqual({ ok: true, record: byId.get('AbCd1234') });
    expect(checkKey(byId, ` ${good} `).ok).toBe(true);
  });

  test('a wrong secret, an unknown id, a malformed key or the bare secret are invalid', () => {
    for (const h of [
      `ries_live_AbCd1234_${'T'.repeat(32)}`, `ries_live_ZZZZ9999_${'S'.repeat(32)}`, `ries_live_AbCd1234_${'S'.repeat(31)}`,
      `ries_live_AbCd1234_${'S'.repeat(33)}`, `ries_test_AbCd1234_${'S'.repeat(32)}`, `xries_live_AbCd1234_${'S'.repeat(32)}`,
      `${good}x`, 'S'.repeat(32), 'AbCd1234', `ries_live_AbCd123_${'S'.repeat(32)}`,
    ]) expect(checkKey(byId, h), h).toEqual({ ok: false, code: 'key_invalid' });
  });

  test('a revoked key is key_revoked, but only with the right secret', () => {
    const revoked = new Map([['AbCd1234', record({ revoked_at: '2026-02-01T00:00:00.000Z' })]]);
    expect(checkKey(revoked, good)).toEqual({ ok: false, code: 'key_revoked' });
    expect(checkKey(revoked, `ries_live_AbCd1234_${'T'.repeat(32)}`)).toEqual({ ok: false, code: 'key_invalid' });
  });
});

describe('KeyStore', () => {
  test('keys made in the same millisecond list in the order they were made, before and after one is revoked', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-21T06:00:00.000Z'));
      const s = open(tmpState());
      const made = Array.from({ length: 12 }, (_, i) => s.create({ plan: 'starter', name: `k${i}`, rpm: null }).record.id);
      expect(new Set(s.list().map((r) => r.created_at)).size).toBe(1); // the case: one timestamp for all
      expect(s.list().map((r) => r.id)).toEqual(made);
      s.revoke(made[3]!);
      expect(s.list().map((r) => r.id)).toEqual(made);
      const again = open(s.file.replace(/state\.db$/, '')); // another process's view of the same file
      expect(again.list().map((r) => r.id)).toEqual(made);
    } finally {
      vi.useRealTimers();
    }
  });

  test('create -> state.db (mode 600) holding hashes only; the key checks; list is in creation order', () => {
    const dir = tmpState();
    const s = open(dir);
    expect(s.list()).toEqual([]);
    const a = s.create({ plan: 'starter', name: 'a', rpm: null });
    const b = s.create({ plan: 'pro', name: 'b', rpm: 5 });
    const file = path.join(dir, 'state.db');
    expect(s.file).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = dbKeys(dir);
    expect(JSON.stringify(stored)).not.toContain(KEY.exec(a.key)![2]!);
    expect(stored).toEqual([a.record, b.record].sort((x, y) => (x.id < y.id ? -1 : 1))); // SQLite's ORDER BY id: code-unit order ('Z' < 'c'), not localeCompare
    expect(stored.find((r) => r.id === a.record.id)!.sha256).toBe(crypto.createHash('sha256').update(KEY.exec(a.key)![2]!).digest('hex'));
    expect(s.check(a.key)).toEqual({ ok: true, record: a.record });
    expect(s.check(b.key)).toMatchObject({ ok: true, record: { plan: 'pro', rpm: 5 } });
    expect(s.check(undefined)).toEqual({ ok: false, code: 'key_missing' });
    expect(s.check('nonsense')).toEqual({ ok: false, code: 'key_invalid' });
    expect(s.list().map((r) => r.name)).toEqual(['a', 'b']);
  });

  test('list sorts by created_at whatever the order in an imported keys.json', () => {
    const dir = tmpState();
    fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify([
      record({ id: 'late0000', created_at: '2026-03-01T00:00:00.000Z' }), record({ id: 'earl0000', created_at: '2026-01-01T00:00:00.000Z' }),
      record({ id: 'midd0000', created_at: '2026-02-01T00:00:00.000Z' }),
    ]));
    expect(open(dir).list().map((r) => r.id)).toEqual(['earl0000', 'midd0000', 'late0000']);
  });

  test('revoke: the key fails with key_revoked at once; revoking twice keeps the first time; unknown id -> exit 6', () => {
    const s = open(tmpState());
    const k = s.create({ plan: 'starter', name: null, rpm: null });
    expect(s.check(k.key).ok).toBe(true);
    const r = s.revoke(k.record.id);
    expect(r.revoked_at).not.toBeNull();
    expect(s.check(k.key)).toEqual({ ok: false, code: 'key_revoked' });
    const first = r.revoked_at;
    expect(s.revoke(k.record.id).revoked_at).toBe(first);
    expect(() => s.revoke('nope0000')).toThrow(expect.objectContaining({ exitCode: 6, message: 'no key with id nope0000' }));
  });

  test('rotate: a new key with the same plan, name and rpm; the old one revoked and pointing at it', () => {
    const s = open(tmpState());
    const old = s.create({ plan: 'builder', name: 'svc', rpm: 42 });
    const fresh = s.rotate(old.record.id);
    expect(fresh.record.id).not.toBe(old.record.id);
    expect(fresh.record).toMatchObject({ plan: 'builder', name: 'svc', rpm: 42, revoked_at: null, rotated_to: null });
    expect(s.check(fresh.key)).toMatchObject({ ok: true });
    expect(s.check(old.key)).toEqual({ ok: false, code: 'key_revoked' });
    const stored = s.list().find((r) => r.id === old.record.id)!;
    expect(stored.rotated_to).toBe(fresh.record.id);
    expect(stored.revoked_at).not.toBeNull();
    expect(() => s.rotate(old.record.id)).toThrow(expect.objectContaining({ exitCode: 2, message: `key ${old.record.id} is revoked; create a new one instead` }));
    expect(() => s.rotate('nope0000')).toThrow(expect.objectContaining({ exitCode: 6 }));
    // the file says the same after a restart
    const again = open(path.dirname(s.file));
    expect(again.check(old.key)).toEqual({ ok: false, code: 'key_revoked' });
    expect(again.check(fresh.key).ok).toBe(true);
  });

  test('a key created by another process works at once in a running store (no poll needed)', () => {
    const dir = tmpState();
    const server = open(dir);
    const unknownFirst = `ries_live_AbCd1234_${'S'.repeat(32)}`;
    expect(server.check(unknownFirst)).toEqual({ ok: false, code: 'key_invalid' });
    const cli = open(dir);
    const k = cli.create({ plan: 'starter', name: 'cli', rpm: null });
    expect(server.check(k.key)).toEqual({ ok: true, record: k.record });
  });

  test('a revocation by another process reaches a running store through reload (watch polls it)', () => {
    const dir = tmpState();
    const server = open(dir);
    const k = server.create({ plan: 'starter', name: null, rpm: null });
    expect(server.check(k.key).ok).toBe(true);
    const cli = open(dir);
    cli.revoke(k.record.id);
    server.reload();
    expect(server.check(k.key)).toEqual({ ok: false, code: 'key_revoked' });
  });

  test('an existing keys.json migrates on first open without losing a key, once, even with two processes opening at once', () => {
    const dir = tmpState();
    const recs = [record({ id: 'earl0000' }), record({ id: 'late0000', revoked_at: '2026-01-02T00:00:00.000Z' })];
    fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(recs));
    const one = open(dir), two = open(dir);
    expect(one.list().map((r) => r.id).sort()).toEqual(['earl0000', 'late0000']);
    expect(two.list().map((r) => r.id).sort()).toEqual(['earl0000', 'late0000']);
    expect(fs.existsSync(path.join(dir, 'keys.json'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'keys.json.migrated'), 'utf8'))).toEqual(recs);
    // a keys.json seen again (a crash between commit and rename) changes nothing, a later revocation included
    one.revoke('earl0000');
    fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(recs));
    expect(open(dir).list().find((r) => r.id === 'earl0000')!.revoked_at).not.toBeNull();
  });

  test('an unreadable keys.json is left in place and starts no store empty-handed by mistake', () => {
    const dir = tmpState();
    fs.writeFileSync(path.join(dir, 'keys.json'), '[{"id": ');
    expect(open(dir).list()).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'keys.json'), 'utf8')).toBe('[{"id": ');
  });

  test('watch picks up a key made by another process', async () => {
    const dir = tmpState();
    const s = open(dir);
    s.watch(10);
    const made = open(dir).create({ plan: 'starter', name: 'other', rpm: null });
    const deadline = Date.now() + 10_000;
    while (s.list().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(s.list().map((r) => r.id)).toEqual([made.record.id]);
  });
});
