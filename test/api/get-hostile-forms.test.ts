// Hostile forms of every GET endpoint's query (h68places sweep), over HTTP on a real server over the shared build:
// repeated parameters, empty and blank values, a 10 kB value, an emoji, broken and NUL percent-escapes, `+` against
// `%20`, case, trailing slashes, HEAD, and a query on the docs and OpenAPI paths. Each answer is a clear 4xx of the
// contract (JSON {message, errors?}) or the 200 of the plain request, never a 5xx, a hang or another city guessed.
// What the sweep changed: a path written with a trailing slash or in capitals ("/v1/geo/lookup/", "/V1/GEO/LOOKUP")
// was a bare 404 "No endpoint /v1/geo/lookup/"; it is still a 404 (never read as the endpoint) and names the path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

interface Answer { status: number; type: string; text: string; ms: number }
async function call(path: string, method = 'GET'): Promise<Answer> {
  const t = Date.now();
  const r = await fetch(`${srv.url}${path}`, { method, headers: { 'X-Service-Key': key }, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text(), ms: Date.now() - t };
}
const json = (a: Answer): Record<string, unknown> => JSON.parse(a.text) as Record<string, unknown>;

/** Each GET endpoint with a query it answers with 200, its first parameter and that parameter's value. */
const PLAIN: readonly [path: string, query: string][] = [
  ['/v1/geo/lookup', 'city=Seattle&state=WA'], ['/v1/market/investor-overview', 'city=Seattle&state=WA'],
  ['/v1/market/trends', 'city=Seattle&state=WA'], ['/v1/legal/market-legal-risk', 'city=Seattle&state=WA'],
  ['/v1/legal/landlord-profile', 'city=Seattle&state=WA'], ['/v1/regulations/lookup', 'state=WA&city=Seattle'],
  ['/v1/market/comps', 'zip=98103'], ['/v1/market/rehab-score', 'zip=98103'], ['/v1/location/risk', 'zip=98103'],
  ['/v1/geo/markets', 'state=WA'], ['/v1/legal/tax-sale', 'state=WA'], ['/v1/address/autocomplete', 'q=400%20Broad'],
];

/** The hostile forms of a query: its first parameter repeated, empty, blank, 10 kB, an emoji, %zz, %00. */
function forms(query: string): [string, string][] {
  const [first, ...rest] = query.split('&');
  const [name] = first!.split('=');
  const tail = rest.length ? `&${rest.join('&')}` : '';
  return [
    ['repeated', `${query}&${first!}`], ['repeated, another value', `${query}&${name!}=${name === 'zip' ? '10001' : 'OR'}`],
    ['empty', `${name!}=${tail}`], ['blank', `${name!}=%20${tail}`], ['10 kB', `${name!}=${'a'.repeat(10_000)}${tail}`],
    ['emoji', `${name!}=%F0%9F%8F%A0${tail}`], ['%zz', `${name!}=%zz${tail}`], ['%00', `${name!}=%00${tail}`],
    ['name in capitals', query.replace(/^[a-z_]+=/, (n) => n.toUpperCase())],
  ];
}

describe('every GET endpoint under hostile queries', () => {
  it('each form is a 4xx of the contract, JSON with a message, answered in time; HEAD answers the status of GET without a body', async () => {
    const bad: string[] = [];
    for (const [path, query] of PLAIN) {
      const plain = await call(`${path}?${query}`);
      if (plain.status !== 200) bad.push(`${path}?${query}: ${plain.status}`);
      for (const [what, q] of forms(query)) {
        const a = await call(`${path}?${q}`);
        const head = await call(`${path}?${q}`, 'HEAD');
        if (a.status < 400 || a.status >= 500) bad.push(`${path} ${what}: ${a.status}`);
        else if (!a.type.startsWith('application/json') || typeof json(a)['message'] !== 'string') bad.push(`${path} ${what}: ${a.type} ${a.text.slice(0, 80)}`);
        if (a.ms > 5000) bad.push(`${path} ${what}: ${a.ms} ms`);
        if (head.status !== a.status || head.text !== '') bad.push(`${path} ${what}: HEAD ${head.status} with ${head.text.length} bytes`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('a city in any case, with + or %20 or a literal plus, answers as the city; a state in lower case is a 422 naming the code', async () => {
    const want = json(await call('/v1/geo/lookup?city=San%20Francisco&state=CA'));
    expect(want['city_name']).toBe('San Francisco');
    for (const city of ['San+Francisco', 'SAN%20FRANCISCO', 'san+francisco', '+San++Francisco+', 'San%2BFrancisco']) {
      const a = await call(`/v1/geo/lookup?city=${city}&state=CA`);
      expect([city, a.status, json(a)]).toEqual([city, 200, want]);
    }
    const lower = await call('/v1/geo/lookup?city=San%20Francisco&state=ca');
    expect([lower.status, json(lower)['message']]).toEqual([422, 'Validation failed: state must be uppercase, e.g. CA']);
  });

  it('a repeated parameter is never one of its values guessed: a 400 naming it, whichever route', async () => {
    for (const path of ['/v1/geo/lookup?city=Seattle&city=Portland&state=WA', '/v1/market/comps?zip=98103&zip=10001', '/v1/geo/markets?state=WA&state=OR']) {
      const a = await call(path);
      expect([path, a.status, (json(a)['errors'] as { code: string }[])[0]!.code]).toEqual([path, 400, 'duplicate']);
    }
  });

  it('a path with a trailing slash, in capitals or with a doubled slash: a 404 that names the endpoint\'s path', async () => {
    for (const [path, endpoint] of [['/v1/geo/lookup/?city=Seattle&state=WA', '/v1/geo/lookup'], ['/V1/GEO/LOOKUP?city=Seattle&state=WA', '/v1/geo/lookup'],
      ['/v1/market//comps?zip=98103', '/v1/market/comps'], ['/v1/openapi.json/', '/v1/openapi.json'], ['/v1/Health', '/v1/health']] as const) {
      const a = await call(path);
      expect([path, a.status, json(a)['message']]).toEqual([path, 404,
        `No endpoint ${path.split('?')[0]!}: the endpoint's path is ${endpoint} (lower case, no trailing slash); see /v1/openapi.json`]);
    }
    const nowhere = await call('/v1/nowhere/');
    expect(json(nowhere)['message']).toBe('No endpoint /v1/nowhere/; see /v1/openapi.json');
  });

  it('the docs and the OpenAPI document: a query they take none of is ignored, a broken escape too (test/api/static-routes.test.ts)', async () => {
    const doc = await call('/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect((await call('/v1/openapi.json?x=1&x=2')).text).toBe(doc.text);
    expect((await call('/docs?x=%zz')).status).toBe(200);
    expect((await call('/docs/')).status).toBe(308);
    expect((await call('/v1/openapi.json?%zz')).text).toBe(doc.text);
    expect((await call(`/v1/openapi.json?q=${'a'.repeat(10_000)}`)).status).toBe(414);
  });
});
