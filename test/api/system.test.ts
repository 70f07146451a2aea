// GET /v1/health and GET /v1/usage: every field of the healthy answers, checked against facts found
// apart from the code that answers: the build folder `current` points to and its manifest.json on disk,
// api/plans.json read as a file, a hand-written calendar, and the usage file the server leaves behind.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { createApp } from '../../api/app.ts';
import { BuildHolder } from '../../api/builds.ts';
import { KeyStore } from '../../api/keys.ts';
import { MemoryLimits } from '../../api/limits.ts';
import { WindowLimiter } from '../../api/rate-limit.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { artifactsDir } from '../helpers/build.ts';
import { PINNED_NOW } from '../helpers/global-setup.ts';
import { REPO } from '../helpers/paths.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { usageMonths } from '../helpers/state-db.ts';


/** The plan table as a file (not api/plans.ts, which the server itself uses). */
const PLAN_FILE = JSON.parse(fs.readFileSync(path.join(REPO, 'api', 'plans.json'), 'utf8')) as {
  plans: Record<string, { calls_per_month: number | null; requests_per_minute: number | null }>;
};

// State folders of the servers started here, removed when the file is done.
const states: string[] = [];
function tmpState(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-system-state-'));
  states.push(dir);
  return dir;
}
afterAll(() => { for (const d of states) fs.rmSync(d, { recursive: true, force: true }); });

/** The build folder name the artifacts' `current` link names, read off the link itself. */
function currentFolderName(artifacts: string): string {
  return path.basename(fs.readlinkSync(path.join(artifacts, 'current')));
}

function manifestAsOf(artifacts: string): string {
  const dir = path.resolve(artifacts, fs.readlinkSync(path.join(artifacts, 'current')));
  return (JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { as_of: string }).as_of;
}

/** A fake build whose manifest says `asOf` (the helper's default is the pinned build day). */
function buildAsOf(artifacts: string, id: string, asOf: string): string {
  const dir = fakeBuild(artifacts, id, 1);
  const file = path.join(dir, 'manifest.json');
  fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(fs.readFileSync(file, 'utf8')) as object), as_of: asOf }));
  return dir;
}

async function healthOf(srv: TestServer): Promise<{ res: Response; body: unknown }> {
  const res = await srv.get('/v1/health', null);
  return { res, body: await res.json() };
}

describe('GET /v1/health, healthy', () => {
  test('over the shared real build: status ok, the build `current` points to, its manifest as_of, memory limits ok; not cached', async () => {
    const artifacts = artifactsDir();
    const srv = await startTestServer(artifacts, { state: tmpState() });
    try {
      const { res, body } = await healthOf(srv);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      // Exactly these fields: a missing, extra or wrong one fails.
      expect(body).toEqual({
        status: 'ok',
        build_id: currentFolderName(artifacts),
        as_of: manifestAsOf(artifacts),
        limits: { backend: 'memory', status: 'ok', detail: null },
      });
      // The pinned build clock (global-setup) makes the data day of the shared build a known date.
      expect((body as { as_of: string }).as_of).toBe(PINNED_NOW.toISOString().slice(0, 10));
    } finally {
      await srv.close();
    }
  });

  test('after a new build is published it names that build and its as_of, never the one it started with', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-health-'));
    publish(artifacts, buildAsOf(artifacts, 'h1', '2026-10-31'));
    const srv = await startTestServer(artifacts, { state: tmpState() });
    try {
      expect((await healthOf(srv)).body).toEqual({ status: 'ok', build_id: 'h1', as_of: '2026-10-31', limits: { backend: 'memory', status: 'ok', detail: null } });
      publish(artifacts, buildAsOf(artifacts, 'h2', '2026-11-21'));
      await srv.holder.check();
      expect(currentFolderName(artifacts)).toBe('h2');
      expect((await healthOf(srv)).body).toEqual({ status: 'ok', build_id: currentFolderName(artifacts), as_of: manifestAsOf(artifacts), limits: { backend: 'memory', status: 'ok', detail: null } });
    } finally {
      await srv.close();
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  });

  test('with a reachable Redis: limits backend redis, status ok, no detail', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-health-'));
    publish(artifacts, buildAsOf(artifacts, 'r1', '2026-11-20'));
    let redis: TestRedis | null = null;
    let srv: TestServer | null = null;
    try {
      redis = await startRedis();
      srv = await startTestServer(artifacts, { state: tmpState(), redisUrl: redis.url });
      expect((await healthOf(srv)).body).toEqual({ status: 'ok', build_id: 'r1', as_of: '2026-11-20', limits: { backend: 'redis', status: 'ok', detail: null } });
    } finally {
      await srv?.close();
      await redis?.stop();
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  });
});

// ------------------------------------------------------------------ usage on a pinned clock

interface Usage { plan: string; period_start: string; period_end: string; limit: number | null; used: number; remaining: number | null; per_minute_limit: number | null }

/** The same request pipeline startServer builds (createApp over a BuildHolder, a KeyStore and MemoryLimits in
 *  a state folder) on a real socket, with the clock injected so the month is known and no call can straddle
 *  a window. */
describe('GET /v1/usage on a pinned clock', () => {
  let artifacts: string;
  let state: string;
  let holder: BuildHolder;
  let keys: KeyStore;
  let limits: MemoryLimits;
  let server: http.Server;
  let base: string;
  let clock = 0;
  const at = (iso: string): void => { clock = Date.parse(iso); };

  beforeAll(async () => {
    artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-usage-'));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-usage-state-'));
    publish(artifacts, fakeBuild(artifacts, 'u1', 1));
    holder = new BuildHolder({ settings: loadSettings({ artifacts, shardCacheMb: '1' }), live: [], log: () => {} });
    await holder.start();
    keys = new KeyStore(state);
    limits = new MemoryLimits(state);
    const app = createApp({ holder, keys, limits, anonLimiter: new WindowLimiter(60_000), authFailures: new WindowLimiter(600_000), accessLog: () => {}, now: () => clock });
    server = http.createServer(app);
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => app.clientError(err, socket as import('node:net').Socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await limits.close();
    keys.close();
    await holder.close();
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  const call = async (p: string, key: string, headers: Record<string, string> = {}): Promise<Response> => {
    const res = await fetch(base + p, { headers: { 'X-Service-Key': key, ...headers } });
    await res.arrayBuffer();
    return res;
  };
  const usage = async (key: string): Promise<{ res: Response; body: Usage }> => {
    const res = await fetch(`${base}/v1/usage`, { headers: { 'X-Service-Key': key } });
    return { res, body: (await res.json()) as Usage };
  };
  /** Plan limits as api/plans.json writes them. */
  const planLimits = (plan: string): { limit: number | null; per_minute_limit: number | null } => ({
    limit: PLAN_FILE.plans[plan]!.calls_per_month, per_minute_limit: PLAN_FILE.plans[plan]!.requests_per_minute,
  });
  const twoXX = (statuses: number[]): number => statuses.filter((s) => s >= 200 && s < 300).length;

  test('two plans (and an unlimited one): plan, the calendar month, limits from plans.json, used = exactly the 2xx answers; month rollover and the usage file', async () => {
    const starter = keys.create({ plan: 'starter', name: 'usage starter', rpm: null });
    const scale = keys.create({ plan: 'scale', name: 'usage scale', rpm: null });
    const enterprise = keys.create({ plan: 'enterprise', name: 'usage enterprise', rpm: null });

    // November 2026 (the pinned build day, then the month's last millisecond).
    at(PINNED_NOW.toISOString());
    const s: number[] = [];
    const first = await call('/v1/geo/states', starter.key);
    s.push(first.status);
    s.push((await call('/v1/geo/states', starter.key)).status);
    s.push((await call('/v1/geo/states', starter.key, { 'If-None-Match': first.headers.get('etag')! })).status); // 304: not a 2xx
    s.push((await call('/v1/geo/lookup?city=Austin&state=zz', starter.key)).status); // invalid state
    s.push((await call('/v1/market/comps?zip=78701', starter.key)).status); // starter lacks market
    s.push((await call('/v1/geo/lookup?city=Austin&state=TX', starter.key)).status); // no such city shard in this build
    at('2026-11-30T23:59:59.999Z');
    s.push((await call('/v1/geo/states', starter.key)).status);
    expect(s).toEqual([200, 200, 304, 422, 403, 404, 200]);

    const c: number[] = [];
    c.push((await call('/v1/geo/states', scale.key)).status);
    c.push((await call('/v1/export', scale.key)).status); // this build has no export: 404
    c.push((await call('/v1/geo/lookup', scale.key)).status); // city and state missing
    c.push((await call('/v1/geo/states', scale.key)).status);
    c.push((await call('/v1/geo/states', scale.key)).status);
    expect(c).toEqual([200, 404, 400, 200, 200]);

    const e = [(await call('/v1/geo/states', enterprise.key)).status];
    expect(e).toEqual([200]);

    const nov = { period_start: '2026-11-01T00:00:00.000Z', period_end: '2026-12-01T00:00:00.000Z' };
    const u1 = await usage(starter.key);
    expect(u1.res.status).toBe(200);
    expect(u1.res.headers.get('cache-control')).toBe('no-store');
    expect(u1.body).toEqual({ plan: 'starter', ...nov, ...planLimits('starter'), used: twoXX(s), remaining: 2000 - 3 });
    expect(planLimits('starter')).toEqual({ limit: 2000, per_minute_limit: 10 }); // the README's table, so plans.json and the oracle agree
    // The quota headers on the same answer: the month's reset is 00:00 UTC on 1 December.
    expect(u1.res.headers.get('x-quota-limit')).toBe('2000');
    expect(u1.res.headers.get('x-quota-remaining')).toBe('1997');
    expect(u1.res.headers.get('x-quota-reset')).toBe(String(Date.parse('2026-12-01T00:00:00Z') / 1000));
    // /v1/usage is free: asking again does not change the count.
    expect((await usage(starter.key)).body.used).toBe(3);

    expect((await usage(scale.key)).body).toEqual({ plan: 'scale', ...nov, ...planLimits('scale'), used: twoXX(c), remaining: 750_000 - 3 });
    expect((await usage(enterprise.key)).body).toEqual({ plan: 'enterprise', ...nov, limit: null, per_minute_limit: null, used: 1, remaining: null });
    expect(planLimits('enterprise')).toEqual({ limit: null, per_minute_limit: null });

    // 1 December 00:00:00.000 UTC: a new month, nothing used yet, the period moves on.
    at('2026-12-01T00:00:00.000Z');
    const dec = { period_start: '2026-12-01T00:00:00.000Z', period_end: '2027-01-01T00:00:00.000Z' };
    expect((await usage(starter.key)).body).toEqual({ plan: 'starter', ...dec, ...planLimits('starter'), used: 0, remaining: 2000 });
    expect((await call('/v1/geo/states', starter.key)).status).toBe(200);
    // The year's last millisecond is still December; the period ends on 1 January 2027.
    at('2026-12-31T23:59:59.999Z');
    const endOfYear = await usage(starter.key);
    expect(endOfYear.body).toEqual({ plan: 'starter', ...dec, ...planLimits('starter'), used: 1, remaining: 1999 });
    expect(endOfYear.res.headers.get('x-quota-reset')).toBe(String(Date.parse('2027-01-01T00:00:00Z') / 1000));
    expect((await usage(scale.key)).body).toEqual({ plan: 'scale', ...dec, ...planLimits('scale'), used: 0, remaining: 750_000 });

    // The counts on disk, per calendar month and key (written on close; the server writes them the same way).
    limits.usage.flush();
    const file = usageMonths(state);
    expect(file.months['2026-11']).toMatchObject({ [starter.record.id]: 3, [scale.record.id]: 3, [enterprise.record.id]: 1 });
    expect(file.months['2026-12']).toMatchObject({ [starter.record.id]: 1 });
    expect(file.months['2026-12']![scale.record.id]).toBeUndefined();
  });

  test('429s do not count; a key with its own per-minute limit reports that limit', async () => {
    const key = keys.create({ plan: 'builder', name: 'usage rpm', rpm: 2 });
    at('2026-11-21T06:10:00.000Z');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call('/v1/geo/states', key.key)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // /v1/usage counts toward the minute too (it is a keyed call): ask in the next minute.
    at('2026-11-21T06:11:00.000Z');
    expect((await usage(key.key)).body).toEqual({
      plan: 'builder', period_start: '2026-11-01T00:00:00.000Z', period_end: '2026-12-01T00:00:00.000Z',
      limit: PLAN_FILE.plans['builder']!.calls_per_month, used: twoXX(statuses), remaining: 25_000 - 2, per_minute_limit: 2,
    });
  });
});

// ------------------------------------------------------------------ usage on the real clock

describe('GET /v1/usage through startServer (real clock)', () => {
  test('the period is the UTC calendar month around the call; used counts the 2xx only', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-usage-real-'));
    publish(artifacts, fakeBuild(artifacts, 'ur', 1));
    const srv = await startTestServer(artifacts, { state: tmpState() });
    const monthStart = (ms: number): string => `${new Date(ms).toISOString().slice(0, 7)}-01T00:00:00.000Z`;
    try {
      // A run that straddles a month boundary is run again with a fresh key (the next can't straddle too).
      for (let attempt = 0; ; attempt++) {
        const key = srv.key('pro', attempt === 0 ? null : 300 + attempt);
        const before = Date.now();
        const statuses = [
          (await srv.get('/v1/geo/states', key)).status,
          (await srv.get('/v1/geo/lookup?city=X&state=tx', key)).status,
          (await srv.get('/v1/geo/states', key)).status,
        ];
        const body = (await (await srv.get('/v1/usage', key)).json()) as Usage;
        const after = Date.now();
        if (monthStart(before) !== monthStart(after) && attempt === 0) continue;
        expect(statuses).toEqual([200, 422, 200]);
        const start = new Date(monthStart(before));
        const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
        expect(body).toEqual({
          plan: 'pro', period_start: start.toISOString(), period_end: end.toISOString(),
          limit: 150_000, used: 2, remaining: 149_998, per_minute_limit: attempt === 0 ? 300 : 300 + attempt,
        });
        break;
      }
    } finally {
      await srv.close();
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  });
});
