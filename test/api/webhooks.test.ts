// Webhooks (issue 10): registration, Standard Webhooks signatures checked by an independent verifier here,
// events raised by a newly published build, durable at-least-once delivery across a SIGKILL, retries on an
// injected fast schedule until the endpoint is disabled, SSRF refusals and plan gating.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { FORMAT_VERSION } from '../../warehouse/layout.ts';
import { KeyStore } from '../../api/keys.ts';
import { isPrivateAddress, checkTarget } from '../../api/webhooks/ssrf.ts';
import { verify as libVerify } from '../../api/webhooks/signing.ts';
import { parseSchedule, RETRY_SCHEDULE_MS } from '../../api/webhooks/delivery.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { REPO } from '../helpers/paths.ts';
import { withStateDb } from '../helpers/state-db.ts';

const SCHEDULE = [150, 300, 450];
// The servers' settings (read once, when each server starts): the receivers here are on 127.0.0.1.
process.env['REII_WEBHOOKS_ALLOW_PRIVATE'] = '1';
process.env['REII_WEBHOOKS_TICK_MS'] = '50';
process.env['REII_WEBHOOKS_RETRY_SCHEDULE'] = SCHEDULE.join(',');

// ------------------------------------------------------------------ helpers

interface Reg { id: string; state_code: string; jurisdiction_level: string; category: string; subcategory: string; title: string; status: string; verified_at?: string }
interface FakeOpts { rehab?: Record<string, [string, number]>; regulations?: Record<string, Reg[]> }

/** A minimal build folder: a manifest plus rehab and regulations shards (enough to raise every event). */
function fakeBuild(artifacts: string, id: string, o: FakeOpts): string {
  const dir = path.join(artifacts, 'builds', id);
  const shards = path.join(dir, 'shards');
  for (const [zip, [label, score]] of Object.entries(o.rehab ?? {})) {
    fs.mkdirSync(path.join(shards, 'market', 'rehab', zip), { recursive: true });
    fs.writeFileSync(path.join(shards, 'market', 'rehab', zip, '6.json'), JSON.stringify({ zip_code: zip, city: 'Seattle', state: 'WA', rehab_momentum_score: score, label, trend: 'up', trend_pct: 1, confidence: 'high', as_of: '2026-10-31' }));
  }
  for (const [st, recs] of Object.entries(o.regulations ?? {})) {
    fs.mkdirSync(path.join(shards, 'regulations'), { recursive: true });
    fs.writeFileSync(path.join(shards, 'regulations', `${st}.json`), JSON.stringify(recs));
  }
  const total = Object.keys(o.rehab ?? {}).length + Object.keys(o.regulations ?? {}).length;
  fs.mkdirSync(shards, { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({
    format_version: FORMAT_VERSION, build_id: id, as_of: '2026-10-31', built_at: '2026-11-21T06:00:00.000Z', status: 'published',
    shards: { total, by_family: { rehab: Object.keys(o.rehab ?? {}).length, regulations: Object.keys(o.regulations ?? {}).length }, bytes: 1 },
    tables: [{ name: 'regulations', rows: 2 }, { name: 'raw.x', rows: 9 }, { name: 'meta.rejects', rows: 0 }], rejects: { total: 0, by_source: [] },
  }));
  return dir;
}

const reg = (id: string, title: string, extra: Partial<Reg> = {}): Reg => ({ id, state_code: 'WA', jurisdiction_level: 'state', category: 'eviction', subcategory: 'notice', title, status: 'active', verified_at: '2026-01-01', ...extra });

interface Received { at: number; headers: http.IncomingHttpHeaders; body: string }

/** A receiver on 127.0.0.1; `mode` decides each answer: a status, or 'hang' (never answers); `location`
 *  is sent with it (for redirects). */
async function receiver(): Promise<{ url: string; got: Received[]; mode: { value: number | 'hang'; location?: string }; close(): Promise<void> }> {
  const got: Received[] = [];
  const mode: { value: number | 'hang'; location?: string } = { value: 204 };
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (mode.value === 'hang') { hanging.push(res); return; }
      res.writeHead(mode.value, { 'Content-Type': 'text/plain', ...(mode.location ? { Location: mode.location } : {}) });
      res.end(mode.value >= 300 ? 'nope' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`, got, mode,
    close: () => new Promise<void>((r) => { for (const h of hanging) h.destroy(); server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** Standard Webhooks verification, written from the spec (not the service's own helper). */
function verifySignature(secret: string, r: Received, toleranceSec = 300): boolean {
  const id = r.headers['webhook-id'];
  const ts = r.headers['webhook-timestamp'];
  const sig = r.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(ts)) > toleranceSec) return false;
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest();
  return sig.split(' ').some((s) => {
    const [v, b64] = s.split(',');
    if (v !== 'v1' || !b64) return false;
    const got = Buffer.from(b64, 'base64');
    return got.length === expected.length && crypto.timingSafeEqual(got, expected);
  });
}

const tmp = (p: string): string => fs.mkdtempSync(path.join(os.tmpdir(), p));
const cursorOf = (state: string): { build_id: string } | null => {
  if (!fs.existsSync(path.join(state, 'state.db'))) return null;
  const row = withStateDb(state, (db) => db.prepare("SELECT value FROM meta WHERE name = 'webhooks.cursor'").get()) as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as { build_id: string }) : null;
};
/** The outbox rows of a state folder (read with node:sqlite directly). */
const outboxCount = (state: string): number => Number((withStateDb(state, (db) => db.prepare('SELECT count(*) AS n FROM webhook_outbox').get()) as { n: number }).n);
const ALL_EVENTS = ['build.published', 'market.rehab_label_changed', 'regulation.changed'];

/** A server started with REII_WEBHOOKS_ALLOW_PRIVATE unset (the setting is read when a server starts). */
async function strictServer(artifacts: string, state?: string): Promise<TestServer> {
  delete process.env['REII_WEBHOOKS_ALLOW_PRIVATE'];
  try {
    return await startTestServer(artifacts, { state });
  } finally {
    process.env['REII_WEBHOOKS_ALLOW_PRIVATE'] = '1';
  }
}

interface EndpointView { id: string; status: string; disabled_reason: string | null; consecutive_failures: number; pending_messages: number; last_delivery: { ok: boolean; event_id: string; status_code: number | null; error: string } | null }
const endpointsOf = async (srv: TestServer, key: string): Promise<EndpointView[]> =>
  ((await (await srv.get('/v1/webhooks', key)).json()) as { endpoints: EndpointView[] }).endpoints;

/** Waits until the service has emitted the events of `buildId` (the cursor names it: it is written after
 *  every message of the build is in the outbox) and the endpoint's outbox is empty (a message is deleted
 *  only after the receiver answered 2xx). From then on, what the receiver holds for that build is final. */
async function quiet(srv: TestServer, key: string, endpointId: string, buildId: string): Promise<void> {
  await waitFor(async () => cursorOf(srv.state)?.build_id === buildId && (await endpointsOf(srv, key)).find((e) => e.id === endpointId)?.pending_messages === 0,
    { what: `build ${buildId} emitted and delivered to ${endpointId}` });
}

// ------------------------------------------------------------------ in-process server

describe('webhooks', () => {
  let artifacts: string;
  let srv: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let pro: string;

  beforeAll(async () => {
    artifacts = tmp('reii-wh-art-');
    publish(artifacts, fakeBuild(artifacts, 'b1', {
      rehab: { 98101: ['Warming', 41], 98102: ['Hot', 77] },
      regulations: { WA: [reg('wa-1', 'Notice period'), reg('wa-2', 'Old rule')] },
    }));
    srv = await startTestServer(artifacts);
    rx = await receiver();
    pro = srv.key('pro');
    await waitFor(() => cursorOf(srv.state)?.build_id === 'b1', { what: 'the first build recorded as the baseline' });
  });
  afterAll(async () => {
    await srv?.close();
    await rx?.close();
  });

  test('plan gating: webhooks need pro', async () => {
    for (const plan of ['starter', 'builder']) {
      const k = srv.key(plan);
      expect((await srv.get('/v1/webhooks', k)).status).toBe(403);
      const res = await srv.post('/v1/webhooks', { url: rx.url, events: ['build.published'] }, k);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toMatch(/pro/);
    }
    expect((await srv.get('/v1/webhooks', srv.key('scale'))).status).toBe(200);
    expect((await srv.get('/v1/webhooks')).status).toBe(401);
  });

  test('validation: events from the list, http(s) only', async () => {
    expect((await srv.post('/v1/webhooks', { url: rx.url, events: ['nope'] }, pro)).status).toBe(422);
    expect((await srv.post('/v1/webhooks', { url: rx.url, events: [] }, pro)).status).toBe(422);
    expect((await srv.post('/v1/webhooks', { url: rx.url }, pro)).status).toBe(400);
    expect((await srv.post('/v1/webhooks', { url: 'ftp://example.com/x', events: ['build.published'] }, pro)).status).toBe(422);
    expect((await srv.post('/v1/webhooks', { url: 'http://user:pw@127.0.0.1:9/x', events: ['build.published'] }, pro)).status).toBe(422);
    expect((await srv.post('/v1/webhooks', { url: 'not a url at all', events: ['build.published'] }, pro)).status).toBe(400);
  });

  test('a published build raises build.published, rehab label and regulation events, signed per Standard Webhooks', async () => {
    const res = await srv.post('/v1/webhooks', { url: rx.url, events: ALL_EVENTS, description: 'all' }, pro);
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; secret: string; status: string; events: string[] };
    expect(schemaErrors('WebhookEndpointCreated', created)).toEqual([]);
    expect(res.headers.get('location')).toBe(`/v1/webhooks/${created.id}`);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const before = rx.got.length;

    publish(artifacts, fakeBuild(artifacts, 'b2', {
      rehab: { 98101: ['Active', 58], 98102: ['Hot', 79], 98103: ['Cold', 5] }, // 98101 changes; 98103 is new (no event)
      regulations: { WA: [reg('wa-1', 'Notice period, amended'), reg('wa-3', 'New rule'), reg('wa-4', 'x', { verified_at: '2026-06-01' })] },
    }));
    // wa-4 is new too; wa-2 expired (gone from the active shard)
    await quiet(srv, pro, created.id, 'b2'); // every message of b2 answered: nothing more of b2 can arrive
    const got = rx.got.slice(before);
    expect(got).toHaveLength(6);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(6);
    const payloads = got.map((r) => JSON.parse(r.body) as { id: string; type: string; version: number; data: Record<string, unknown> });
    for (const [i, r] of got.entries()) {
      expect(verifySignature(created.secret, r)).toBe(true);
      expect(libVerify(created.secret, r.headers, r.body)).toEqual({ ok: true });
      expect(verifySignature(created.secret, { ...r, body: r.body + ' ' })).toBe(false);
      expect(r.headers['webhook-id']).toBe(payloads[i]!.id);
      expect(r.headers['content-type']).toBe('application/json');
    }
    const byType = (t: string) => payloads.filter((p) => p.type === t);
    const pub = byType('build.published');
    expect(pub).toHaveLength(1);
    expect(pub[0]!.id).toBe('evt_b2_build_published');
    expect(pub[0]!.version).toBe(1);
    // Standard Webhooks payload shape: type, timestamp (ISO 8601), data.
    for (const p of payloads as unknown as Record<string, unknown>[]) {
      expect(Object.keys(p).sort()).toEqual(['data', 'id', 'timestamp', 'type', 'version']);
      expect(new Date(p['timestamp'] as string).toISOString()).toBe(p['timestamp']);
    }
    expect(pub[0]!.data).toMatchObject({ build_id: 'b2', previous_build_id: 'b1', as_of: '2026-10-31', tables: { regulations: 2 }, changes: { rehab_labels: 1, regulations: 4 } });
    expect(schemaErrors('WebhookEventBuildPublished', pub[0])).toEqual([]);
    const rehab = byType('market.rehab_label_changed');
    expect(rehab).toHaveLength(1);
    expect(rehab[0]).toMatchObject({ id: 'evt_b2_rehab_98101', data: { zip_code: '98101', previous_label: 'Warming', label: 'Active' } });
    expect(schemaErrors('WebhookEventRehabLabelChanged', rehab[0])).toEqual([]);
    const regs = byType('regulation.changed');
    expect(Object.fromEntries(regs.map((p) => [p.data['regulation_id'], p.data['change']]))).toEqual({ 'wa-1': 'changed', 'wa-2': 'expired', 'wa-3': 'added', 'wa-4': 'added' });
    expect(regs.find((p) => p.data['regulation_id'] === 'wa-1')!.data['changed_fields']).toEqual(['title']);
    for (const p of regs) expect(schemaErrors('WebhookEventRegulationChanged', p)).toEqual([]);

    // A re-review (only verified_at moves) is not a change.
    publish(artifacts, fakeBuild(artifacts, 'b3', {
      rehab: { 98101: ['Active', 60], 98102: ['Hot', 79], 98103: ['Cold', 5] },
      regulations: { WA: [reg('wa-1', 'Notice period, amended', { verified_at: '2027-01-01' }), reg('wa-3', 'New rule'), reg('wa-4', 'x', { verified_at: '2026-06-01' })] },
    }));
    await quiet(srv, pro, created.id, 'b3');
    // b3 raises build.published alone; b2's events were not sent again.
    const third = rx.got.slice(before + 6);
    expect(third.map((r) => r.headers['webhook-id'])).toEqual(['evt_b3_build_published']);
    expect((JSON.parse(third[0]!.body) as { data: { changes: unknown } }).data.changes).toEqual({ rehab_labels: 0, regulations: 0 });

    const list = await srv.get('/v1/webhooks', pro);
    const text = await list.text();
    expect(text).not.toContain(created.secret);
    expect(text).not.toContain('whsec_');
    const body = JSON.parse(text) as { endpoints: { id: string; status: string; last_delivery: { ok: boolean; event_id: string } }[] };
    expect(schemaErrors('WebhookEndpointList', body)).toEqual([]);
    const mine = body.endpoints.find((e) => e.id === created.id)!;
    expect(mine.status).toBe('active');
    expect(mine.last_delivery).toMatchObject({ ok: true, event_id: 'evt_b3_build_published' });
    expect(list.headers.get('cache-control')).toBe('no-store');
  });

  test('POST /v1/webhooks/{id}/test queues a webhook.test event (202); DELETE is per key', async () => {
    const res = await srv.post('/v1/webhooks', { url: rx.url, events: ['build.published'] }, pro);
    const { id, secret } = (await res.json()) as { id: string; secret: string };
    const t = await srv.post(`/v1/webhooks/${id}/test`, '', pro);
    expect(t.status).toBe(202);
    const queued = (await t.json()) as { event_id: string };
    expect(schemaErrors('WebhookTestQueued', queued)).toEqual([]);
    const r = await waitFor(() => rx.got.find((g) => g.headers['webhook-id'] === queued.event_id), { what: 'the test event' });
    expect(verifySignature(secret, r)).toBe(true);
    const payload = JSON.parse(r.body) as { type: string; data: { endpoint_id: string } };
    expect(payload).toMatchObject({ type: 'webhook.test', version: 1, data: { endpoint_id: id } });
    expect(schemaErrors('WebhookEventTest', payload)).toEqual([]);

    const other = srv.key('enterprise');
    expect((await fetch(`${srv.url}/v1/webhooks/${id}`, { method: 'DELETE', headers: { 'X-Service-Key': other } })).status).toBe(404);
    expect((await srv.post(`/v1/webhooks/${id}/test`, '', other)).status).toBe(404);
    expect((await fetch(`${srv.url}/v1/webhooks/wh_doesnotexist`, { method: 'DELETE', headers: { 'X-Service-Key': pro } })).status).toBe(404);
    const del = await fetch(`${srv.url}/v1/webhooks/${id}`, { method: 'DELETE', headers: { 'X-Service-Key': pro } });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    const after = (await (await srv.get('/v1/webhooks', pro)).json()) as { endpoints: { id: string }[] };
    expect(after.endpoints.map((e) => e.id)).not.toContain(id);
  });

  test('a receiver that keeps failing is retried on the schedule, then the endpoint is disabled', async () => {
    const bad = await receiver();
    bad.mode.value = 500;
    try {
      const { id } = (await (await srv.post('/v1/webhooks', { url: bad.url, events: ['build.published'] }, pro)).json()) as { id: string };
      const t = (await (await srv.post(`/v1/webhooks/${id}/test`, '', pro)).json()) as { event_id: string };
      // The endpoint is disabled after the answer to its last attempt: every attempt has reached the receiver.
      const status = await waitFor(async () => (await endpointsOf(srv, pro)).find((x) => x.id === id && x.status === 'disabled'), { what: 'the endpoint disabled' });
      expect(status.disabled_reason).toMatch(/retries exhausted/);
      expect(status.consecutive_failures).toBe(SCHEDULE.length + 1);
      expect(status.pending_messages).toBe(0);
      expect(status.last_delivery).toMatchObject({ ok: false, status_code: 500 });
      expect(bad.got).toHaveLength(SCHEDULE.length + 1);
      // No attempt after the last retry: a later message, queued after the disabling and delivered by the same
      // delivery loop, arrives while the bad receiver still holds exactly 1 + 3 attempts.
      const marker = (await (await srv.post('/v1/webhooks', { url: rx.url, events: ['build.published'] }, pro)).json()) as { id: string };
      const queued = (await (await srv.post(`/v1/webhooks/${marker.id}/test`, '', pro)).json()) as { event_id: string };
      await waitFor(async () => (await endpointsOf(srv, pro)).find((x) => x.id === marker.id && x.last_delivery?.event_id === queued.event_id), { what: 'the marker delivered' });
      expect(rx.got.some((g) => g.headers['webhook-id'] === queued.event_id)).toBe(true);
      await fetch(`${srv.url}/v1/webhooks/${marker.id}`, { method: 'DELETE', headers: { 'X-Service-Key': pro } });
      expect(bad.got).toHaveLength(SCHEDULE.length + 1); // no attempt after the last retry
      expect(new Set(bad.got.map((g) => g.headers['webhook-id']))).toEqual(new Set([t.event_id])); // same id every time
      for (let i = 1; i < bad.got.length; i++) {
        const gap = bad.got[i]!.at - bad.got[i - 1]!.at;
        // Each retry waits its delay (less up to 10% jitter) from when the failure was known, which is after the
        // receiver saw the failed attempt: so however late an attempt arrives, the gap holds (1 ms for the clocks'
        // rounding to whole milliseconds).
        expect(gap).toBeGreaterThanOrEqual(SCHEDULE[i - 1]! * 0.9 - 1);
      }
      const dead = withStateDb(srv.state, (db) => db.prepare('SELECT message FROM webhook_dead').all() as { message: string }[]).map((r) => JSON.parse(r.message) as { event_id: string; attempts: number; dead_reason: string });
      expect(dead.find((d) => d.event_id === t.event_id)).toMatchObject({ attempts: SCHEDULE.length + 1 });
      // The dead letters are visible through the API too.
      expect((await endpointsOf(srv, pro)).find((e) => e.id === id)).toMatchObject({ status: 'disabled', pending_messages: 0, dead_messages: dead.filter((d) => d.dead_reason && (d as unknown as { endpoint_id: string }).endpoint_id === id).length });
      expect(dead.filter((d) => (d as unknown as { endpoint_id: string }).endpoint_id === id).length).toBeGreaterThan(0);
      // A disabled endpoint takes no test events and gets no build events.
      expect((await srv.post(`/v1/webhooks/${id}/test`, '', pro)).status).toBe(422);
    } finally {
      await bad.close();
    }
  });

  test('410 Gone disables the endpoint at once', async () => {
    const gone = await receiver();
    gone.mode.value = 410;
    try {
      const { id } = (await (await srv.post('/v1/webhooks', { url: gone.url, events: ['build.published'] }, pro)).json()) as { id: string };
      await srv.post(`/v1/webhooks/${id}/test`, '', pro);
      await waitFor(() => gone.got.length >= 1, { what: 'one attempt' });
      const e = await waitFor(async () => (await endpointsOf(srv, pro)).find((q) => q.id === id && q.status === 'disabled'), { what: 'the endpoint disabled' });
      expect(e.disabled_reason).toMatch(/410/);
      expect(gone.got).toHaveLength(1);
    } finally {
      await gone.close();
    }
  });

  test('private, loopback and link-local targets are refused (422) unless REII_WEBHOOKS_ALLOW_PRIVATE=1', async () => {
    const strict = await strictServer(artifacts);
    try {
      const pro = strict.key('pro');
      for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x', 'http://10.1.2.3/x', 'http://172.20.0.1/x', 'http://192.168.1.1/x', 'http://169.254.169.254/latest/meta-data', 'http://[fd00::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://0.0.0.0/x', 'https://[64:ff9b::a00:1]/x', 'https://[2002:7f00:1::1]/x', 'https://[::ffff:7f00:1]/x']) {
        const res = await strict.post('/v1/webhooks', { url, events: ['build.published'] }, pro);
        expect(res.status, url).toBe(422);
        const body = (await res.json()) as { errors: { field: string; code: string }[] };
        expect(body.errors[0]!.field).toBe('url');
        expect(['private_address', 'unresolvable']).toContain(body.errors[0]!.code);
      }
      expect(await checkTarget('https://hooks.example.com/x', false, async () => ['93.184.216.34'])).toMatchObject({ ok: true });
      expect(await checkTarget('https://rebind.example.com/x', false, async () => ['93.184.216.34', '10.0.0.5'])).toMatchObject({ ok: false, code: 'private_address' });
      // Standard Webhooks: https only (plain http only in the operator's private/dev mode).
      expect(await checkTarget('http://hooks.example.com/x', false, async () => ['93.184.216.34'])).toMatchObject({ ok: false, code: 'https_required' });
      expect(await checkTarget('http://hooks.example.com/x', true, async () => ['10.0.0.5'])).toMatchObject({ ok: true });
    } finally {
      await strict.close();
    }
    expect((await srv.post('/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: ['build.published'] }, pro)).status).toBe(201);
  });

  test('with REII_WEBHOOKS_ALLOW_PRIVATE off, deliveries to endpoints registered while it was on are refused at send time (IP literal and a host name resolving to 127.0.0.1)', async () => {
    const local = await receiver();
    const state = tmp('reii-wh-strict-state-');
    const lax = await startTestServer(artifacts, { state }); // the setting is on
    let strict: TestServer | null = null;
    try {
      const pro = lax.key('pro');
      // https targets, so the https rule does not answer first: if the private check let them through, the
      // attempt would fail on TLS against this plain receiver instead, with another error.
      const literal = local.url.replace('http:', 'https:');
      const byName = literal.replace('127.0.0.1', 'localhost'); // resolves to 127.0.0.1 (or ::1)
      const plain = local.url.replace('127.0.0.1', 'localhost');
      const ids: string[] = [];
      for (const url of [literal, byName, plain]) {
        const res = await lax.post('/v1/webhooks', { url, events: ['build.published'] }, pro); // allowed: the setting is on
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      }
      // The operator restarts the server over the same state with the setting off.
      await lax.close();
      strict = await strictServer(artifacts, state);
      const restarted = strict;
      for (const id of ids) expect((await restarted.post(`/v1/webhooks/${id}/test`, '', pro)).status).toBe(202);
      const failed = await waitFor(async () => {
        const mine = (await endpointsOf(restarted, pro)).filter((e) => ids.includes(e.id));
        return mine.every((e) => e.last_delivery) ? mine : null;
      }, { what: 'all three refused' });
      for (const e of failed) expect(e.last_delivery).toMatchObject({ ok: false, status_code: null });
      const errorOf = (id: string): string => failed.find((e) => e.id === id)!.last_delivery!.error;
      expect(errorOf(ids[0]!)).toMatch(/^refused: 127\.0\.0\.1 is a private/);
      expect(errorOf(ids[1]!)).toMatch(/^EWEBHOOKPRIVATE: refused: localhost resolves to private address/);
      expect(errorOf(ids[2]!)).toMatch(/^refused: webhook targets must use https/);
      // A retry is refused too: wait until each endpoint has failed its second attempt, then the receiver
      // still has nothing.
      const retried = await waitFor(async () => {
        const mine = (await endpointsOf(restarted, pro)).filter((e) => ids.includes(e.id));
        return mine.every((e) => e.consecutive_failures >= 2) ? mine : null;
      }, { what: 'a refused retry on each endpoint' });
      for (const e of retried) expect(e.last_delivery).toMatchObject({ ok: false, status_code: null });
      expect(local.got).toHaveLength(0);
    } finally {
      await lax.close();
      await strict?.close();
      await local.close();
    }
  });

  test('the private-address check at connect time refuses a host name resolving to 127.0.0.1 even over https', async () => {
    const { refusedAtSend, deliveryLookup } = await import('../../api/webhooks/ssrf.ts');
    expect(refusedAtSend('https://localhost:9/x', false)).toBeNull(); // a name: judged when resolved
    expect(refusedAtSend('https://127.0.0.1:9/x', false)).toMatch(/private/);
    expect(refusedAtSend('https://[64:ff9b::7f00:1]/x', false)).toMatch(/private/);
    expect(refusedAtSend('https://127.0.0.1:9/x', true)).toBeNull();
    const err = await new Promise<(Error & { code?: string }) | null>((resolve) => deliveryLookup(false)('localhost', {}, (e) => resolve(e as (Error & { code?: string }) | null)));
    expect(err?.code).toBe('EWEBHOOKPRIVATE');
  });

  test('a redirect from the receiver is not followed: the attempt fails with its status and the target gets nothing', async () => {
    const target = await receiver();
    const redirecting = await receiver();
    redirecting.mode.value = 302;
    redirecting.mode.location = target.url;
    try {
      const { id } = (await (await srv.post('/v1/webhooks', { url: redirecting.url, events: ['build.published'] }, pro)).json()) as { id: string };
      await srv.post(`/v1/webhooks/${id}/test`, '', pro);
      await waitFor(() => redirecting.got.length >= 1, { what: 'the attempt' });
      const e = await waitFor(async () => (await endpointsOf(srv, pro)).find((x) => x.id === id && x.last_delivery), { what: 'the failure recorded' });
      expect(e.last_delivery).toMatchObject({ ok: false, status_code: 302 });
      // The attempt is recorded only after it ended: a followed redirect would have reached the target by now.
      expect(target.got).toHaveLength(0);
      await fetch(`${srv.url}/v1/webhooks/${id}`, { method: 'DELETE', headers: { 'X-Service-Key': pro } });
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  test('address classification', () => {
    for (const a of ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '127.0.0.1', '127.8.8.8', '169.254.1.1', '::1', '::', 'fc00::1', 'fdff::1', 'fe80::1', '::ffff:10.0.0.1', '100.64.0.1', '0.0.0.0',
      '::ffff:7f00:1', // IPv4-mapped in hex: 127.0.0.1
      '64:ff9b::a9fe:a9fe', '64:ff9b::127.0.0.1', '64:ff9b:1::5', // NAT64 of 169.254.169.254 and 127.0.0.1; local-use NAT64
      '2002:a00:1::1', '2002:7f00:1::', '2002:c0a8:101::1', // 6to4 of 10.0.0.1, 127.0.0.1, 192.168.1.1
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::7f00:1', 'fec0::1']) expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:4860:4860::8888']) expect(isPrivateAddress(a), a).toBe(false);
  });

  test('the retry schedule spans about three days and is configurable', () => {
    const total = RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeGreaterThan(2.9);
    expect(total / 86_400_000).toBeLessThan(3.5);
    expect(parseSchedule('5s,5m,2h,100')).toEqual([5000, 300_000, 7_200_000, 100]);
  });

  test('OpenAPI: the webhooks map and the routes', () => {
    const doc = openApiDocument() as { webhooks: Record<string, { post: { requestBody: unknown } }>; paths: Record<string, Record<string, { responses: Record<string, unknown>; 'x-plan': string }>> };
    expect(Object.keys(doc.webhooks).sort()).toEqual(['build.published', 'market.rehab_label_changed', 'regulation.changed', 'webhook.test']);
    expect(doc.paths['/v1/webhooks']!['post']!.responses['201']).toBeDefined();
    expect(doc.paths['/v1/webhooks']!['post']!['x-plan']).toBe('pro');
    expect(doc.paths['/v1/webhooks/{id}']!['delete']!.responses['204']).toBeDefined();
    expect(doc.paths['/v1/webhooks/{id}/test']!['post']!.responses['202']).toBeDefined();
  });
});

// ------------------------------------------------------------------ a real server process, killed mid-delivery

describe('webhooks survive a crash', () => {
  const children: ChildProcess[] = [];
  afterAll(() => { for (const c of children) if (c.exitCode === null) c.kill('SIGKILL'); });

  function serve(artifacts: string, state: string): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn('node', ['--import', 'tsx', 'bin/cli.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--artifacts', artifacts, '--state', state], {
      cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REII_WEBHOOKS_ALLOW_PRIVATE: '1', REII_WEBHOOKS_TICK_MS: '50', REII_WEBHOOKS_RETRY_SCHEDULE: '300,300,300' },
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => { err += d.toString(); const m = /serving (http:\/\/\S+)/.exec(err); if (m) resolve({ child, url: m[1]! }); });
      child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
    });
  }

  test('SIGKILL during a delivery: after a restart the event is delivered again with the same webhook-id', async () => {
    const artifacts = tmp('reii-wh-kill-');
    const state = tmp('reii-wh-kill-state-');
    publish(artifacts, fakeBuild(artifacts, 'k1', { rehab: { '02134': ['Cold', 10] } }));
    const { key } = new KeyStore(state).create({ plan: 'pro', name: 'kill test', rpm: null });
    const rx = await receiver();
    rx.mode.value = 'hang';
    try {
      const first = await serve(artifacts, state);
      const res = await fetch(`${first.url}/v1/webhooks`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Key': key }, body: JSON.stringify({ url: rx.url, events: ['build.published', 'market.rehab_label_changed'] }) });
      expect(res.status).toBe(201);
      const { secret } = (await res.json()) as { secret: string };
      await waitFor(() => cursorOf(state)?.build_id === 'k1', { what: 'baseline build k1' });

      publish(artifacts, fakeBuild(artifacts, 'k2', { rehab: { '02134': ['Hot', 90] } }));
      await waitFor(() => rx.got.length >= 1, { what: 'the first attempt (the receiver hangs)', deadlineMs: 20_000 });
      const firstIds = new Set(rx.got.map((g) => g.headers['webhook-id']));
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      expect(outboxCount(state)).toBe(2); // build.published + the rehab label change: both still owed
      const seenBefore = rx.got.length;

      rx.mode.value = 200;
      const second = await serve(artifacts, state);
      const redelivered = await waitFor(() => {
        const ids = new Set(rx.got.slice(seenBefore).map((g) => g.headers['webhook-id']));
        return ids.has('evt_k2_build_published') && ids.has('evt_k2_rehab_02134') ? rx.got.slice(seenBefore) : null;
      }, { what: 'redelivery after restart', deadlineMs: 30_000 });
      for (const id of firstIds) expect(redelivered.map((g) => g.headers['webhook-id'])).toContain(id);
      for (const r of redelivered) expect(verifySignature(secret, r)).toBe(true);
      const outboxEmpty = (): boolean => outboxCount(state) === 0;
      await waitFor(outboxEmpty, { what: 'an empty outbox' });
      // No duplicate emission: the restart did not raise k2's events again. A later build is the marker: its
      // events are emitted after the restarted server's own check of k2, so once k3's are delivered and the
      // outbox is empty, any second emission of k2 would have been delivered too.
      publish(artifacts, fakeBuild(artifacts, 'k3', { rehab: { '02134': ['Warming', 50] } }));
      await waitFor(() => cursorOf(state)?.build_id === 'k3' && outboxEmpty() && rx.got.some((g) => g.headers['webhook-id'] === 'evt_k3_build_published'),
        { what: 'k3 emitted and delivered', deadlineMs: 30_000 });
      const after = rx.got.slice(seenBefore).map((g) => g.headers['webhook-id']);
      expect(after.filter((x) => x === 'evt_k2_build_published')).toHaveLength(1);
      expect(after.filter((x) => x === 'evt_k2_rehab_02134')).toHaveLength(1);
      expect(after.filter((x) => x === 'evt_k3_build_published')).toHaveLength(1);
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    } finally {
      await rx.close();
    }
  });
});
