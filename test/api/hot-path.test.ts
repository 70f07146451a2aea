// The hot path's shortcuts keep every count and verdict exact (issue 26): the month counted in memory and read
// from state.db once per flush, a key's verdict remembered until the keys change, a shard target's resolution
// remembered per build, CORS headers shared, and in Redis mode one round trip per request at most (the window,
// the month and this request's count in one script; the requests of one event-loop turn in one script call), an
// answer that does not count taking its count back, last_used written at most once a second per key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { publish } from '../../pipelines/publish.ts';
import { KeyStore } from '../../api/keys.ts';
import { UsageStore, monthOf } from '../../api/usage.ts';
import { CorsPolicy } from '../../api/cors.ts';
import { RedisKeys } from '../../api/redis-keys.ts';
import { RedisLimits } from '../../api/redis-limits.ts';
import { connectRedis, whenReady } from '../../api/redis.ts';

let servers: TestServer[] = [];
afterEach(async () => { await Promise.all(servers.map((s) => s.close())); servers = []; });
async function server(opts: Parameters<typeof startTestServer>[1] = {}, artifacts = artifactsDir()): Promise<TestServer> {
  const s = await startTestServer(artifacts, opts);
  servers.push(s);
  return s;
}
const idOf = (key: string): string => key.split('_')[2]!;
const SEATTLE = '/v1/geo/lookup?city=Seattle&state=WA';
const NOWHERE = '/v1/geo/lookup?city=Nowhereville&state=WA';

function dbCount(state: string, id: string): number {
  const db = new DatabaseSync(path.join(state, 'state.db'), { readOnly: true });
  try {
    const row = db.prepare('SELECT count FROM usage WHERE key_id = ?').get(id) as { count: number } | undefined;
    return Number(row?.count ?? 0);
  } finally {
    db.close();
  }
}

describe('memory limits on the hot path', () => {
  test('a burst of concurrent calls: the month counts exactly the 2xx answers (X-Quota-Remaining, /v1/usage, state.db after close)', async () => {
    const s = await server();
    const key = s.key('pro', 100_000); // the minute window never refuses here: only the count is under test
    expect((await s.get(SEATTLE, key)).status).toBe(200); // the shard is read from disk once; the burst is served from memory
    const statuses = await Promise.all(Array.from({ length: 160 }, (_, i) =>
      s.get(i % 4 === 3 ? NOWHERE : SEATTLE, key).then(async (r) => { await r.arrayBuffer(); return { status: r.status, remaining: Number(r.headers.get('x-quota-remaining')) }; })));
    const ok = statuses.filter((a) => a.status === 200);
    expect(ok).toHaveLength(120);
    expect(statuses.filter((a) => a.status === 404)).toHaveLength(40);
    // Each 200 said how many calls are left after it: 120 distinct values, the last one 150000 - 120.
    expect(new Set(ok.map((a) => a.remaining)).size).toBe(120);
    expect(Math.min(...ok.map((a) => a.remaining))).toBe(150_000 - 121);
    const usage = (await (await s.get('/v1/usage', key)).json()) as { used: number };
    expect(usage.used).toBe(121);
    await s.close();
    servers = [];
    expect(dbCount(s.state, idOf(key))).toBe(121);
  });

  test('another process\'s revocation reaches the remembered verdict at the next key poll, without a restart', async () => {
    const s = await server();
    const key = s.key('pro');
    for (let i = 0; i < 3; i++) expect((await s.get(SEATTLE, key)).status).toBe(200); // the verdict is remembered
    const cli = new KeyStore(s.state); // as `reii keys revoke` does, from another connection
    cli.revoke(idOf(key));
    cli.close();
    // The server's own poll (every 250 ms) sees the database move and forgets every verdict.
    await waitFor(async () => {
      const res = await s.get(SEATTLE, key);
      await res.arrayBuffer();
      if (res.status !== 401) expect(res.status).toBe(200);
      return res.status === 401;
    }, { what: 'the revocation served', deadlineMs: 10_000, intervalMs: 50 });
    expect(((await (await s.get(SEATTLE, key)).json()) as { message: string }).message).toMatch(/revoked/i);
  });

  test('a shard target asked again answers the same bytes and headers (but its own request id); its invalid variants are still refused', async () => {
    const s = await server();
    const key = s.key('pro', 100_000);
    const first = await s.get(SEATTLE, key);
    const again = await s.get(SEATTLE, key, { 'Accept-Encoding': 'identity' });
    const body1 = Buffer.from(await first.arrayBuffer()), body2 = Buffer.from(await again.arrayBuffer());
    expect(body2.equals(body1)).toBe(true);
    const heads = (r: Response): Record<string, string> => Object.fromEntries([...r.headers].filter(([k]) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'x-quota-remaining'].includes(k)));
    expect(heads(again)).toEqual(heads(first));
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect((await s.get('/v1/geo/lookup?city=Seattle&state=ZZ', key)).status).toBe(422);
    expect((await s.get('/v1/geo/lookup?city=Seattle', key)).status).toBe(400);
    expect((await s.get(`${SEATTLE}&api_key=x`, key)).status).toBe(401);
    expect((await s.get(SEATTLE, key, { 'If-None-Match': first.headers.get('etag')! })).status).toBe(304);
    // gzip and br variants are chosen from the stored files for each Accept-Encoding, with their own Content-Encoding.
    for (const enc of ['gzip', 'br']) {
      const res = await s.get(SEATTLE, key, { 'Accept-Encoding': enc });
      await res.arrayBuffer();
      expect([enc, null]).toContain(res.headers.get('content-encoding'));
    }
  });

  test('the month read from state.db is remembered until the next flush: another process\'s counts show after it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-hot-usage-'));
    const one = new UsageStore(dir), two = new UsageStore(dir);
    const t = Date.UTC(2026, 10, 21);
    try {
      two.count('k', t);
      expect(two.monthCount('k', t)).toBe(1); // read from the database once (0) plus its own unwritten count
      for (let i = 0; i < 4; i++) one.count('k', t);
      one.flush();
      expect(two.monthCount('k', t)).toBe(1); // not read again before its own flush
      two.flush(); // every second: writes its count, forgets what it read
      expect(two.monthCount('k', t)).toBe(5);
      two.count('k', t);
      expect(two.monthCount('k', t)).toBe(6);
      expect(monthOf(t)).toBe('2026-11');
    } finally {
      one.close(); two.close();
    }
  });

  test('CORS headers of an answer are shared objects when nothing depends on the request\'s origin', () => {
    const req = (origin?: string): http.IncomingMessage => ({ headers: origin ? { origin } : {} }) as http.IncomingMessage;
    const off = new CorsPolicy('');
    expect(off.answerHeaders(req('https://a.example'), 'geo')).toBe(off.answerHeaders(req(), 'market'));
    expect(off.answerHeaders(req(), 'geo')).toEqual({ Vary: 'X-Service-Key' });
    expect(off.answerHeaders(req(), 'public')).toBe(off.answerHeaders(req('https://b.example'), 'public'));
    const on = new CorsPolicy('https://a.example');
    expect(on.answerHeaders(req('https://other.example'), 'geo')).toEqual({ Vary: 'Origin, X-Service-Key' });
    expect(on.answerHeaders(req('https://a.example'), 'geo')).toMatchObject({ 'Access-Control-Allow-Origin': 'https://a.example', Vary: 'Origin, X-Service-Key' });
  });
});

describe('Redis mode: one round trip per request', () => {
  let redis: TestRedis;
  let artifacts: string;
  beforeAll(async () => {
    redis = await startRedis();
    artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-hot-art-'));
    publish(artifacts, fakeBuild(artifacts, 'b1', 1));
  });
  afterAll(async () => { await redis.stop(); });

  /** Script calls Redis has answered (EVALSHA and EVAL): each one round trip of the hot path. */
  async function scriptCalls(): Promise<number> {
    const c = connectRedis(redis.url);
    try {
      await new Promise((r) => c.once('ready', r));
      const info = await c.info('commandstats');
      return [...info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)].reduce((n, m) => n + Number(m[2]), 0);
    } finally {
      c.disconnect();
    }
  }

  test('N counted answers cost N script calls; an answer that does not count takes its count back; the month counts the 2xx', async () => {
    const s = await server({ redisUrl: redis.url }, artifacts);
    const reg = new RedisKeys(redis.url);
    const { key, record } = await reg.create({ plan: 'pro', name: 'hot path', rpm: 100_000 });
    reg.close();
    const first = await s.get('/v1/geo/states', key); // known at once (looked up on a miss); loads the scripts
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const before = await scriptCalls();
    for (let i = 0; i < 20; i++) {
      const res = await s.get('/v1/geo/states', key);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-limits-degraded')).toBeNull();
      expect(res.headers.get('x-quota-remaining')).toBe(String(150_000 - 2 - i)); // this one counted: 2 + i so far
    }
    expect((await scriptCalls()) - before).toBe(20); // one per request: window, month and count together
    // A 404 (or 422) after admission was counted ahead and is taken back: two calls, and the month does not move.
    const miss = await s.get(NOWHERE, key);
    await miss.arrayBuffer();
    expect([404, 422]).toContain(miss.status);
    expect((await scriptCalls()) - before).toBe(22);
    const limits = new RedisLimits(redis.url);
    try {
      await limits.ready();
      expect(await limits.monthCount(record.id, Date.now())).toBe(21);
    } finally {
      await limits.close();
    }
    const usage = (await (await s.get('/v1/usage', key)).json()) as { used: number };
    expect(usage.used).toBe(21);
  });

  test('the hits of one event-loop turn go in one script call, in order: exactly the window\'s limit passes, each counted once', async () => {
    const limits = new RedisLimits(redis.url);
    try {
      expect(await limits.ready()).toBe(true);
      const keyId = `turn${Date.now()}`;
      const t = Date.now();
      const before = await scriptCalls();
      const hits = await Promise.all(Array.from({ length: 40 }, () => limits.hit(keyId, 30, t, { monthLimit: 1000 })));
      expect((await scriptCalls()) - before).toBe(1);
      expect(hits.map((h) => h.window.allowed)).toEqual([...Array(30).fill(true), ...Array(10).fill(false)]);
      expect(hits.map((h) => h.window.remaining)).toEqual([...Array.from({ length: 30 }, (_, i) => 29 - i), ...Array(10).fill(0)]);
      expect(hits.map((h) => h.counted)).toEqual([...Array(30).fill(true), ...Array(10).fill(false)]);
      expect(hits.slice(0, 30).map((h) => h.monthUsed)).toEqual(Array.from({ length: 30 }, (_, i) => i)); // the month before each
      expect(hits.every((h) => !h.degraded)).toBe(true);
      expect(await limits.monthCount(keyId, t)).toBe(30);
    } finally {
      await limits.close();
    }
  });

  test('one script call over two keys interleaved: each key\'s window and month read once and written once, a month limit met mid-batch, expiries set', async () => {
    const limits = new RedisLimits(redis.url);
    const c = connectRedis(redis.url);
    try {
      expect(await limits.ready()).toBe(true);
      expect(await whenReady(c)).toBe(true);
      const a = `mixa${Date.now()}`, b = `mixb${Date.now()}`;
      const t = Date.now();
      const monthA = `reii:month:${monthOf(t)}:${a}`;
      await c.set(monthA, '7'); // a month already counted elsewhere (another instance), with no expiry yet
      const before = await scriptCalls();
      // a: 10 per minute, 10 per month (3 left); b: no window limit, counted; a's hits 0, 2, 4..., b's 1, 3, 5...
      const hits = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? limits.hit(a, 10, t, { monthLimit: 10 }) : limits.hit(b, null, t, { monthLimit: -1 }))));
      expect((await scriptCalls()) - before).toBe(1);
      const ofA = hits.filter((_, i) => i % 2 === 0), ofB = hits.filter((_, i) => i % 2 === 1);
      expect(ofA.map((h) => h.window.allowed)).toEqual([...Array(10).fill(true), false, false]);
      expect(ofA.map((h) => h.counted)).toEqual([true, true, true, ...Array(9).fill(false)]); // the month's last 3
      expect(ofA.map((h) => h.monthUsed)).toEqual([7, 8, 9, ...Array(9).fill(10)]);
      expect(ofB.map((h) => h.counted)).toEqual(Array(12).fill(true));
      expect(ofB.map((h) => h.monthUsed)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect(await limits.monthCount(a, t)).toBe(10);
      expect(await limits.monthCount(b, t)).toBe(12);
      const windowA = `reii:rl:${a}:${Math.floor(t / 60_000) * 60_000}`;
      expect(await c.get(windowA)).toBe('10');
      const pttl = await c.pttl(windowA);
      expect(pttl).toBeGreaterThan(55_000);
      expect(pttl).toBeLessThanOrEqual(61_000);
      expect(await c.ttl(monthA)).toBeGreaterThan(39 * 24 * 3600); // the count moved: its expiry is set again
    } finally {
      c.disconnect();
      await limits.close();
    }
  });

  test('last_used is written at most once a second per key: up to a second behind the last use', async () => {
    const limits = new RedisLimits(redis.url);
    try {
      expect(await limits.ready()).toBe(true);
      const keyId = `used${Date.now()}`;
      const t0 = Date.UTC(2026, 10, 28, 3, 0, 0);
      expect(await limits.lastUsed(keyId)).toBeNull();
      await limits.hit(keyId, null, t0);
      expect(await limits.lastUsed(keyId)).toBe(new Date(t0).toISOString());
      await limits.hit(keyId, null, t0 + 999);
      expect(await limits.lastUsed(keyId)).toBe(new Date(t0).toISOString()); // within the second: not written
      await limits.hit(keyId, null, t0 + 1000);
      expect(await limits.lastUsed(keyId)).toBe(new Date(t0 + 1000).toISOString());
    } finally {
      await limits.close();
    }
  });
});
