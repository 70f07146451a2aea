// Several API instances on one real Redis: exact per-minute limits across instances, the monthly count
// equal to the 2xx answers, revocation everywhere within a second, and Redis killed during load.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { connectRedis, RedisKeys, RedisLimits, whenReady } from '../../api/redis.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { startTestServer } from '../helpers/server.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
let redis: TestRedis;
let artifacts: string;
beforeAll(async () => {
  redis = await startRedis();
  artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-art-'));
  publish(artifacts, fakeBuild(artifacts, 'b1', 1));
});
afterAll(async () => { await redis.stop(); });

async function newKey(plan: string, rpm: number | null = null, url = redis.url): Promise<{ key: string; id: string }> {
  const reg = new RedisKeys(url);
  try {
    const { key, record } = await reg.create({ plan, name: `redis ${plan}`, rpm });
    return { key, id: record.id };
  } finally {
    reg.close();
  }
}

interface Instance { url: string; child: ChildProcess }
async function instance(opts: { state?: string; url?: string } = {}): Promise<Instance> {
  const state = opts.state ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-state-'));
  const child = spawn('node', ['--import', 'tsx', 'pipelines/cli.ts', 'serve', '--port', '0', '--artifacts', artifacts, '--state', state],
    { cwd: REPO, env: { ...process.env, REII_REDIS_URL: opts.url ?? redis.url }, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => { const m = /serving (http:\/\/\S+)/.exec(d.toString()); if (m) resolve(m[1]!); });
    child.on('exit', (code) => reject(new Error(`instance exited ${code}`)));
  });
  return { url, child };
}
const stop = (i: Instance): Promise<void> => new Promise((r) => { i.child.once('exit', () => r()); i.child.kill('SIGTERM'); });

/** Waits until at least `margin` seconds remain in the current minute, so a burst stays in one window. */
async function awayFromMinuteEdge(margin = 25): Promise<void> {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

describe('three instances on one Redis', () => {
  test('one key hammered through all of them: exactly the plan\'s per-minute requests pass; the month counts the 2xx', async () => {
    const instances = await Promise.all([instance(), instance(), instance()]);
    try {
      const { key, id } = await newKey('builder'); // 60 per minute
      await new Promise((r) => setTimeout(r, 600)); // every instance has polled the new key
      await awayFromMinuteEdge();
      const statuses: number[] = [];
      for (let round = 0; round < 10; round++) {
        const batch = Array.from({ length: 10 }, (_, i) =>
          fetch(`${instances[(round * 10 + i) % 3]!.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } }).then(async (r) => { await r.arrayBuffer(); return r.status; }));
        statuses.push(...(await Promise.all(batch)));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40);
      // /v1/usage itself is rate-limited and this key's minute is full: read the shared count as `reii keys list` does.
      const limits = new RedisLimits(redis.url);
      await limits.ready();
      expect(await limits.monthCount(id, Date.now())).toBe(60);
      await limits.close();
    } finally {
      await Promise.all(instances.map(stop));
    }
  }, 120_000);

  test('a revocation reaches every instance within a second; usage survives an instance restart', async () => {
    const instances = await Promise.all([instance(), instance()]);
    try {
      const { key, id } = await newKey('starter');
      await new Promise((r) => setTimeout(r, 600));
      for (const i of instances) expect((await fetch(`${i.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } })).status).toBe(200);
      await stop(instances[0]!);
      instances[0] = await instance();
      const res = await fetch(`${instances[0]!.url}/v1/usage`, { headers: { 'X-Service-Key': key } });
      const usage = (await res.json()) as { used: number };
      expect(usage, JSON.stringify(usage)).toMatchObject({ used: 2 });
      const reg = new RedisKeys(redis.url);
      await reg.revoke(id);
      reg.close();
      await new Promise((r) => setTimeout(r, 1000));
      for (const i of instances) expect((await fetch(`${i.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } })).status).toBe(401);
    } finally {
      await Promise.all(instances.map(stop));
    }
  }, 120_000);
});

describe('Redis unreachable', () => {
  test('killed during load: requests keep passing (degraded, said in headers and health), counts reach Redis after it returns', async () => {
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-state-'));
    const srv = await startTestServer(artifacts, { state, redisUrl: redis.url });
    try {
      const { key } = await newKey('enterprise');
      await new Promise((r) => setTimeout(r, 600));
      const get = (): Promise<Response> => srv.get('/v1/geo/states', key);
      let ok = 0;
      for (let i = 0; i < 20; i++) { const r = await get(); await r.arrayBuffer(); if (r.status === 200) ok++; }
      // A 2xx is counted just after its answer leaves: wait until Redis holds all 20 before killing it, or the
      // last count would (rightly) be kept by the instance and added to the restarted Redis.
      let before = 0;
      for (let i = 0; i < 50 && before < 20; i++) {
        before = ((await (await srv.get('/v1/usage', key)).json()) as { used: number }).used;
        if (before < 20) await new Promise((r) => setTimeout(r, 50));
      }
      expect(before).toBe(20);
      await redis.stop();
      const during: Response[] = [];
      for (let i = 0; i < 20; i++) during.push(await get());
      expect(during.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(during.at(-1)!.headers.get('x-limits-degraded')).toBe('redis-unreachable');
      ok += 20;
      const health = (await (await srv.get('/v1/health', null)).json()) as { limits: { backend: string; status: string } };
      expect(health.limits).toMatchObject({ backend: 'redis', status: 'degraded' });
      await redis.start();
      let back = false;
      for (let i = 0; i < 50 && !back; i++) {
        await new Promise((r) => setTimeout(r, 200));
        back = ((await (await srv.get('/v1/health', null)).json()) as { limits: { status: string } }).limits.status === 'ok';
      }
      expect(back).toBe(true);
      // The restarted Redis is empty: it holds exactly what the instance counted while it was away.
      const usage = (await (await srv.get('/v1/usage', key)).json()) as { used: number };
      expect(usage.used).toBe(20);
      expect(ok).toBe(40);
    } finally {
      await srv.close();
    }
  }, 60_000);
});

/** The shared month count of a key, read as `reii keys list` does. */
async function sharedCount(url: string, id: string): Promise<number> {
  const limits = new RedisLimits(url);
  try {
    await limits.ready();
    return await limits.monthCount(id, Date.now());
  } finally {
    await limits.close();
  }
}

async function until(cond: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

describe('Redis killed under load, with persistence (AOF fsynced per write, as in production)', () => {
  test('two instances, concurrent workers: no 5xx or failed request, degraded header during the outage, the month count equals the 2xx answers after', async () => {
    const aof = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-aof-'));
    const r2 = await startRedis(undefined, { aofDir: aof });
    const instances = await Promise.all([instance({ url: r2.url }), instance({ url: r2.url })]);
    try {
      const { key, id } = await newKey('enterprise', null, r2.url); // no per-minute or monthly limit
      await new Promise((r) => setTimeout(r, 600));
      let phase: 'before' | 'down' | 'after' = 'before';
      let running = true;
      const seen = { before: 0, down: 0, after: 0, degradedDown: 0, ok: 0, statuses: new Map<number, number>(), failures: [] as string[] };
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; running; i++) {
          const at = phase;
          try {
            const res = await fetch(`${instances[(w + i) % 2]!.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } });
            await res.arrayBuffer();
            seen.statuses.set(res.status, (seen.statuses.get(res.status) ?? 0) + 1);
            if (res.status >= 200 && res.status < 300) seen.ok++;
            seen[at]++;
            if (at === 'down' && phase === 'down' && res.headers.get('x-limits-degraded') === 'redis-unreachable') seen.degradedDown++;
          } catch (err) {
            seen.failures.push((err as Error).message);
          }
        }
      };
      const workers = Array.from({ length: 6 }, (_, w) => worker(w));
      await new Promise((r) => setTimeout(r, 1500));
      await r2.stop(); // SIGKILL
      phase = 'down';
      await new Promise((r) => setTimeout(r, 2500));
      await r2.start(); // reloads the AOF: everything Redis acknowledged before the kill
      phase = 'after';
      await new Promise((r) => setTimeout(r, 2500));
      running = false;
      await Promise.all(workers);
      expect(seen.failures).toEqual([]);
      expect([...seen.statuses.keys()]).toEqual([200]);
      expect(seen.before).toBeGreaterThan(20);
      expect(seen.down).toBeGreaterThan(20);
      expect(seen.after).toBeGreaterThan(20);
      expect(seen.degradedDown).toBeGreaterThan(0);
      // Every 2xx counted once: none lost with the outage, none counted twice by a replay.
      await until(async () => (await sharedCount(r2.url, id)) >= seen.ok, 10_000);
      await new Promise((r) => setTimeout(r, 1500)); // a double count would show up after the backlog drains
      expect(await sharedCount(r2.url, id)).toBe(seen.ok);
      for (const i of instances) {
        const health = (await (await fetch(`${i.url}/v1/health`)).json()) as { limits: { status: string } };
        expect(health.limits.status).toBe('ok');
      }
    } finally {
      await Promise.all(instances.map(stop));
      await r2.stop();
    }
  }, 120_000);

  test('an instance started while Redis is down knows its keys (saved registry); counts made then survive its restart and reach Redis', async () => {
    const aof = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-aof-'));
    const r2 = await startRedis(undefined, { aofDir: aof });
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-state-'));
    let inst: Instance | null = await instance({ state, url: r2.url });
    try {
      const { key, id } = await newKey('pro', null, r2.url);
      await new Promise((r) => setTimeout(r, 600));
      expect((await fetch(`${inst.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } })).status).toBe(200);
      await until(async () => (await sharedCount(r2.url, id)) === 1, 5000);
      await stop(inst);
      await r2.stop();
      inst = await instance({ state, url: r2.url }); // Redis unreachable from the start
      const during: Response[] = [];
      for (let i = 0; i < 5; i++) during.push(await fetch(`${inst.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } }));
      expect(during.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(during.map((r) => r.headers.get('x-limits-degraded'))).toEqual(Array(5).fill('redis-unreachable'));
      expect((await fetch(`${inst.url}/v1/geo/states`, { headers: { 'X-Service-Key': 'ries_live_AAAAAAAA_' + 'A'.repeat(32) } })).status).toBe(401);
      await stop(inst); // the five counts are only in this instance's backlog: written to its state folder
      inst = null;
      const backlog = JSON.parse(fs.readFileSync(path.join(state, 'redis-backlog.json'), 'utf8')) as { pending: Record<string, number> };
      expect(Object.values(backlog.pending).reduce((a, b) => a + b, 0)).toBe(5);
      await r2.start();
      inst = await instance({ state, url: r2.url });
      expect(await until(async () => (await sharedCount(r2.url, id)) === 6, 10_000)).toBe(true);
      expect(await until(async () => !fs.existsSync(path.join(state, 'redis-backlog.json')), 5000)).toBe(true);
    } finally {
      if (inst) await stop(inst);
      await r2.stop();
    }
  }, 120_000);
});

describe('key registry and a Redis that lost its data', () => {
  test('a restarted empty Redis and a key created in it never shrink an instance\'s registry; the lost records are written back', async () => {
    const r2 = await startRedis();
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-state-'));
    const watcher = new RedisKeys(r2.url, state);
    try {
      const a = await newKey('pro', null, r2.url);
      const b = await newKey('starter', null, r2.url);
      await watcher.watch(100);
      expect(watcher.check(a.key).ok && watcher.check(b.key).ok).toBe(true);
      const reg = new RedisKeys(r2.url);
      await reg.revoke(b.id);
      reg.close();
      expect(await until(async () => !watcher.check(b.key).ok, 2000)).toBe(true);
      await r2.stop();
      await r2.start(); // empty: no registry, no epoch, the version counter starts again
      const c = await newKey('pro', null, r2.url); // version "1" again, in a registry of one key
      expect(await until(async () => watcher.check(c.key).ok, 3000)).toBe(true);
      expect(watcher.check(a.key).ok).toBe(true); // not dropped
      expect(watcher.check(b.key)).toMatchObject({ ok: false }); // still revoked
      const list = new RedisKeys(r2.url);
      const ids = await until(async () => (await list.list()).length === 3, 3000);
      const records = await list.list();
      list.close();
      expect(ids).toBe(true);
      expect(records.find((r) => r.id === b.id)?.revoked_at).not.toBeNull();
      const saved = JSON.parse(fs.readFileSync(path.join(state, 'redis-keys.json'), 'utf8')) as { records: { id: string }[] };
      expect(saved.records.map((r) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
    } finally {
      watcher.close();
      await r2.stop();
    }
  }, 60_000);
});

describe('a slow Redis', () => {
  test('a count whose answer times out (Redis busy past the 250 ms command timeout, then applying it) is counted once, not again from the backlog', async () => {
    const limits = new RedisLimits(redis.url);
    const blocker = connectRedis(redis.url);
    try {
      expect(await limits.ready()).toBe(true);
      expect(await whenReady(blocker)).toBe(true);
      const keyId = `slow${Date.now()}`;
      await limits.countSuccess(keyId, Date.now());
      // A script that keeps Redis busy for 700 ms: commands sent meanwhile wait, then run.
      const busy = blocker.call('EVAL', `local t = redis.call('TIME') local s = t[1] * 1000000 + t[2]
        while true do local n = redis.call('TIME') if n[1] * 1000000 + n[2] - s > 700000 then break end end return 1`, '0').catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await limits.countSuccess(keyId, Date.now()); // gives up after 250 ms; Redis applies it later
      expect(Date.now() - started).toBeLessThan(600);
      await busy;
      expect(await until(async () => (await limits.monthCount(keyId, Date.now())) === 2, 5000)).toBe(true);
      await new Promise((r) => setTimeout(r, 2500)); // the backlog is retried every second
      const other = new RedisLimits(redis.url); // no backlog of its own: reads Redis alone
      await other.ready();
      expect(await other.monthCount(keyId, Date.now())).toBe(2);
      await other.close();
    } finally {
      blocker.disconnect();
      await limits.close();
    }
  }, 30_000);
});
