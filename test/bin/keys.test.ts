// `reii keys` (create, list, revoke, rotate) as real processes (node bin/reii.js, through test/helpers/cli.ts)
// beside a running `reii serve` over the shared test build: with the keys in the state folder's state.db, and
// with them in Redis (REII_REDIS_URL). What the CLI prints is checked against what the server then does.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { cleanupCli, env, get, parseTable, reii, served, stop, tmp, until, type Run, type Served } from '../helpers/cli.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { withStateDb } from '../helpers/state-db.ts';

afterAll(cleanupCli);

/** The key records of a state folder's state.db, read directly (none when it has no database). */
function keyRows(state: string): { id: string; record: string }[] {
  if (!fs.existsSync(path.join(state, 'state.db'))) return [];
  return withStateDb(state, (db) => (db.prepare('SELECT id, record FROM keys ORDER BY id').all() as { id: string; record: string }[]).map((r) => ({ ...r })));
}

// ---------------------------------------------------------------------------------------------------

describe('reii keys against a running server (state.db)', () => {
  const state = tmp('reii-cli-state-');
  let e: NodeJS.ProcessEnv;
  let s: Served;
  beforeAll(async () => {
    e = env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: state });
    s = await served(['serve', '--port', '0'], e).ready;
  });
  afterAll(async () => {
    if (s) expect(await stop(s)).toEqual({ code: 0, signal: null });
  });

  const created = (r: Run): { id: string; key: string } => {
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^ries_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/); // alone on its line
    const id = /(?:created key|->) (\S+?)[ ;]/.exec(lines[0]!)?.[1];
    expect(id, r.stdout).toBeDefined();
    return { id: id!, key };
  };
  const listJson = async (): Promise<Record<string, unknown>[]> => {
    const r = await reii(['keys', 'list', '--json'], e);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, unknown>[];
  };
  const states = (key?: string) => get(`${s.url}/v1/geo/states`, key);

  test('keys create prints the key alone on the last line, and the running server accepts it at once', async () => {
    const r = await reii(['keys', 'create', '--plan', 'pro', '--name', 'cli-pro'], e);
    const { id, key } = created(r);
    expect(r.stdout.split('\n')[0]).toBe(`created key ${id} (plan pro); it is shown once:`);
    expect(r.stderr).toBe('');
    // no wait, no retry: the first request with the new key is answered
    const first = await states(key);
    expect(first.status).toBe(200);
    // control: the server does check keys
    expect((await states(`${key.slice(0, -4)}XXXX`)).status).toBe(401);
    expect(JSON.stringify(keyRows(state))).not.toContain(key.split('_').at(-1)!);
    expect(keyRows(state).map((r) => r.id)).toContain(id);
  });

  test('keys create --rpm: the limit shows in keys list (table and JSON) and as X-RateLimit-Limit; usage is counted', async () => {
    const { id, key } = created(await reii(['keys', 'create', '--plan', 'builder', '--rpm', '7', '--name', 'cli-rpm'], e));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await states(key);
      statuses.push(a.status);
      expect(a.headers.get('x-ratelimit-limit')).toBe('7'); // the builder plan alone would say 60
    }
    expect(statuses).toEqual([200, 200, 200]);

    // the server writes usage about every second: keys list (a separate process) sees the three 2xx
    const row = await until('keys list to show 3 calls', async () => {
      const found = (await listJson()).find((k) => k['id'] === id);
      return found && found['usage_this_month'] === 3 ? found : undefined;
    }, 15_000, 250);
    expect(row).toMatchObject({ id, name: 'cli-rpm', plan: 'builder', rpm: 7, status: 'active' });
    expect(Date.parse(String(row['last_used']))).toBeGreaterThan(Date.parse(String(row['created'])) - 1);
    expect(JSON.stringify(await listJson())).not.toContain(key.split('_').at(-1)!);

    const table = await reii(['keys', 'list'], e);
    expect(table.code, table.stderr).toBe(0);
    const parsed = parseTable(table.stdout);
    expect(parsed.columns).toEqual(['id', 'name', 'plan', 'rpm', 'status', 'created', 'last_used', 'usage_this_month']);
    expect(parsed.rows.find((r) => r['id'] === id)).toMatchObject({ name: 'cli-rpm', plan: 'builder', rpm: '7', status: 'active', usage_this_month: '3' });
    expect(table.stdout).not.toContain(key.split('_').at(-1)!);
  });

  test('keys revoke: the running server refuses the key (401 key_revoked) within a deadline; list says revoked', async () => {
    const { id, key } = created(await reii(['keys', 'create', '--plan', 'starter', '--rpm', '600', '--name', 'cli-revoke'], e));
    expect((await states(key)).status).toBe(200);
    const r = await reii(['keys', 'revoke', id], e);
    expect(r).toMatchObject({ code: 0, stdout: `revoked ${id}\n`, stderr: '' });
    const refused = await until('the revoked key to be refused', async () => { const a = await states(key); return a.status === 200 ? undefined : a; }, 10_000, 100);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'The API key has been revoked' });
    expect((await listJson()).find((k) => k['id'] === id)).toMatchObject({ status: 'revoked', name: 'cli-revoke' });
  });

  test('keys rotate: the new key works at once with the same plan, name and limit; the old one is refused', async () => {
    const old = created(await reii(['keys', 'create', '--plan', 'builder', '--rpm', '600', '--name', 'cli-rotate'], e));
    expect((await states(old.key)).status).toBe(200);
    const r = await reii(['keys', 'rotate', old.id], e);
    const fresh = created(r);
    expect(r.stdout.split('\n')[0]).toBe(`rotated ${old.id} -> ${fresh.id}; the new key is shown once:`);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.key).not.toBe(old.key);
    const now = await states(fresh.key);
    expect(now.status).toBe(200);
    expect(now.headers.get('x-ratelimit-limit')).toBe('600');
    const refused = await until('the rotated-out key to be refused', async () => { const a = await states(old.key); return a.status === 200 ? undefined : a; }, 10_000, 100);
    expect(refused.status).toBe(401);
    const list = await listJson();
    expect(list.find((k) => k['id'] === old.id)).toMatchObject({ status: 'revoked' });
    expect(list.find((k) => k['id'] === fresh.id)).toMatchObject({ status: 'active', plan: 'builder', name: 'cli-rotate', rpm: 600 });
  });

  test('revoke and rotate of an unknown id exit 6 naming the id, and change nothing', async () => {
    const before = keyRows(state);
    for (const cmd of ['revoke', 'rotate']) {
      const r = await reii(['keys', cmd, 'no-such-key-id'], e);
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(6);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('reii: no key with id no-such-key-id\n');
    }
    expect(keyRows(state)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('reii keys on Redis (REII_REDIS_URL)', () => {
  let redis: TestRedis;
  let s: Served;
  const state = tmp('reii-cli-redis-state-');
  let e: NodeJS.ProcessEnv;
  beforeAll(async () => {
    redis = await startRedis();
    e = env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: state, REII_REDIS_URL: redis.url });
    s = await served(['serve', '--port', '0'], e).ready;
  });
  afterAll(async () => {
    try {
      if (s) expect(await stop(s)).toEqual({ code: 0, signal: null });
    } finally {
      await redis?.stop();
    }
  });

  test('a key created with REII_REDIS_URL is accepted by a server on the same Redis, lives in Redis (not state.db), and its revocation reaches the server', async () => {
    const r = await reii(['keys', 'create', '--plan', 'builder', '--rpm', '40', '--name', 'cli-redis'], e);
    expect(r.code, r.stderr).toBe(0);
    const key = r.stdout.trimEnd().split('\n').at(-1)!;
    const id = /^created key (\S+) /.exec(r.stdout)![1]!;
    expect(key).toMatch(/^ries_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    // at once: the first request after `keys create` exits is accepted (the server looks an unknown id up in Redis)
    const ok = await get(`${s.url}/v1/geo/states`, key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('40');

    // listed through Redis; the same state folder without Redis knows nothing of it
    const withRedis = await reii(['keys', 'list', '--json'], e);
    expect(withRedis.code, withRedis.stderr).toBe(0);
    expect((JSON.parse(withRedis.stdout) as Record<string, unknown>[]).find((k) => k['id'] === id)).toMatchObject({ name: 'cli-redis', plan: 'builder', rpm: 40, status: 'active' });
    const withoutRedis = await reii(['keys', 'list', '--json'], { ...e, REII_REDIS_URL: '' });
    expect(withoutRedis.code, withoutRedis.stderr).toBe(0);
    expect(JSON.parse(withoutRedis.stdout)).toEqual([]);
    expect(keyRows(state)).toEqual([]);

    const revoked = await reii(['keys', 'revoke', id], e);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
    const refused = await until('the revocation to reach the server', async () => { const a = await get(`${s.url}/v1/geo/states`, key); return a.status === 200 ? undefined : a; }, 10_000, 100);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'The API key has been revoked' });
    const unknown = await reii(['keys', 'revoke', 'no-such-key-id'], e);
    expect(unknown.code, unknown.stderr).toBe(6);
  });
});
