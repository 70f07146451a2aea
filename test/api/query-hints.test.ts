// Two 400s that now say what is wrong (review h71), over HTTP on a real server over the shared build:
// - parameters separated by `;` (`?city=Seattle;state=WA`) were read as one parameter, city "Seattle;state=WA", and
//   answered about that ("state is required", "zip must be 5 digits"); now a 400 that names `&`, on every GET endpoint
//   that takes query parameters (the operations of the published OpenAPI document, with its example values), while a
//   `%3B` stays a `;` inside a value;
// - a county sent as a city without its state (`?city=King County`) was a plain "state is required"; now the 400 names
//   the counties of that name (read here from the raw Census Gazetteer county file, ordered by their zips in the raw zip
//   reference), and the city it suggests answers the geo lookup in that county.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

interface Body { message: string; errors?: { field: string; code: string; message: string }[] }
const get = async (target: string): Promise<[number, Body]> => { const r = await srv.get(target, key); return [r.status, (await r.json()) as Body]; };

interface Operation { parameters: { name: string; in: string; schema: { examples?: unknown[] } }[] }

describe('query parameters separated by ;', () => {
  it('every GET endpoint with two or more query parameters: a 400 naming & and the query so written', async () => {
    const doc = (await (await srv.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
    const tried: string[] = [];
    const bad: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const params = (ops['get']?.parameters ?? []).filter((p) => p.in === 'query' && p.schema.examples?.length && !Array.isArray(p.schema.examples[0]));
      if (params.length < 2 || path.includes('{')) continue;
      const [a, b] = params.map((p) => `${p.name}=${encodeURIComponent(String(p.schema.examples![0]))}`);
      const [status, body] = await get(`${path}?${a!};${b!}`);
      tried.push(path);
      const message = `query parameters are separated by &, not ;: "${decodeURIComponent(`${a!};${b!}`)}" is read as one parameter, ${params[0]!.name}; send ${decodeURIComponent(`${a!}&${b!}`)}`;
      const want = { message: `Bad request: ${message}`, errors: [{ field: params[0]!.name, code: 'format', message }] };
      if (status !== 400 || JSON.stringify(body) !== JSON.stringify(want)) bad.push(`${path}: ${status} ${JSON.stringify(body)}`);
    }
    expect(bad).toEqual([]);
    expect(tried).toEqual(expect.arrayContaining(['/v1/geo/lookup', '/v1/market/trends', '/v1/market/comps', '/v1/regulations/lookup', '/v1/address/autocomplete']));
  });

  it('several parameters after one ;, a name in capitals, a %3B inside a value', async () => {
    const [status, body] = await get('/v1/market/trends?city=Seattle;state=WA;months=12');
    expect([status, body.errors]).toEqual([400, [{ field: 'city', code: 'format', message: 'query parameters are separated by &, not ;: "city=Seattle;state=WA;months=12" is read as one parameter, city; send city=Seattle&state=WA&months=12' }]]);
    // a ; before a name the endpoint does not take, or before no `=`, is part of the value as before
    expect((await get('/v1/geo/lookup?city=Seattle;WA&state=WA'))[1].errors?.[0]?.message ?? '').not.toMatch(/separated by/);
    expect((await get('/v1/geo/lookup?city=Seattle%3Bstate%3DWA&state=WA'))[1].message).not.toMatch(/separated by/);
    // the query written with & answers
    expect((await get('/v1/market/trends?city=Seattle&state=WA&months=12'))[0]).toBe(200);
  });
});

/** The Gazetteer's counties of a name in every state: [state, FIPS]. */
const rawCounties = (name: string): Promise<{ state: string; geoid: string }[]> => rawQuery(`select "USPS" as state, "GEOID" as geoid
  from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_counties_national.txt.gz')}', all_varchar = true, delim = '|') where "NAME" = '${name}'`);
/** The raw zip reference's zips of a county (its name without "County") in a state. */
const rawZipCount = async (state: string, county: string): Promise<number> => Number((await rawQuery<{ n: bigint }>(`select count(distinct zip_code) as n
  from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true) where state = '${state}' and county = '${county}'`))[0]!.n);

const CITY_ROUTES = ['/v1/geo/lookup', '/v1/market/trends', '/v1/market/investor-overview', '/v1/legal/market-legal-risk', '/v1/legal/landlord-profile', '/v1/regulations/lookup'];

describe('a county sent as a city without its state', () => {
  it.each([['King County'], ['Cook County']])('%s: the 400 names the counties of that name, the one with the most zips first, and a city of it to send', async (county) => {
    const counties = await rawCounties(county);
    expect(counties.length).toBeGreaterThanOrEqual(2);
    const zips = await Promise.all(counties.map(async (c) => ({ ...c, zips: await rawZipCount(c.state, county.replace(/ County$/, '')) })));
    const first = zips.reduce((a, b) => (b.zips > a.zips ? b : a));
    let answer: Body | null = null;
    for (const route of CITY_ROUTES) {
      const [status, body] = await get(`${route}?city=${encodeURIComponent(county)}`);
      expect([route, status, body.errors?.map((e) => [e.field, e.code])]).toEqual([route, 400, [['state', 'required']]]);
      if (answer) expect(body, route).toEqual(answer);
      answer = body;
    }
    const message = answer!.errors![0]!.message;
    expect(message.startsWith(`state is required: "${county}" is a county, not a city: ${county}, ${first.state} (`)).toBe(true);
    for (const c of counties) expect(message).toContain(`${county}, ${c.state} (`);
    for (const c of counties) expect(message).toContain(`county_fips=${c.geoid})`);
    expect(message).toContain(`state=${first.state} and county_fips=${first.geoid} on /v1/regulations/lookup`);
    // the city it suggests is a city of that county
    const city = /e\.g\. city=([^&]+)&state=([A-Z]{2})/.exec(message)!;
    expect(city[2]).toBe(first.state);
    const [status, body] = await get(`/v1/geo/lookup?city=${encodeURIComponent(city[1]!)}&state=${city[2]!}`);
    expect([status, (body as unknown as Record<string, unknown>)['fips_code']]).toEqual([200, first.geoid]);
  });

  it('a county name that is a city\'s keeps the city\'s answer; a city name stays as before', async () => {
    // Kings County is Brooklyn's name too (the resolver's borough counties): read as Brooklyn, NY
    expect((await get('/v1/geo/lookup?city=Kings%20County'))[1].errors?.[0]?.message).toMatch(/^state is required: Kings County is read as Brooklyn, NY/);
    expect((await get('/v1/geo/lookup?city=Seattle'))[1].errors?.[0]?.message).toMatch(/^state is required: Seattle is a city of WA/);
  });
});
