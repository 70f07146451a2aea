// API keys: `ries_live_<id>_<secret>` (base62). Only sha256(secret) is stored, in <state>/state.db
// (api/state-db.ts: SQLite in WAL mode, safe for the CLI and servers writing at once), compared with
// timingSafeEqual. A running server sees another process's change within 250 ms, and a key it does not know
// at once (one PRAGMA data_version read). An older <state>/keys.json is imported on first open.
import crypto from 'node:crypto';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { dataVersion, migrateFile, openStateDb, stateDbFile, transaction } from './state-db.ts';
import { CliError, EXIT } from '../warehouse/errors.ts';
import { isPlan, PLANS } from './plans.ts';

export interface KeyRecord {
  id: string;
  name: string | null;
  plan: string;
  rpm: number | null; // per-minute override; null = the plan's
  sha256: string; // hex digest of the secret part
  created_at: string;
  revoked_at: string | null;
  rotated_to: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The shape of a key: `ries_live_<8-character id>_<32-character secret>`. */
export const KEY_RE = /^ries_live_([0-9A-Za-z]{8})_([0-9A-Za-z]{32})$/;
const DUMMY = crypto.createHash('sha256').update('no such key').digest();

function base62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of crypto.randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62]; // 248 = 4 * 62: no modulo bias
    }
  }
  return out;
}

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s).digest();

export type KeyCheck =
  | { ok: true; record: KeyRecord }
  | { ok: false; code: 'key_missing' | 'key_invalid' | 'key_revoked' };

/** What the server needs of a key registry: a check against the keys it holds. Synchronous for a known key;
 *  a registry that must ask a remote store about a key it does not know yet may answer with a promise. */
export interface KeyChecker {
  check(header: string | undefined): KeyCheck | Promise<KeyCheck>;
  close(): void;
}

/** Checks a presented key against records by id, in constant time whether or not the id exists. */
export function checkKey(byId: ReadonlyMap<string, KeyRecord>, header: string | undefined): KeyCheck {
  if (header === undefined || header.trim() === '') return { ok: false, code: 'key_missing' };
  const m = KEY_RE.exec(header.trim());
  const record = m ? byId.get(m[1]!) : undefined;
  const equal = crypto.timingSafeEqual(digest(m?.[2] ?? header), record ? Buffer.from(record.sha256, 'hex') : DUMMY);
  if (!record || !equal) return { ok: false, code: 'key_invalid' };
  if (record.revoked_at) return { ok: false, code: 'key_revoked' };
  return { ok: true, record };
}

/** A new key and its record (the record holds only the secret's hash). */
export function makeKey(opts: { plan: string; name: string | null; rpm: number | null }, taken: (id: string) => boolean): { record: KeyRecord; key: string } {
  if (!isPlan(opts.plan)) throw new CliError(`unknown plan "${opts.plan}"; plans are ${[...PLANS.keys()].join(', ')}`, { exitCode: EXIT.usage });
  let id = base62(8);
  while (taken(id)) id = base62(8);
  const secret = base62(32);
  const record: KeyRecord = { id, name: opts.name, plan: opts.plan, rpm: opts.rpm, sha256: digest(secret).toString('hex'), created_at: new Date().toISOString(), revoked_at: null, rotated_to: null };
  return { record, key: `ries_live_${id}_${secret}` };
}

export class KeyStore implements KeyChecker {
  readonly file: string;
  private readonly db: DatabaseSync;
  private byId = new Map<string, KeyRecord>();
  private version = -1;
  private timer: NodeJS.Timeout | null = null;
  private checked = new Map<string, KeyCheck>();

  constructor(stateDir: string) {
    this.file = stateDbFile(stateDir);
    this.db = openStateDb(stateDir);
    const insert = this.db.prepare('INSERT OR IGNORE INTO keys (id, record) VALUES (?, ?)');
    migrateFile(this.db, path.join(stateDir, 'keys.json'), (records) => {
      if (!Array.isArray(records)) return;
      for (const r of records as KeyRecord[]) if (typeof r?.id === 'string' && typeof r.sha256 === 'string') insert.run(r.id, JSON.stringify(r));
    });
    this.reload();
  }

  /** Re-reads the keys when another connection (or this one) changed the database since the last read. */
  reload(): void {
    const v = dataVersion(this.db);
    if (v === this.version) return;
    // in insertion order (rowid), so keys made in the same millisecond list in the order they were made
    const rows = this.db.prepare('SELECT record FROM keys ORDER BY rowid').all() as { record: string }[];
    this.byId = new Map(rows.map((r) => { const rec = JSON.parse(r.record) as KeyRecord; return [rec.id, rec]; }));
    this.checked = new Map();
    this.version = v;
  }

  /** Re-reads after this connection's own write (data_version moves only for other connections' commits). */
  private reloadNow(): void {
    this.version = -1;
    this.reload();
  }

  /** Polls so creations and revocations by other processes reach a running server within `ms`. */
  watch(ms = 250): void {
    this.timer ??= setInterval(() => this.reload(), ms);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.db.isOpen) this.db.close();
  }

  list(): KeyRecord[] {
    return [...this.byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at)); // stable: ties keep rowid order
  }

  /** Checks a key; results are remembered per presented value until the keys change. */
  check(header: string | undefined): KeyCheck {
    if (header === undefined) return checkKey(this.byId, header);
    const hit = this.checked.get(header);
    if (hit?.ok) return hit;
    // A key that fails is looked up once more after one PRAGMA read (microseconds; failing keys are throttled
    // per address), so a key made a moment ago by `reii keys create` works at once, not on the next poll.
    this.reload();
    const again = this.checked.get(header);
    if (again) return again;
    const result = checkKey(this.byId, header);
    if (this.checked.size >= 10_000) this.checked.clear(); // bounded: random keys cannot grow it
    this.checked.set(header, result);
    return result;
  }

  private read(id: string): KeyRecord | undefined {
    const row = this.db.prepare('SELECT record FROM keys WHERE id = ?').get(id) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as KeyRecord) : undefined;
  }

  private write(r: KeyRecord): void {
    // an update keeps the row (and its rowid, the creation order); REPLACE would delete and re-insert it
    this.db.prepare('INSERT INTO keys (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record').run(r.id, JSON.stringify(r));
  }

  /** Makes a key in one write transaction: the id is checked free and taken at once. */
  create(opts: { plan: string; name: string | null; rpm: number | null }): { record: KeyRecord; key: string } {
    const made = transaction(this.db, () => {
      const m = makeKey(opts, (id) => this.read(id) !== undefined);
      this.write(m.record);
      return m;
    });
    this.reloadNow();
    return made;
  }

  revoke(id: string): KeyRecord {
    const record = transaction(this.db, () => {
      const r = this.read(id);
      if (!r) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
      if (!r.revoked_at) { r.revoked_at = new Date().toISOString(); this.write(r); }
      return r;
    });
    this.reloadNow();
    return record;
  }

  rotate(id: string): { record: KeyRecord; key: string } {
    const fresh = transaction(this.db, () => {
      const old = this.read(id);
      if (!old) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
      if (old.revoked_at) throw new CliError(`key ${id} is revoked; create a new one instead`, { exitCode: EXIT.usage });
      const m = makeKey({ plan: old.plan, name: old.name, rpm: old.rpm }, (k) => this.read(k) !== undefined);
      this.write(m.record);
      this.write({ ...old, revoked_at: new Date().toISOString(), rotated_to: m.record.id });
      return m;
    });
    this.reloadNow();
    return fresh;
  }
}
