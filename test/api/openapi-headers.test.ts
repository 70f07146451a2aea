// The OpenAPI document's response headers against a real server (127.0.0.1, port 0, over the shared build): the
// limit headers a success carries are the ones its operation documents, and every component of the document is used.
// Before h68user a keyed answer carried X-Quota-Limit/Remaining/Reset that no operation documented (the three header
// components and the ExportFile schema were defined and never referenced), so a client generated from the document
// had no type for them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>; components: Record<string, Record<string, unknown>> };

let server: TestServer;
let doc: Doc;
beforeAll(async () => {
  server = await startTestServer(artifactsDir());
  doc = await (await server.get('/v1/openapi.json')).json() as Doc;
});
afterAll(async () => { await server?.close(); });

const LIMIT_HEADER = /^x-(ratelimit|quota)-/i;
/** The limit headers of an answer, by their documented spelling. */
const sent = (r: Response): string[] => [...r.headers.keys()].filter((h) => LIMIT_HEADER.test(h)).map((h) => h.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase()).replace('Ratelimit', 'RateLimit')).sort();
const documented = (path: string, method: string, status: string): string[] =>
  Object.keys(doc.paths[path]![method]!.responses[status]!.headers ?? {}).filter((h) => LIMIT_HEADER.test(h)).sort();

describe('documented limit headers are the ones sent', () => {
  const cases: [string, string, string, string | null, string][] = [
    ['keyed GET', '/v1/geo/states', '/v1/geo/states', 'starter', '200'],
    ['keyed GET (free)', '/v1/usage', '/v1/usage', 'starter', '200'],
    ['keyed GET of a market', '/v1/market/comps', '/v1/market/comps?zip=98103', 'builder', '200'],
    ['keyed export listing', '/v1/export', '/v1/export', 'scale', '200'],
    ['public GET', '/v1/coverage/summary', '/v1/coverage/summary', null, '200'],
    ['public system GET', '/v1/health', '/v1/health', null, '200'],
  ];
  test.each(cases)('%s %s', async (_kind, path, target, plan, status) => {
    const r = await server.get(target, plan ? server.key(plan) : null);
    expect(r.status).toBe(Number(status));
    await r.arrayBuffer();
    expect(sent(r)).toEqual(documented(path, 'get', status));
    if (plan) expect(sent(r)).toContain('X-Quota-Remaining');
  });

  test('a keyed POST (201 of a webhook registration keeps the 200\'s headers)', async () => {
    const r = await server.post('/v1/valuation/estimate', { zip: '98103', address: '4000 Stone Way N', sqft: 1800 }, server.key('builder'));
    expect(r.status).toBe(200);
    await r.arrayBuffer();
    expect(sent(r)).toEqual(documented('/v1/valuation/estimate', 'post', '200'));
    expect(documented('/v1/webhooks', 'post', '201')).toEqual(documented('/v1/valuation/estimate', 'post', '200'));
  });
});

test('every component of the document is referenced', () => {
  const refs = new Set([...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`));
  const unused = Object.entries(doc.components).filter(([kind]) => kind !== 'securitySchemes')
    .flatMap(([kind, entries]) => Object.keys(entries).map((name) => `${kind}/${name}`)).filter((c) => !refs.has(c));
  expect(unused).toEqual([]);
});

test('the autocomplete example finds addresses (q=Seattle, the example before h68user, answered none: no address of King County is indexed)', async () => {
  const q = (doc.paths['/v1/address/autocomplete']!['get'] as unknown as { parameters: { name: string; schema: { examples?: unknown[] } }[] })
    .parameters.find((p) => p.name === 'q')!.schema.examples![0] as string;
  const r = await server.get(`/v1/address/autocomplete?q=${encodeURIComponent(q)}`, server.key('starter'));
  expect(r.status).toBe(200);
  const body = await r.json() as { results: { address: string }[] };
  expect(body.results.length).toBeGreaterThan(0);
  expect(body.results[0]!.address.toLowerCase()).toContain(q.toLowerCase());
});

test('the /docs page names every limit header a keyed answer carries (X-Quota-Reset was left out before h68user)', async () => {
  const page = await (await server.get('/docs')).text();
  const r = await server.get('/v1/geo/states', server.key('starter'));
  await r.arrayBuffer();
  // each family is written once, its other members as <code>-Remaining</code>...: read the sentence of each family
  for (const family of ['X-RateLimit', 'X-Quota']) {
    const sentence = page.slice(page.indexOf(`<code>${family}-Limit</code>`)).split('</code> (')[0]!;
    for (const h of sent(r).filter((x) => x.startsWith(`${family}-`) && x !== `${family}-Limit`)) expect(`${sentence}</code>`, h).toContain(`<code>-${h.slice(family.length + 1)}</code>`);
  }
});
