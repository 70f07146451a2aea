// Every endpoint x (no key, unknown key, wrong plan, missing parameter, malformed value, disallowed
// value, no data) -> status, the one error body shape {message, errors?}, and the rate headers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
// Many deliberate 401s from one address: raise the failed-auth throttle (tested in keys-limits.test.ts).
beforeAll(async () => { srv = await startTestServer(artifactsDir(), { anonymous: { requestsPerMinute: 1000, failedAuthPer10Min: 1000 } }); });
afterAll(async () => { await srv.close(); });

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  plan: string; // lowest plan that includes it
  below: string | null; // a plan that lacks it
  ok: string | unknown; // a valid request: query string (GET) or body (POST)
  missing: string | unknown; // a required parameter missing -> 400
  malformed: string | unknown; // a malformed value -> 400
  disallowed: string | unknown; // well-formed, not allowed -> 422
  noData: string | unknown; // valid, no data -> 404
}

const CASES: Case[] = [
  { name: 'regulations', method: 'GET', path: '/v1/regulations/lookup', plan: 'pro', below: 'builder', ok: 'state=CA', missing: '', malformed: 'state=C4', disallowed: 'state=CA&category=parking', noData: 'state=PR' },
  { name: 'rehab', method: 'GET', path: '/v1/market/rehab-score', plan: 'builder', below: 'starter', ok: 'zip=37206', missing: 'months=6', malformed: 'zip=3720', disallowed: 'zip=37206&months=30', noData: 'zip=00001' },
  { name: 'investor', method: 'GET', path: '/v1/market/investor-overview', plan: 'builder', below: 'starter', ok: 'city=Denver&state=CO', missing: 'state=CO', malformed: 'city=Denver&state=Colorado', disallowed: 'city=Denver&state=ZZ', noData: 'city=Nowhereville&state=CO' },
  { name: 'comps', method: 'GET', path: '/v1/market/comps', plan: 'builder', below: 'starter', ok: 'zip=98103', missing: 'months=6', malformed: 'zip=98103&months=six', disallowed: 'zip=98103&property_type=castle', noData: 'zip=00001' },
  { name: 'geo lookup', method: 'GET', path: '/v1/geo/lookup', plan: 'starter', below: null, ok: 'city=Seattle&state=WA', missing: 'city=Seattle', malformed: 'city=Seattle&state=W', disallowed: 'city=Seattle&state=wa', noData: 'city=Nowhereville&state=WA' },
  { name: 'geo markets', method: 'GET', path: '/v1/geo/markets', plan: 'starter', below: null, ok: 'state=TX', missing: 'tier=primary', malformed: 'state=TX&investor_active=maybe', disallowed: 'state=TX&tier=mega', noData: 'state=GU' },
  { name: 'location', method: 'GET', path: '/v1/location/risk', plan: 'starter', below: null, ok: 'zip=02139', missing: 'lat=42.37', malformed: 'lat=north&lng=-71.1', disallowed: 'lat=95&lng=-71.1', noData: 'zip=00001' },
  { name: 'autocomplete', method: 'GET', path: '/v1/address/autocomplete', plan: 'starter', below: null, ok: 'q=3526 HIGH', missing: 'limit=5', malformed: 'q=3526 HIGH&limit=many', disallowed: 'q=35', noData: null },
  { name: 'market legal risk', method: 'GET', path: '/v1/legal/market-legal-risk', plan: 'pro', below: 'builder', ok: 'state=CA&city=San Francisco', missing: 'state=CA', malformed: 'state=California&city=San Francisco', disallowed: 'state=ZZ&city=Somewhere', noData: 'state=CA&city=Nowhereville' },
  { name: 'landlord profile', method: 'GET', path: '/v1/legal/landlord-profile', plan: 'pro', below: 'builder', ok: 'state=TX', missing: '', malformed: 'state=T', disallowed: 'state=tx', noData: 'state=PR' },
  { name: 'tax sale', method: 'GET', path: '/v1/legal/tax-sale', plan: 'pro', below: 'builder', ok: 'state=FL', missing: '', malformed: 'state=F1', disallowed: 'state=ZZ', noData: 'state=VI' },
  { name: 'valuation', method: 'POST', path: '/v1/valuation/estimate', plan: 'builder', below: 'starter', ok: { zip: '98103', address: '1 Main St', sqft: 1800 }, missing: { zip: '98103' }, malformed: { zip: '9810', address: '1 Main St' }, disallowed: { zip: '98103', address: '1 Main St', sqft: -5 }, noData: { zip: '00001', address: '1 Main St', sqft: 1500 } },
  { name: 'research', method: 'POST', path: '/v1/research/query', plan: 'pro', below: 'builder', ok: { query: 'What is the eviction notice period in Texas?' }, missing: { depth: 'quick' }, malformed: '{"query": ', disallowed: { query: 'eviction notice in Texas', depth: 'forever' }, noData: null },
];

function call(c: Case, input: unknown, key: string | null): Promise<Response> {
  if (c.method === 'GET') return srv.get(`${c.path}${input ? `?${String(input)}` : ''}`, key);
  return srv.post(c.path, input, key);
}

async function expectError(res: Response, status: number): Promise<{ message: string; errors?: { field: string; code: string; message: string }[] }> {
  const body = (await res.json()) as { message: string; errors?: { field: string; code: string; message: string }[] };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(schemaErrors('Problem', body)).toEqual([]);
  expect(body.message.length).toBeGreaterThan(5);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) expect(res.headers.get(h), h).not.toBeNull();
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node:internal|\.ts:\d+/);
  return body;
}

describe.each(CASES)('$name ($method $path)', (c) => {
  test('no key -> 401 with a challenge', async () => {
    const res = await call(c, c.ok, null);
    await expectError(res, 401);
    expect(res.headers.get('www-authenticate')).toContain('X-Service-Key');
  });
  test('unknown key -> 401', async () => {
    await expectError(await call(c, c.ok, 'ries_live_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'), 401);
  });
  test('wrong plan -> 403 naming the plan needed', async () => {
    if (!c.below) return;
    const body = await expectError(await call(c, c.ok, srv.key(c.below)), 403);
    expect(body.message).toContain(c.plan);
  });
  test('missing parameter -> 400 naming the field', async () => {
    const body = await expectError(await call(c, c.missing, srv.key(c.plan, 100_000)), 400);
    expect(body.errors?.length).toBeGreaterThan(0);
  });
  test('malformed value -> 400', async () => {
    await expectError(await call(c, c.malformed, srv.key(c.plan, 100_000)), 400);
  });
  test('disallowed value -> 422 with errors[]', async () => {
    const body = await expectError(await call(c, c.disallowed, srv.key(c.plan, 100_000)), 422);
    expect(body.errors?.[0]).toMatchObject({ field: expect.any(String), code: expect.any(String), message: expect.any(String) });
  });
  test('no data -> 404', async () => {
    if (c.noData === null) return;
    await expectError(await call(c, c.noData, srv.key(c.plan, 100_000)), 404);
  });
});

describe('public and system endpoints', () => {
  test('coverage summary needs no key and is public-cacheable', async () => {
    const res = await srv.get('/v1/coverage/summary', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('public');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000'); // this server's per-address limit (set above)
    expect(schemaErrors('CoverageSummary', await res.json())).toEqual([]);
  });
  test('unknown route -> 404, wrong method -> 405 with Allow', async () => {
    await expectError(await srv.get('/v1/nope', null), 404);
    const res = await fetch(`${srv.url}/v1/geo/states`, { method: 'DELETE' });
    await expectError(res, 405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
  test('body not JSON -> 400, wrong media type -> 415, too large -> 413', async () => {
    const key = srv.key('builder', 100_000);
    await expectError(await srv.post('/v1/valuation/estimate', '{"zip": "981', key), 400);
    await expectError(await srv.post('/v1/valuation/estimate', 'zip=98103', key, { 'Content-Type': 'text/plain' }), 415);
    await expectError(await srv.post('/v1/valuation/estimate', JSON.stringify({ zip: '98103', address: 'x'.repeat(20_000) }), key), 413);
  });
  test('OpenAPI 3.1 lists every route with x-plan', async () => {
    const res = await srv.get('/v1/openapi.json', null);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { 'x-plan': string | null }>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const c of CASES) expect(doc.paths[c.path]?.[c.method.toLowerCase()]?.['x-plan']).toBe(c.plan);
    expect(doc.paths['/v1/coverage/summary']?.['get']?.['x-plan']).toBeNull();
  });
  test('every request is one access-log line with request id, route, status, ms and key id', async () => {
    const key = srv.key('starter');
    const res = await srv.get('/v1/geo/states', key);
    const id = res.headers.get('x-request-id');
    await new Promise((r) => setTimeout(r, 20));
    const line = srv.logs.find((l) => l['request_id'] === id);
    expect(line).toMatchObject({ route: 'GET /v1/geo/states', status: res.status, key_id: expect.any(String) });
    expect(typeof line?.['ms']).toBe('number');
    expect(JSON.stringify(srv.logs)).not.toContain(key);
  });
});
