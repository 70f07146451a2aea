// Several API instances on one real Redis: exact per-minute limits across instances, the monthly count
// equal to the 2xx answers, revocation everywhere without a restart, and Redis killed during load.
// No fixed phases: each step waits (with a deadline) for state the product exposes: the registry an
// instance saved, the X-Limits-Degraded header, /v1/health, the shared count, a process's exit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { connectRedis, whenReady } from '../../api/redis.ts';
import { RedisKeys } from '../../api/redis-keys.ts';
import { RedisLimits } from '../../api/redis-limits.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { startTestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { sharedCount, startInstance, stopInstance, type Instance } from '../helpers/instance.ts';

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

const instance = (opts: { state?: string; url?: string } = {}): Promise<Instance> => startInstance(artifacts, opts.url ?? redis.url, opts.state);
const stop = stopInstance;

/** The key registry an instance (state folder) last loaded from Redis: it saves it on every change. */
function savedRecord(state: string, id: string): { revoked_at: string | null } | undefined {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(state, 'redis-keys.json'), 'utf8')) as { records: { id: string; revoked_at: string | null }[] };
    return saved.records.find((r) => r.id === id);
  } catch {
    return undefined; // not written yet
  }
}
/** Waits until every instance has loaded the key (instead of sleeping past the 250 ms registry poll). */
async function knownBy(states: string[], id: string): Promise<void> {
  await waitFor(() => states.every((s) => savedRecord(s, id) !== undefined), { what: `key ${id} loaded by ${states.length} instance(s)` });
}
/** After its instances have stopped (SIGTERM flushes to Redis), a state folder still holds a backlog only if
 *  Redis failed a count at that very moment: replay it as the next start would, so the count is final. */
async function drainBacklogs(states: string[], url = redis.url): Promise<void> {
  for (const state of states) {
    const file = path.join(state, 'redis-backlog.json');
    if (!fs.existsSync(file)) continue;
    const i = await instance({ state, url });
    try {
      await waitFor(() => !fs.existsSync(file), { what: `the backlog of ${state} replayed` });
    } finally {
      await stop(i);
    }
    expect(fs.existsSync(file)).toBe(false);
  }
}
const health = async (url: string): Promise<{ backend: string; status: string }> => ((await (await fetch(`${url}/v1/health`)).json()) as { limits: { backend: string; status: string } }).limits;

describe('three instances on one Redis', () => {
  test('one key hammered through all of them: exactly the plan\'s per-minute requests pass; the month counts the 2xx', async () => {
    const instances = await Promise.all([instance(), instance(), instance()]);
    try {
      const { key, id } = await newKey('builder'); // 60 per minute
      await knownBy(instances.map((i) => i.state), id);
      // 130 calls (more than two windows' worth): if the burst crosses a minute boundary, one of the two
      // windows still gets more than 60. Each answer names its window (X-RateLimit-Reset), and in each window
      // exactly min(60, calls in it) pass, so the check holds wherever the boundary falls.
      const answers: { status: number; reset: string | null; degraded: string | null }[] = [];
      for (let round = 0; round < 13; round++) {
        const batch = Array.from({ length: 10 }, (_, i) =>
          fetch(`${instances[(round * 10 + i) % 3]!.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } }).then(async (r) => { await r.arrayBuffer(); return { status: r.status, reset: r.headers.get('x-ratelimit-reset'), degraded: r.headers.get('x-limits-degraded') }; }));
        for (const a of await Promise.all(batch)) {
          expect(a.degraded).toBeNull(); // decided by Redis, not by one instance alone
          answers.push(a);
        }
      }
      const windows = new Map<string | null, number[]>();
      for (const a of answers) windows.set(a.reset, [...(windows.get(a.reset) ?? []), a.status]);
      expect(windows.size).toBeLessThanOrEqual(2);
      expect(Math.max(...[...windows.values()].map((w) => w.length))).toBeGreaterThan(60);
      for (const [reset, w] of windows) {
        expect(w.filter((s) => s === 200), `window ending ${reset}`).toHaveLength(Math.min(60, w.length));
        expect(w.filter((s) => s === 429), `window ending ${reset}`).toHaveLength(w.length - Math.min(60, w.length));
      }
      const passed = answers.filter((a) => a.status === 200).length;
      // /v1/usage itself is rate-limited and this key's minute is full: read the shared count as `reii keys list` does.
      // The instances count a 2xx as it goes out: stopping them (SIGTERM drains and flushes) is the point after
      // which the count cannot move.
      await Promise.all(instances.map(stop));
      await drainBacklogs(instances.map((i) => i.state));
      expect(await sharedCount(redis.url, id)).toBe(passed);
    } finally {
      await Promise.all(instances.map(stop));
    }
  }, 120_000);

  // "Within a second" (a 250 ms registry poll) is a latency, for the bench: here, every instance refuses the
  // key without a restart, waited for with a generous deadline.
  test('a revocation reaches every instance without a restart; usage survives an instance restart', async () => {
    const instances = await Promise.all([instance(), instance()]);
    try {
      const { key, id } = await newKey('starter', 100_000); // polling below must not run into the per-minute limit
      await knownBy(instances.map((i) => i.state), id);
      for (const i of instances) expect((await fetch(`${i.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } })).status).toBe(200);
      // Both counts reach Redis before an instance goes (a 2xx is counted as its answer goes out).
      await waitFor(async () => (await sharedCount(redis.url, id)) >= 2, { what: 'two counts in Redis' });
      await stop(instances[0]!);
      instances[0] = await instance();
      const res = await fetch(`${instances[0]!.url}/v1/usage`, { headers: { 'X-Service-Key': key } });
      const usage = (await res.json()) as { used: number };
      expect(usage, JSON.stringify(usage)).toMatchObject({ used: 2 });
      const reg = new RedisKeys(redis.url);
      await reg.revoke(id);
      reg.close();
      for (const [n, i] of instances.entries()) {
        await waitFor(async () => {
          const res = await fetch(`${i.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } });
          await res.arrayBuffer();
          if (res.status !== 401) expect(res.status).toBe(200); // the registry before the revocation: served, nothing else
          return res.status === 401;
        }, { what: `the revocation on instance ${n}`, deadlineMs: 10_000, intervalMs: 100 });
      }
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
      const { key, id } = await newKey('enterprise');
      await knownBy([state], id);
      const get = (): Promise<Response> => srv.get('/v1/geo/states', key);
      let ok = 0;
      for (let i = 0; i < 20; i++) { const r = await get(); await r.arrayBuffer(); if (r.status === 200) ok++; }
      // A 2xx is counted just after its answer leaves: wait until Redis holds all 20 before killing it, or the
      // last count would (rightly) be kept by the instance and added to the restarted Redis.
      await waitFor(async () => (await sharedCount(redis.url, id)) === 20, { what: '20 counts in Redis' });
      await redis.stop();
      const during: Response[] = [];
      for (let i = 0; i < 20; i++) during.push(await get());
      expect(during.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(during.at(-1)!.headers.get('x-limits-degraded')).toBe('redis-unreachable');
      ok += 20;
      expect(await health(srv.url)).toMatchObject({ backend: 'redis', status: 'degraded' });
      await redis.start();
      await waitFor(async () => (await health(srv.url)).status === 'ok', { what: 'limits healthy again', intervalMs: 200 });
      // The restarted Redis is empty: it holds exactly what the instance counted while it was away. A later
      // 2xx is the marker: counts reach Redis in order, so once it is there the backlog has been applied.
      const marker = await get();
      await marker.arrayBuffer();
      expect(marker.status).toBe(200);
      expect(marker.headers.get('x-limits-degraded')).toBeNull();
      await waitFor(async () => (await sharedCount(redis.url, id)) >= 21, { what: 'the backlog and the marker in Redis' });
      expect(await sharedCount(redis.url, id)).toBe(21);
      const usage = (await (await srv.get('/v1/usage', key)).json()) as { used: number };
      expect(usage.used).toBe(21);
      expect(ok).toBe(40);
    } finally {
      await srv.close();
    }
  }, 60_000);
});

/** The shared month count of a key, read as `reii keys list` does. */

describe('Redis killed under load, with persistence (AOF fsynced per write, as in production)', () => {
  test('two instances, concurrent workers: no 5xx or failed request, degraded header during the outage, the month count equals the 2xx answers after', async () => {
    const aof = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-aof-'));
    const r2 = await startRedis(undefined, { aofDir: aof });
    const instances = await Promise.all([instance({ url: r2.url }), instance({ url: r2.url })]);
    try {
      const { key, id } = await newKey('enterprise', null, r2.url); // no per-minute or monthly limit
      await knownBy(instances.map((i) => i.state), id);
      let phase: 'before' | 'down' | 'after' = 'before';
      let running = true;
      const seen = { before: 0, down: 0, after: 0, degradedDown: [0, 0], sharedAfter: [0, 0], ok: 0, statuses: new Map<number, number>(), failures: [] as string[] };
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; running; i++) {
          const at = phase;
          const n = (w + i) % 2;
          try {
            const res = await fetch(`${instances[n]!.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } });
            await res.arrayBuffer();
            seen.statuses.set(res.status, (seen.statuses.get(res.status) ?? 0) + 1);
            if (res.status >= 200 && res.status < 300) seen.ok++;
            seen[at]++;
            const degraded = res.headers.get('x-limits-degraded') === 'redis-unreachable';
            if (at === 'down' && phase === 'down' && degraded) seen.degradedDown[n]!++;
            if (at === 'after' && !degraded) seen.sharedAfter[n]!++;
          } catch (err) {
            seen.failures.push((err as Error).message);
          }
        }
      };
      const workers = Array.from({ length: 6 }, (_, w) => worker(w));
      // Each phase lasts until its effect is seen, not for a fixed time.
      await waitFor(() => seen.before > 20, { what: 'answers before the kill' });
      await r2.stop(); // SIGKILL
      phase = 'down';
      await waitFor(() => seen.down > 20 && seen.degradedDown.every((d) => d > 0), { what: 'degraded answers from both instances while Redis is down' });
      await r2.start(); // reloads the AOF: everything Redis acknowledged before the kill
      phase = 'after';
      await waitFor(() => seen.after > 20 && seen.sharedAfter.every((d) => d >= 10), { what: 'both instances deciding with Redis again' });
      running = false;
      await Promise.all(workers);
      expect(seen.failures).toEqual([]);
      expect([...seen.statuses.keys()]).toEqual([200]);
      for (const i of instances) expect(await health(i.url)).toMatchObject({ status: 'ok' });
      // Every 2xx counted once: none lost with the outage, none counted twice by a replay. The count is read
      // after both instances have stopped (SIGTERM flushes what they hold): it can no longer move.
      await Promise.all(instances.map(stop));
      await drainBacklogs(instances.map((i) => i.state), r2.url);
      expect(await sharedCount(r2.url, id)).toBe(seen.ok);
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
      await knownBy([state], id);
      expect((await fetch(`${inst.url}/v1/geo/states`, { headers: { 'X-Service-Key': key } })).status).toBe(200);
      await waitFor(async () => (await sharedCount(r2.url, id)) === 1, { what: 'the first count in Redis' });
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
      await waitFor(async () => (await sharedCount(r2.url, id)) >= 6, { what: 'the saved backlog in Redis' });
      await waitFor(() => !fs.existsSync(path.join(state, 'redis-backlog.json')), { what: 'the backlog file removed' });
      await stop(inst); // nothing more to come from it
      inst = null;
      expect(await sharedCount(r2.url, id)).toBe(6);
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
      expect((await watcher.check(a.key)).ok && (await watcher.check(b.key)).ok).toBe(true);
      const reg = new RedisKeys(r2.url);
      await reg.revoke(b.id);
      reg.close();
      await waitFor(async () => !(await watcher.check(b.key)).ok, { what: 'the revocation seen by the watcher' });
      await r2.stop();
      await r2.start(); // empty: no registry, no epoch, the version counter starts again
      const c = await newKey('pro', null, r2.url); // version "1" again, in a registry of one key
      await waitFor(async () => (await watcher.check(c.key)).ok, { what: 'the key made in the empty Redis seen by the watcher' });
      expect((await watcher.check(a.key)).ok).toBe(true); // not dropped
      expect(await watcher.check(b.key)).toMatchObject({ ok: false }); // still revoked
      const list = new RedisKeys(r2.url);
      const records = await waitFor(async () => { const r = await list.list(); return r.length >= 3 ? r : null; }, { what: 'the lost records written back' }).finally(() => list.close());
      expect(records).toHaveLength(3);
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
  // Redis is made busy with CLIENT PAUSE WRITE (its "OK" says the pause is in force; scripts that write wait
  // until CLIENT UNPAUSE), so the test knows the count was sent to a busy Redis and decides when it frees up.
  test('a count whose answer times out (Redis busy past the 250 ms command timeout, then applying it) is counted once, not again from the backlog', async () => {
    const limits = new RedisLimits(redis.url);
    const other = new RedisLimits(redis.url); // no backlog of its own: reads Redis alone
    const admin = connectRedis(redis.url);
    let paused = false;
    try {
      expect(await limits.ready()).toBe(true);
      expect(await other.ready()).toBe(true);
      expect(await whenReady(admin)).toBe(true);
      const keyId = `slow${Date.now()}`;
      await limits.countSuccess(keyId, Date.now());
      expect(await admin.call('CLIENT', 'PAUSE', '60000', 'WRITE')).toBe('OK');
      paused = true;
      // The count must not wait for Redis: it gives up after its command timeout, while Redis is still
      // paused, and keeps the count as "sent, answer lost" for a replay.
      const gaveUp = await Promise.race([
        limits.countSuccess(keyId, Date.now()).then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 10_000).unref()),
      ]);
      expect(gaveUp, 'countSuccess still waiting for a paused Redis after 10 s').toBe(true);
      expect(await admin.get(`reii:month:${new Date().toISOString().slice(0, 7)}:${keyId}`)).toBe('1'); // reads still served: not applied yet
      await admin.call('CLIENT', 'UNPAUSE');
      paused = false;
      // Redis now runs the count it held: 2. The backlog (retried every second) replays it with the same
      // sequence, which Redis must ignore. A third count is the marker: while a backlog waits, new counts
      // join it and go after it, so once the third is in Redis the replay has been sent before it.
      await waitFor(async () => (await other.monthCount(keyId, Date.now())) >= 2, { what: 'the held count applied' });
      await limits.countSuccess(keyId, Date.now());
      await waitFor(async () => (await other.monthCount(keyId, Date.now())) >= 3, { what: 'the marker count in Redis' });
      await limits.close(); // flushes anything still held: nothing more can reach Redis after this
      expect(await other.monthCount(keyId, Date.now())).toBe(3);
    } finally {
      if (paused) await admin.call('CLIENT', 'UNPAUSE').catch(() => null);
      admin.disconnect();
      await limits.close();
      await other.close();
    }
  }, 30_000);
});
