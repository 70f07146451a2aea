// Several API instances on one real Redis: exact per-minute limits across instances, the monthly count
// equal to the 2xx answers, revocation everywhere within a second, and Redis killed during load.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { RedisKeys, RedisLimits } from '../../api/redis.ts';
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

async function newKey(plan: string, rpm: number | null = null): Promise<{ key: string; id: string }> {
  const reg = new RedisKeys(redis.url);
  try {
    const { key, record } = await reg.create({ plan, name: `redis ${plan}`, rpm });
    return { key, id: record.id };
  } finally {
    reg.close();
  }
}

interface Instance { url: string; child: ChildProcess }
async function instance(): Promise<Instance> {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-redis-state-'));
  const child = spawn('node', ['--import', 'tsx', 'pipelines/cli.ts', 'serve', '--port', '0', '--artifacts', artifacts, '--state', state],
    { cwd: REPO, env: { ...process.env, REII_REDIS_URL: redis.url }, stdio: ['ignore', 'ignore', 'pipe'] });
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
