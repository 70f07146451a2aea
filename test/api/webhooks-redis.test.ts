// Issue 21 defect 8: two real server instances (`reii serve` processes, each with its own state folder) on one
// real Redis share one set of webhooks (api/webhooks/redis-store.ts): a registration made on A is listed and
// deleted on B, the per-key cap holds across both, each event is delivered once to a loopback receiver, and a
// SIGKILL of the instance holding an attempt's claim mid-delivery leaves the event to the other instance once
// the claim's lease runs out. One monthly quota across both is checked here as well (the per-minute limit
// across instances: test/api/redis.test.ts). No fixed sleeps: every step waits for state the product exposes.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { RedisKeys } from '../../api/redis-keys.ts';
import { monthOf } from '../../api/usage.ts';
import { MAX_ENDPOINTS_PER_KEY, TEST_EVENTS_PER_MINUTE } from '../../api/webhooks/service.ts';
import type { OutboxMessage } from '../../api/webhooks/store.ts';
import { ENDPOINT_ID_PATTERN } from '../../api/webhooks/routes.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { REPO } from '../helpers/paths.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

const TIMEOUT_MS = 8000; // one attempt's deadline: the claim's lease is this + 2 s (delivery.ts LEASE_MARGIN_MS)

let redis: TestRedis;
let db: Redis; // the test's own look into Redis, not through the stores under test
let artifacts: string;
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  redis = await startRedis();
  db = new Redis(redis.url);
  db.on('error', () => {}); // Redis is stopped on purpose in the last test
  artifacts = tmp('reii-whr-art-');
  publish(artifacts, fakeBuild(artifacts, 'b1', 1));
});
afterAll(async () => {
  for (const c of closers.reverse()) await c();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  db.disconnect();
  await redis.stop();
  removeTmpDirs();
});

interface Instance { url: string; child: ChildProcess }
async function instance(): Promise<Instance> {
  const child = spawn('node', ['--import', 'tsx', 'bin/cli.ts', 'serve', '--port', '0', '--artifacts', artifacts, '--state', tmp('reii-whr-state-')], {
    cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, REII_REDIS_URL: redis.url, REII_WEBHOOKS_ALLOW_PRIVATE: '1', REII_WEBHOOKS_TICK_MS: '50', REII_WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS), REII_WEBHOOKS_RETRY_SCHEDULE: '100' },
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => { const m = /serving (http:\/\/\S+)/.exec(d.toString()); if (m) resolve(m[1]!); });
    child.on('exit', (code) => reject(new Error(`instance exited ${code}`)));
  });
  return { url, child };
}
const stop = (i: Instance): Promise<void> => new Promise((r) => {
  if (i.child.exitCode !== null || i.child.signalCode !== null) { r(); return; }
  i.child.once('exit', () => r());
  i.child.kill('SIGTERM');
});

async function call(i: Instance, method: string, p: string, key: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${i.url}${p}`, { method, headers: { 'X-Service-Key': key, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** A new key in the shared registry, once both instances answer with it (their registry poll is 250 ms). */
async function keyOn(instances: Instance[], plan: string): Promise<{ key: string; id: string }> {
  const reg = new RedisKeys(redis.url);
  const { key, record } = await reg.create({ plan, name: `webhooks ${plan}`, rpm: 100_000 });
  reg.close();
  for (const i of instances) await waitFor(async () => (await call(i, 'GET', '/v1/webhooks', key)).status !== 401, { what: `the key known by ${i.url}` });
  return { key, id: record.id };
}

interface Hit { id: string; type: string; path: string }
/** A loopback receiver: records every request's webhook-id and path; `hold` decides which ones it never answers. */
async function receiver(hold: (h: Hit, n: number) => boolean = () => false): Promise<{ url: string; hits: Hit[]; answered: Hit[] }> {
  const hits: Hit[] = [];
  const answered: Hit[] = [];
  const open = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => { body += d.toString(); });
    req.on('end', () => {
      const h = { id: String(req.headers['webhook-id']), type: (JSON.parse(body) as { type: string }).type, path: req.url ?? '' };
      hits.push(h);
      if (hold(h, hits.length)) return;
      answered.push(h);
      res.writeHead(204).end();
    });
  });
  server.on('connection', (s) => { open.add(s); s.on('close', () => open.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => { for (const s of open) s.destroy(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, hits, answered };
}

const countBy = (xs: string[]): Map<string, number> => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

describe('two instances on one Redis share one set of webhooks', () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => { [a, b] = await Promise.all([instance(), instance()]); }, 120_000);
  afterAll(async () => { await Promise.all([a, b].filter(Boolean).map(stop)); });

  test('a registration made on A is listed and deleted on B; A then finds it gone', async () => {
    const { key } = await keyOn([a, b], 'pro');
    const made = await call(a, 'POST', '/v1/webhooks', key, { url: 'http://127.0.0.1:9/hook', events: ['build.published'], description: 'made on A' });
    expect(made.status).toBe(201);
    expect(made.body.id).toMatch(new RegExp(ENDPOINT_ID_PATTERN)); // the pattern published in the OpenAPI document
    for (const odd of ['wh_none', 'not-an-id', `${made.body.id}x`]) expect((await call(b, 'DELETE', `/v1/webhooks/${odd}`, key)).status).toBe(404);
    const onB = await call(b, 'GET', '/v1/webhooks', key);
    expect(onB.body).toMatchObject({ count: 1, endpoints: [{ id: made.body.id, description: 'made on A', status: 'active', pending_messages: 0, dead_messages: 0 }] });
    expect(onB.body.endpoints[0].secret).toBeUndefined();
    expect((await call(b, 'DELETE', `/v1/webhooks/${made.body.id}`, key)).status).toBe(204);
    expect((await call(a, 'GET', '/v1/webhooks', key)).body).toEqual({ count: 0, endpoints: [] });
    expect((await call(a, 'DELETE', `/v1/webhooks/${made.body.id}`, key)).status).toBe(404);
    expect(await db.exists(`reii:wh:ep:${made.body.id}`)).toBe(0);
  });

  test(`30 registrations at once from one key, split over A and B: exactly ${MAX_ENDPOINTS_PER_KEY} kept (201), 20 refused 422 limit`, async () => {
    const { key, id } = await keyOn([a, b], 'pro');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) =>
      call(n % 2 ? b : a, 'POST', '/v1/webhooks', key, { url: `http://127.0.0.1:9/hook-${n}`, events: ['build.published'] })));
    expect(answers.filter((x) => x.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_KEY);
    for (const r of answers.filter((x) => x.status !== 201)) expect(r).toMatchObject({ status: 422, body: { errors: [{ code: 'limit' }] } });
    expect(await db.zcard(`reii:wh:key:${id}`)).toBe(MAX_ENDPOINTS_PER_KEY);
    for (const i of [a, b]) expect((await call(i, 'GET', '/v1/webhooks', key)).body.count).toBe(MAX_ENDPOINTS_PER_KEY);
  });

  test('each event is delivered once: a new build\'s build.published to every subscribed endpoint, and 24 test events queued on A and B', async () => {
    const rx = await receiver();
    const keys = [await keyOn([a, b], 'pro'), await keyOn([a, b], 'pro')];
    const endpoints: { key: string; id: string }[] = [];
    for (const [n, k] of keys.entries()) {
      for (const side of [a, b]) {
        const r = await call(side, 'POST', '/v1/webhooks', k.key, { url: `${rx.url}/k${n}-${side === a ? 'a' : 'b'}`, events: ['build.published'] });
        expect(r.status).toBe(201);
        endpoints.push({ key: k.key, id: r.body.id });
      }
    }
    // Both instances serve the new build and both look at the cursor: one emits, and only once.
    publish(artifacts, fakeBuild(artifacts, 'b2', 2));
    const tests: string[] = [];
    for (let n = 0; n < 24; n++) {
      const e = endpoints[n % endpoints.length]!;
      const r = await call(n % 2 ? b : a, 'POST', `/v1/webhooks/${e.id}/test`, e.key);
      expect(r.status).toBe(202);
      tests.push(r.body.event_id);
    }
    const published = () => rx.hits.filter((h) => h.type === 'build.published');
    await waitFor(() => published().length >= endpoints.length && tests.every((t) => rx.hits.some((h) => h.id === t)), { what: 'every event at the receiver', deadlineMs: 60_000 });
    // Quiescent: every outbox empty on both instances (a message leaves the outbox only after its 2xx).
    for (const i of [a, b]) {
      for (const k of keys) await waitFor(async () => (await call(i, 'GET', '/v1/webhooks', k.key)).body.endpoints.every((e: { pending_messages: number }) => e.pending_messages === 0), { what: 'the outboxes empty' });
    }
    const perEndpoint = countBy(published().map((h) => h.path));
    expect([...perEndpoint.values()], JSON.stringify(rx.hits)).toEqual(endpoints.map(() => 1));
    expect(new Set(published().map((h) => h.id)).size).toBe(1); // one event, the same id to each endpoint
    expect([...countBy(rx.hits.filter((h) => h.type === 'webhook.test').map((h) => h.id)).values()]).toEqual(tests.map(() => 1));
    expect(rx.hits).toHaveLength(endpoints.length + tests.length);
  }, 120_000);

  test(`one window of test events per key: ${TEST_EVENTS_PER_MINUTE + 10} queued at once over A and B, ${TEST_EVENTS_PER_MINUTE} get 202 and the rest 429`, async () => {
    const { key } = await keyOn([a, b], 'enterprise');
    const rx = await receiver(); // answers 2xx: the endpoint stays active whatever is delivered meanwhile
    const made = await call(a, 'POST', '/v1/webhooks', key, { url: `${rx.url}/tests`, events: ['build.published'] });
    // Half of the calls to each instance: each alone stays under the limit, so only a shared window refuses any.
    // The calls fall in one minute unless one ended meanwhile: then they are made again in a fresh minute (the calls
    // of a round that straddled two minutes are counted in the second one too, so a retry within it would see them).
    const nextMinute = (): Promise<void> => new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    for (;;) {
      if (60_000 - (Date.now() % 60_000) < 15_000) await nextMinute();
      const minute = Math.floor(Date.now() / 60_000);
      const answers = await Promise.all(Array.from({ length: TEST_EVENTS_PER_MINUTE + 10 }, (_, n) => call(n % 2 ? b : a, 'POST', `/v1/webhooks/${made.body.id}/test`, key)));
      if (Math.floor(Date.now() / 60_000) !== minute) { await nextMinute(); continue; }
      expect(answers.filter((x) => x.status === 202)).toHaveLength(TEST_EVENTS_PER_MINUTE);
      for (const r of answers.filter((x) => x.status !== 202)) expect(r).toMatchObject({ status: 429, body: { message: expect.stringMatching(/test events per minute/) } });
      break;
    }
  });

  test('one monthly quota: a call on A that uses the last of it is refused on B', async () => {
    const { key, id } = await keyOn([a, b], 'starter'); // 2000 calls a month
    const month = `reii:month:${monthOf(Date.now())}:${id}`;
    await db.set(month, 1999);
    expect((await call(a, 'GET', '/v1/geo/states', key)).status).toBe(200);
    await waitFor(async () => Number(await db.get(month)) === 2000, { what: 'the count from A in Redis' });
    const refused = await call(b, 'GET', '/v1/geo/states', key);
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.body)).toMatch(/quota/i);
  });
});

describe('an instance killed mid-delivery', () => {
  test('SIGKILL of the instance holding the claim while the receiver stalls: the other delivers the event after the lease, once', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    try {
      const rx = await receiver((_h, n) => n === 1); // the first request is never answered
      const { key } = await keyOn([a, b], 'pro');
      const made = await call(a, 'POST', '/v1/webhooks', key, { url: `${rx.url}/stall`, events: ['build.published'] });
      const queued = await call(b, 'POST', `/v1/webhooks/${made.body.id}/test`, key);
      expect(queued.status).toBe(202);
      await waitFor(() => rx.hits.length === 1, { what: 'the first attempt at the stalled receiver' });
      // Which instance holds the claim: its name, "<pid>-...", is in the message.
      const files = await db.zrange(`reii:wh:ob:${made.body.id}`, 0, -1);
      expect(files).toHaveLength(1);
      const claimed = JSON.parse((await db.get(`reii:wh:m:${files[0]}`))!) as OutboxMessage;
      expect(claimed).toMatchObject({ attempts: 1, event_id: queued.body.event_id });
      const [holder, other] = [a, b].sort((x) => (claimed.claimed_by!.startsWith(`${x.child.pid}-`) ? -1 : 1)) as [Instance, Instance];
      expect(claimed.claimed_by!.startsWith(`${holder.child.pid}-`)).toBe(true);
      const gone = new Promise((r) => holder.child.once('exit', r));
      holder.child.kill('SIGKILL');
      await gone;
      // The lease runs out (deadline + margin after the claim): the survivor takes the attempt and delivers it.
      await waitFor(() => rx.answered.length === 1, { what: 'the event delivered by the surviving instance', deadlineMs: 4 * TIMEOUT_MS });
      const listed = await waitFor(async () => { const l = await call(other, 'GET', '/v1/webhooks', key); return l.body.endpoints[0].pending_messages === 0 && l.body.endpoints[0].last_delivery ? l : null; }, { what: 'the outbox empty and the delivery recorded' });
      expect(listed.body.endpoints[0].last_delivery).toMatchObject({ event_id: queued.body.event_id, ok: true });
      expect(rx.hits.map((h) => h.id)).toEqual([queued.body.event_id, queued.body.event_id]); // the same webhook-id both times
      expect(rx.answered.map((h) => h.id)).toEqual([queued.body.event_id]); // one 2xx: delivered once
      expect(await db.exists(`reii:wh:done:${files[0]}`)).toBe(1); // remembered: not queued again by a re-emission
    } finally {
      await Promise.all([a, b].map(stop));
    }
  }, 120_000);
});

describe('Redis unreachable', () => {
  test('webhook calls answer JSON (503 with Retry-After, the store named, no host), not a dropped connection; they work again once Redis is back', async () => {
    const i = await instance();
    try {
      const { key } = await keyOn([i], 'pro');
      await redis.stop();
      // Review 15 #3: a passing outage is a 503 with Retry-After (it was a 500).
      const down = await waitFor(async () => { const r = await call(i, 'GET', '/v1/webhooks', key); return r.status >= 500 ? r : null; }, { what: 'the webhook list failing with Redis down', deadlineMs: 30_000 });
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(down.body.message).toMatch(/webhook state store is unavailable/);
      expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
      await redis.start();
      await waitFor(async () => (await call(i, 'GET', '/v1/webhooks', key)).status === 200, { what: 'the webhook list back with Redis', deadlineMs: 30_000 });
    } finally {
      await stop(i);
    }
  }, 120_000);
});
