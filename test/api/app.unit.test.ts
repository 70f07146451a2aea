// The request pipeline (api/app.ts) on a real server over the shared build, 127.0.0.1 port 0, with the server's
// clock injected (startServer's `now`), so windows, resets and the month are exact and no test can straddle a
// minute. Oracles: the contract (interface-v1.md: headers, statuses, the health and usage bodies), the plan table
// (api/plans.json), the build's manifest.json, and times worked out by hand from the pinned clock. The live modules
// (valuation, research, autocomplete, location) are not loaded: this file is about the pipeline, and a quick start
// keeps it usable per mutant in `npm run mutate`.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../../api/server.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { KeyStore } from '../../api/keys.ts';
import { withStateDb } from '../helpers/state-db.ts';
import { SERVER_METHODS } from '../../api/route-match.ts';

const NOV21 = Date.UTC(2026, 10, 21, 6, 0, 0);
let clock = NOV21;
let minute = 0;
/** A fresh whole minute for each test: its windows start empty. */
const freshMinute = (): number => { minute += 2; clock = NOV21 + minute * 60_000; return clock; };

let srv: RunningServer;
let state: string;
const logs: Record<string, unknown>[] = [];
const keys: Record<string, { key: string; id: string }> = {};
let nearQuota: { key: string; id: string };

beforeAll(async () => {
  state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-app-unit-'));
  const store = new KeyStore(state);
  for (const [name, plan, rpm] of [['starter', 'starter', null], ['builder', 'builder', null], ['pro', 'pro', null], ['enterprise', 'enterprise', null], ['rpm3', 'starter', 3], ['quota', 'starter', null]] as const) {
    const made = store.create({ plan, name, rpm });
    keys[name] = { key: made.key, id: made.record.id };
  }
  nearQuota = keys['quota']!;
  // the starter month is 2,000 calls: this key has used 1,999 of November's before the server starts
  fs.writeFileSync(path.join(state, 'usage.json'), JSON.stringify({ months: { '2026-11': { [nearQuota.id]: 1999 } }, last_used: {} }));
  const settings = loadSettings({ artifacts: artifactsDir(), state, port: '0', host: '127.0.0.1', redisUrl: '' });
  srv = await startServer({ settings, accessLog: (l) => logs.push(l), log: () => {}, live: [], now: () => clock, anonymous: { requestsPerMinute: 4, failedAuthPer10Min: 3 } });
});
afterAll(async () => {
  await srv?.close();
  fs.rmSync(state, { recursive: true, force: true });
});

const get = (p: string, key?: string, headers: Record<string, string> = {}): Promise<Response> => fetch(srv.url + p, { headers: { ...(key ? { 'X-Service-Key': key } : {}), ...headers } });
const k = (name: string): string => keys[name]!.key;

/** Sends raw bytes and returns the whole answer (the server closes or we read until the head and body arrived). */
function raw(text: string): Promise<string> {
  const u = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(u.port), '127.0.0.1', () => sock.end(text));
    let out = '';
    sock.on('data', (d) => { out += d.toString('latin1'); });
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}

describe('system endpoints', () => {
  test('health: ok with the served build id and as_of from its manifest, and the memory limits backend', async () => {
    freshMinute();
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { build_id: string; as_of: string };
    const res = await get('/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok', build_id: manifest.build_id, as_of: manifest.as_of, limits: { backend: 'memory', status: 'ok', detail: null } });
  });

  test('usage: plan, the UTC month, limit, used, remaining and the per-minute limit; only 2xx count; usage itself is free', async () => {
    const t = freshMinute();
    const usage = async (name: string): Promise<Record<string, unknown>> => { const r = await get('/v1/usage', k(name)); expect(r.status).toBe(200); return (await r.json()) as Record<string, unknown>; };
    expect(await usage('starter')).toEqual({ plan: 'starter', period_start: '2026-11-01T00:00:00.000Z', period_end: '2026-12-01T00:00:00.000Z', limit: 2000, used: 0, remaining: 2000, per_minute_limit: 10 });
    expect((await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter'))).status).toBe(200);
    expect((await get('/v1/geo/lookup?city=Seattle&state=wa', k('starter'))).status).toBe(422);
    expect((await get('/v1/geo/lookup?city=Nowhereville&state=WA', k('starter'))).status).toBe(404);
    const res = await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter'));
    expect(res.headers.get('x-quota-limit')).toBe('2000');
    expect(res.headers.get('x-quota-remaining')).toBe('1998'); // after this call: 2 counted
    expect(res.headers.get('x-quota-reset')).toBe(String(Date.UTC(2026, 11, 1) / 1000));
    expect(await usage('starter')).toMatchObject({ used: 2, remaining: 1998 });
    expect(await usage('rpm3')).toMatchObject({ plan: 'starter', per_minute_limit: 3 });
    expect(await usage('enterprise')).toEqual({ plan: 'enterprise', period_start: '2026-11-01T00:00:00.000Z', period_end: '2026-12-01T00:00:00.000Z', limit: null, used: 0, remaining: null, per_minute_limit: null });
    expect(clock).toBe(t);
  });

  test('in December the month starts again (the clock moves past the month end)', async () => {
    clock = Date.UTC(2026, 11, 1, 0, 0, 30);
    try {
      const r = await get('/v1/usage', k('builder'));
      expect(await r.json()).toEqual({ plan: 'builder', period_start: '2026-12-01T00:00:00.000Z', period_end: '2027-01-01T00:00:00.000Z', limit: 25000, used: 0, remaining: 25000, per_minute_limit: 60 });
      expect(r.headers.get('x-quota-reset')).toBe(String(Date.UTC(2027, 0, 1) / 1000));
    } finally {
      freshMinute();
    }
  });

  test('enterprise: unlimited quota and rate headers', async () => {
    freshMinute();
    const r = await get('/v1/geo/lookup?city=Seattle&state=WA', k('enterprise'));
    expect(r.status).toBe(200);
    expect(r.headers.get('x-quota-limit')).toBe('unlimited');
    expect(r.headers.get('x-quota-remaining')).toBe('unlimited');
    expect(r.headers.get('x-ratelimit-limit')).toBe('unlimited');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('unlimited');
  });
});

describe('limits on the injected clock', () => {
  test('per-key minute window: limit, remaining and the exact reset; 429 with Retry-After to the minute end', async () => {
    const t = freshMinute() + 45_000; // 45 s into the minute
    clock = t;
    const reset = (t - 45_000 + 60_000) / 1000;
    for (const left of [2, 1, 0]) {
      const r = await get('/v1/geo/lookup?city=Seattle&state=WA', k('rpm3'));
      expect(r.status).toBe(200);
      expect([r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining'), r.headers.get('x-ratelimit-reset')]).toEqual(['3', String(left), String(reset)]);
    }
    const refused = await get('/v1/geo/lookup?city=Seattle&state=WA', k('rpm3'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('15');
    expect(((await refused.json()) as { message: string }).message).toBe('Per-minute rate limit of 3 requests reached; retry after the window resets');
    clock = (reset * 1000);
    expect((await get('/v1/geo/lookup?city=Seattle&state=WA', k('rpm3'))).status).toBe(200);
  });

  test('public endpoints: per-address window, then 429 naming the limit; Retry-After at least 1 s', async () => {
    const t = freshMinute() + 59_500;
    clock = t;
    for (let i = 0; i < 4; i++) expect((await get('/v1/coverage/summary')).status).toBe(200);
    const r = await get('/v1/coverage/summary');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(((await r.json()) as { message: string }).message).toBe('Limit of 4 requests per minute per address reached for public endpoints');
    expect(r.headers.get('access-control-allow-origin')).toBe('*'); // a page on any origin can read why it was refused (issue 25)
    expect(r.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  test('failed keys: 401 with the challenge, then 429 auth_throttled after the address\'s failures; a valid key still works', async () => {
    freshMinute();
    clock += 600_000; // a new 10-minute window for failures
    const bad = 'ries_live_AAAAAAAA_' + 'B'.repeat(32);
    for (let i = 0; i < 3; i++) {
      const r = await get('/v1/geo/lookup?city=Seattle&state=WA', bad);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('ApiKey header="X-Service-Key"');
    }
    const throttled = await get('/v1/geo/lookup?city=Seattle&state=WA', bad);
    expect(throttled.status).toBe(429);
    expect(((await throttled.json()) as { message: string }).message).toMatch(/^Too many failed authentications/);
    const windowEnd = (Math.floor(clock / 600_000) + 1) * 600; // failures are counted per 10-minute window
    expect(throttled.headers.get('retry-after')).toBe(String(windowEnd - Math.floor(clock / 1000)));
    expect((await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter'))).status).toBe(200);
    clock += 600_000;
    expect((await get('/v1/geo/lookup?city=Seattle&state=WA', bad)).status).toBe(401);
  });

  test('monthly quota: the last call is answered with 0 remaining, the next is 429 naming the reset day; usage still answers', async () => {
    const t = freshMinute();
    const last = await get('/v1/geo/lookup?city=Seattle&state=WA', nearQuota.key);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-quota-remaining')).toBe('0');
    const over = await get('/v1/geo/lookup?city=Seattle&state=WA', nearQuota.key);
    expect(over.status).toBe(429);
    expect(over.headers.get('x-quota-remaining')).toBe('0');
    expect(over.headers.get('retry-after')).toBe(String(Date.UTC(2026, 11, 1) / 1000 - Math.floor(t / 1000)));
    expect(((await over.json()) as { message: string }).message).toBe('Monthly quota of 2000 calls used up; it resets on 2026-12-01');
    const usage = await get('/v1/usage', nearQuota.key);
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ used: 2000, remaining: 0 });
  });

  test('a key below the endpoint\'s plan: 403 naming the plan needed and the key\'s plan', async () => {
    freshMinute();
    const r = await get('/v1/market/comps?zip=98103', k('starter'));
    expect(r.status).toBe(403);
    expect(((await r.json()) as { message: string }).message).toBe('GET /v1/market/comps needs the builder plan or higher; this key is on starter');
    const p = await get('/v1/legal/tax-sale?state=FL', k('builder'));
    expect(((await p.json()) as { message: string }).message).toBe('GET /v1/legal/tax-sale needs the pro plan or higher; this key is on builder');
  });
});

describe('methods, targets and caching', () => {
  test('HEAD answers the GET headers without a body; OPTIONS lists the methods (CORS on public paths only)', async () => {
    freshMinute();
    const g = await get('/v1/geo/lookup?city=Seattle&state=WA', k('enterprise'), { 'Accept-Encoding': 'identity' });
    const body = await g.arrayBuffer();
    const h = await fetch(srv.url + '/v1/geo/lookup?city=Seattle&state=WA', { method: 'HEAD', headers: { 'X-Service-Key': k('enterprise'), 'Accept-Encoding': 'identity' } });
    expect(h.status).toBe(200);
    expect(h.headers.get('content-length')).toBe(String(body.byteLength));
    expect(h.headers.get('etag')).toBe(g.headers.get('etag'));
    expect((await h.arrayBuffer()).byteLength).toBe(0);
    const pub = await fetch(srv.url + '/v1/coverage/summary', { method: 'OPTIONS' });
    expect(pub.status).toBe(204);
    expect(pub.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(pub.headers.get('access-control-allow-origin')).toBe('*');
    expect(pub.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    const keyed = await fetch(srv.url + '/v1/valuation/estimate', { method: 'OPTIONS' });
    expect(keyed.status).toBe(204);
    expect(keyed.headers.get('allow')).toBe('POST, OPTIONS');
    expect(keyed.headers.get('access-control-allow-origin')).toBeNull();
    const wrong = await fetch(srv.url + '/v1/valuation/estimate', { method: 'PUT' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(((await wrong.json()) as { message: string }).message).toBe('PUT is not allowed on /v1/valuation/estimate; use POST');
  });

  test('absolute-form targets and fragments address the same endpoint; a malformed path escape is a 400 naming its parameter', async () => {
    freshMinute();
    const abs = await raw('GET http://example.invalid/v1/health?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(abs).toMatch(/^HTTP\/1\.1 200 /);
    expect(abs).toContain('"status":"ok"');
    const frag = await raw('GET /v1/health#frag?x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(frag).toMatch(/^HTTP\/1\.1 200 /);
    const q = await raw('GET /v1/geo/lookup?city=Seattle&state=WA#ignored HTTP/1.1\r\nHost: x\r\nX-Service-Key: ' + k('enterprise') + '\r\nConnection: close\r\n\r\n');
    expect(q).toMatch(/^HTTP\/1\.1 200 /);
    const bad = await fetch(srv.url + '/v1/webhooks/%E0%A4%A', { method: 'DELETE', headers: { 'X-Service-Key': k('pro') } });
    // the endpoint exists; its id is malformed, as a query escape that is no UTF-8 text is (review h71: was a 404 "No endpoint")
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'The path has malformed percent-encoding: %E0%A4%A',
      errors: [{ field: 'id', code: 'format', message: 'id has a % not followed by two hex digits; percent-encode the UTF-8 bytes of the text' }] });
    const decoded = await fetch(srv.url + '/v1/webhooks/wh%5Fnone', { method: 'DELETE', headers: { 'X-Service-Key': k('pro') } });
    expect(((await decoded.json()) as { message: string }).message).not.toMatch(/No endpoint/);
  });

  test('a query escape that is no UTF-8 text is a 400 naming it, not a 404 echoing replacement characters', async () => {
    freshMinute();
    const bad = await get('/v1/geo/lookup?city=%E0%A4%A&state=WA', k('starter'));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('The query has malformed percent-encoding: city=%E0%A4%A');
    const lone = await get('/v1/geo/lookup?city=Seattle%&state=WA', k('starter'));
    expect(lone.status).toBe(400);
    // a well-formed escape (multi-byte UTF-8 too) still reads as its text
    const ok = await get('/v1/geo/lookup?city=Se%61ttle&state=WA', k('starter'));
    expect(ok.status).toBe(200);
    const accented = await get('/v1/geo/lookup?city=Ca%C3%B1on%20City&state=CO', k('starter'));
    expect(accented.status).not.toBe(400);
  });

  test('a parameter given twice, or a key in the URL, is refused before anything else', async () => {
    freshMinute();
    const twice = await get('/v1/geo/lookup?city=Seattle&state=WA&state=OR', k('starter'));
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'state', code: 'duplicate', message: 'state is sent twice; send it once' }]);
    const inUrl = await get('/v1/geo/lookup?city=Seattle&state=WA&API_KEY=x', k('starter'));
    expect(inUrl.status).toBe(401);
    expect(((await inUrl.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'API_KEY', code: 'key_in_query', message: 'send the key in the X-Service-Key header, never in the URL' }]);
  });

  test('JSON answers with an ETag: If-None-Match with the tag or * is 304 without a body and not counted', async () => {
    freshMinute();
    const usage = async (): Promise<number> => ((await (await get('/v1/usage', k('pro'))).json()) as { used: number }).used;
    const before = await usage();
    const first = await get('/v1/regulations/lookup?state=CA&category=eviction', k('pro'));
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^W\/"/);
    for (const inm of [tag, '*', `"other", ${tag}`]) {
      const again = await get('/v1/regulations/lookup?state=CA&category=eviction', k('pro'), { 'If-None-Match': inm });
      expect(again.status, inm).toBe(304);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    }
    expect((await get('/v1/regulations/lookup?state=CA&category=eviction', k('pro'), { 'If-None-Match': '"other"' })).status).toBe(200);
    expect(await usage()).toBe(before + 2); // the two 200s; the 304s are not counted
  });

  test('bodies: charset in the media type is fine; arrays and null are not objects', async () => {
    freshMinute();
    const post = (body: string, type = 'application/json; charset=utf-8'): Promise<Response> => fetch(srv.url + '/v1/valuation/estimate', { method: 'POST', headers: { 'Content-Type': type, 'X-Service-Key': k('builder') }, body });
    const read = await post(JSON.stringify({ zip: '98103', sqft: 1800 }));
    expect(read.status).toBe(400); // read and validated: the missing address is named
    expect(((await read.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'address', code: 'required', message: 'address is required' }]);
    expect((await post(JSON.stringify({ zip: '98103', sqft: 1800 }), ' Application/JSON ')).status).toBe(400);
    for (const b of ['[1]', 'null', '"x"']) {
      const r = await post(b);
      expect(r.status, b).toBe(400);
      expect(((await r.json()) as { message: string }).message).toBe('The body must be a JSON object');
    }
    const media = await post('{}', 'text/plain');
    expect(media.status).toBe(415);
    expect(((await media.json()) as { message: string }).message).toBe('Send the body as application/json (got text/plain)');
    const none = await fetch(srv.url + '/v1/valuation/estimate', { method: 'POST', headers: { 'X-Service-Key': k('builder') }, body: new Uint8Array([123, 125]) });
    expect(((await none.json()) as { message: string }).message).toBe('Send the body as application/json (got no Content-Type)');
  });

  test('access log: one line per answer with the pinned time, route, status and key id', async () => {
    const t = freshMinute();
    logs.length = 0;
    await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter'));
    await get('/nowhere');
    const deadline = Date.now() + 10_000;
    while (logs.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(logs.map(({ ms: _ms, request_id: _id, ...rest }) => rest)).toEqual([
      { time: new Date(t).toISOString(), method: 'GET', route: 'GET /v1/geo/lookup', status: 200, key_id: keys['starter']!.id },
      { time: new Date(t).toISOString(), method: 'GET', route: 'unmatched', status: 404, key_id: null },
    ]);
    for (const l of logs) expect(l['request_id']).toMatch(/^req_/);
  });

  test('access log: exactly one line for an answer sent at once and for one sent after waiting (a body read)', async () => {
    logs.length = 0;
    const at = await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter')); // answered within the request's first turn
    const waited = await fetch(srv.url + '/v1/valuation/estimate', { method: 'POST', headers: { 'X-Service-Key': k('builder'), 'Content-Type': 'application/json' }, body: '{"zip":' }); // the body is read first
    expect(waited.status).toBe(400);
    await waited.arrayBuffer();
    const ids = [at.headers.get('x-request-id'), waited.headers.get('x-request-id')];
    const deadline = Date.now() + 10_000;
    while (logs.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100)); // a second line would have come by now
    expect(logs.map((l) => [l['request_id'], l['status'], l['route']])).toEqual([[ids[0], 200, 'GET /v1/geo/lookup'], [ids[1], 400, 'POST /v1/valuation/estimate']]);
  });
});

describe('the edges of HTTP', () => {
  const msg = async (r: Response): Promise<string> => ((await r.json()) as { message: string }).message;

  test('every answer is JSON with nosniff and a fresh request id; 204 and HEAD carry no body length of their own', async () => {
    freshMinute();
    const a = await get('/v1/health');
    const b = await get('/nowhere');
    for (const r of [a, b]) {
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9_-]+$/);
    }
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    const opt = await fetch(srv.url + '/v1/health', { method: 'OPTIONS' });
    expect(opt.status).toBe(204);
    expect(opt.headers.get('content-length')).toBeNull();
    expect(await msg(b)).toBe('No endpoint /nowhere; see /v1/openapi.json');
    expect(b.headers.get('cache-control')).toBe('no-store');
  });

  test('shards: ETag, Last-Modified from the build\'s manifest, Vary; 304 on If-None-Match; br or gzip as accepted', async () => {
    freshMinute();
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { built_at: string };
    const pub = await get('/v1/coverage/summary', undefined, { 'Accept-Encoding': 'identity' });
    expect(pub.headers.get('access-control-allow-origin')).toBe('*');
    const plain = await get('/v1/geo/states', k('enterprise'), { 'Accept-Encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('last-modified')).toBe(new Date(manifest.built_at).toUTCString());
    // review 15 #6: a keyed answer cached `private` for hours varies on the key, so a browser never serves one key's
    // copy to another key; the public summary does not (anyone may read it).
    expect(plain.headers.get('vary')).toBe('Accept-Encoding, X-Service-Key');
    expect(pub.headers.get('vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('content-encoding')).toBeNull();
    const etag = plain.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const text = await plain.text();
    const cached = await get('/v1/geo/states', k('enterprise'), { 'If-None-Match': etag });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(etag);
    expect(cached.headers.get('vary')).toBe('Accept-Encoding, X-Service-Key'); // a 304 names the same Vary (RFC 9110 15.4.5)
    expect((await cached.arrayBuffer()).byteLength).toBe(0);
    const enc = async (accept: string): Promise<string | null> => {
      const r = await get('/v1/geo/states', k('enterprise'), { 'Accept-Encoding': accept });
      const e = r.headers.get('content-encoding');
      expect(await r.text(), accept).toBe(text); // decoded by fetch: the same document whatever the encoding
      return e;
    };
    expect(await enc('gzip, br')).toBe('br');
    expect(await enc('gzip')).toBe('gzip');
    expect(await enc('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(await enc('BR')).toBe('br');
    expect(await enc('gzip;q=0')).toBeNull();
    expect(await enc('deflate')).toBeNull();
    expect(await enc(' gzip ; q=1 ')).toBe('gzip');
  });

  test('the OpenAPI document is public and cacheable for an hour', async () => {
    freshMinute();
    const r = await get('/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await r.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
  });

  test('URI over 4 KiB -> 414; body over 16 KiB, declared or streamed -> 413 and the connection closes; bad JSON -> 400', async () => {
    freshMinute();
    const long = await get('/v1/health?' + 'a'.repeat(4100));
    expect(long.status).toBe(414);
    expect(await msg(long)).toBe('The request URI is longer than 4096 bytes');
    const post = (body: string | ReadableStream<Uint8Array>): Promise<Response> => fetch(srv.url + '/v1/valuation/estimate', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Key': k('builder') }, body, duplex: 'half' } as RequestInit);
    const big = await post(JSON.stringify({ zip: '98103', address: 'x'.repeat(17_000) }));
    expect(big.status).toBe(413);
    expect(big.headers.get('connection')).toBe('close');
    expect(await msg(big)).toBe('The request body is larger than 16384 bytes');
    const chunk = new TextEncoder().encode('x'.repeat(8192));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({ pull(c) { if (sent++ < 3) c.enqueue(chunk); else c.close(); } });
    const streamed = await post(stream);
    expect(streamed.status).toBe(413);
    const exactText = JSON.stringify({ zip: '98103', address: 'a' }); // padded with JSON whitespace: a field it does not take is a 400
    const exact = await post(exactText + ' '.repeat(16_384 - exactText.length));
    expect(exact.status).toBe(404); // at the limit: read and validated; this server has no valuation module loaded
    expect(await msg(exact)).toMatch(/^valuation data is not available in build /);
    const json = await post('{"zip": ');
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ message: 'The body is not valid JSON', errors: [{ field: 'body', code: 'json', message: 'the body is not valid JSON' }] });
  });

  test('malformed HTTP -> 400 JSON with the public window\'s headers and a log line; headers over 16 KiB -> 431', async () => {
    const t = freshMinute();
    logs.length = 0;
    const bad = await raw('GET /v1/health HTTP/1.1\r\nHost x\r\n\r\n'); // a header line without its colon
    expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bad).toContain('X-RateLimit-Limit: 4\r\n');
    expect(bad).toContain('X-RateLimit-Remaining: 4\r\n'); // peeked, not counted
    expect(bad).toContain(`X-RateLimit-Reset: ${(t + 60_000) / 1000}\r\n`);
    expect(bad).toContain('Connection: close\r\n');
    expect(bad).toMatch(/X-Request-Id: req_/);
    expect(bad.slice(bad.indexOf('\r\n\r\n') + 4)).toBe('{"message":"Malformed HTTP request: a header line is not \\"Name: value\\" (a name holds a space, a colon is missing, or a character a header name may not have)"}');
    const huge = await raw(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(huge).toContain('{"message":"Request headers too large"}');
    const deadline = Date.now() + 10_000;
    while (logs.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(logs.map((l) => [l['status'], l['route'], l['method'], l['key_id'], l['time']])).toEqual([
      [400, 'unmatched', 'GET', null, new Date(t).toISOString()], [431, 'unmatched', 'GET', null, new Date(t).toISOString()],
    ]);
    expect(logs[0]!['error']).toBeTruthy();
  });

  test('a method node\'s parser does not know (BLAH, lower-case get) -> 405 JSON with Allow, before any handler; no HTTP token -> 400', async () => {
    freshMinute();
    for (const method of ['BLAH', 'get', 'FOO']) {
      const res = await raw(`${method} /v1/geo/lookup?city=Seattle&state=WA HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(res).toContain(`Allow: ${SERVER_METHODS}\r\n`);
      expect(res).toContain('Connection: close\r\n');
      expect(res).toMatch(/X-Request-Id: req_/);
      expect(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4))).toEqual({ message: `Method ${method} is not allowed: this server answers ${SERVER_METHODS}` });
    }
    expect(SERVER_METHODS).toMatch(/^GET, HEAD, .*OPTIONS$/);
    for (const bad of ['G(T /v1/health HTTP/1.1\r\nHost: x\r\n\r\n', 'THIS IS NOT HTTP\r\n\r\n']) expect(await raw(bad), bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  test('failed keys are reported against the address\'s public window, counting down', async () => {
    freshMinute();
    clock += 600_000 * 3; // past any earlier failures window
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 2; i++) remaining.push((await get('/v1/geo/lookup?city=Seattle&state=WA', 'nope')).headers.get('x-ratelimit-remaining'));
    expect(remaining).toEqual(['3', '2']);
    const missing = await get('/v1/geo/lookup?city=Seattle&state=WA');
    expect(missing.status).toBe(401);
    expect(await msg(missing)).toMatch(/key/i);
  });

  test('a key whose plan is unknown is refused with 403 naming the plan', async () => {
    freshMinute();
    const rec = { id: keys['starter']!.id };
    const setPlan = (plan: string): void => withStateDb(state, (db) => { db.prepare("UPDATE keys SET record = json_set(record, '$.plan', ?) WHERE id = ?").run(plan, rec.id); });
    try {
      setPlan('gold');
      srv.keys.reload?.();
      const r = await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter'));
      expect(r.status).toBe(403);
      expect(await msg(r)).toBe(`Key ${rec.id} has an unknown plan "gold"`);
    } finally {
      setPlan('starter');
      srv.keys.reload?.();
    }
    expect((await get('/v1/geo/lookup?city=Seattle&state=WA', k('starter'))).status).toBe(200);
  });
});
