// A county sent as a city (h68places), over HTTP on a real server over the shared build: city=King County&state=WA,
// city=King County, WA, city=Cook County&state=IL, city=Jefferson County&state=KY were a 404 "No city named King County
// in WA" (or "no city of that name ... closest names: Jeff, Jeffersontown") on every route that takes a city. Now a 422
// (well-formed, not allowed: DESIGN.md's split) whose one field error {field: city, code: county} says it is a county,
// not a city, and what to send: its largest cities, a zip of it, its county_fips for the regulations lookup. The county
// and its FIPS are read here from the raw Census Gazetteer county file, the zip's county from the raw zip reference, and
// each city named answers the geo lookup in that county.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

const get = async (path: string): Promise<[number, Record<string, unknown>]> => { const r = await srv.get(path, key); return [r.status, await r.json() as Record<string, unknown>]; };

/** The Gazetteer's county of a state by its name: its FIPS. */
async function rawCounty(state: string, name: string): Promise<string> {
  const rows = await rawQuery<{ geoid: string }>(`select "GEOID" as geoid from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_counties_national.txt.gz')}', all_varchar = true, delim = '|')
    where "USPS" = '${state}' and "NAME" = '${name}'`);
  expect(rows, `${name}, ${state} in the Gazetteer`).toHaveLength(1);
  return rows[0]!.geoid;
}
/** The raw zip reference's state and county (without "County") of a zip. */
const rawZip = async (zip: string): Promise<{ state: string; county: string }[]> => rawQuery(`select state, county from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true) where zip_code = '${zip}'`);

const ROUTES = ['/v1/geo/lookup', '/v1/market/trends', '/v1/market/investor-overview', '/v1/legal/market-legal-risk', '/v1/legal/landlord-profile', '/v1/regulations/lookup'];

describe('a county typed where a city goes', () => {
  it.each([
    ['King County', 'WA', 'city=King%20County&state=WA'],
    ['King County', 'WA', 'city=King%20County,%20WA'],
    ['King County', 'WA', 'city=king%20co.&state=WA'],
    ['Cook County', 'IL', 'city=Cook%20County&state=IL'],
    ['Jefferson County', 'KY', 'city=Jefferson%20County&state=KY'],
    ['Orleans Parish', 'LA', 'city=Orleans%20Parish&state=LA'],
  ])('%s, %s (%s): a 422 on every city route naming its cities, a zip and its FIPS', async (county, state, query) => {
    const fips = await rawCounty(state, county);
    let first: Record<string, unknown> | null = null;
    for (const route of ROUTES) {
      const [status, body] = await get(`${route}?${query}`);
      expect(status, route).toBe(422);
      const errors = body['errors'] as { field: string; code: string; message: string }[];
      expect(errors, route).toEqual([{ field: 'city', code: 'county', message: expect.stringContaining(`is ${county}, ${state}, a county, not a city`) as string }]);
      expect(body['message']).toBe(`Validation failed: ${errors[0]!.message}`);
      expect(errors[0]!.message).toContain(`county_fips=${fips} on /v1/regulations/lookup`);
      if (first) expect(body, route).toEqual(first); // one answer, whatever the route
      first = body;
    }
    const message = String(first!['message']);
    // the cities it names each answer the geo lookup as a city of that county
    const cities = /the largest (?:is|are) (.+?) \(city=/.exec(message)![1]!.split(/, | and /);
    expect(cities.length).toBeGreaterThanOrEqual(1);
    for (const city of cities) {
      const [status, body] = await get(`/v1/geo/lookup?city=${encodeURIComponent(city)}&state=${state}`);
      expect([city, status, body['county_name'], body['fips_code']]).toEqual([city, 200, county, fips]);
    }
    // the zip it names is one of the county's in the raw zip reference
    const zip = /e\.g\. zip=(\d{5})/.exec(message)![1]!;
    expect(await rawZip(zip)).toEqual([{ state, county: county.replace(/ (County|Parish)$/, '') }]);
  });

  it('a city named like a county stays the city; a bare county name and a county of another state are no county here', async () => {
    // Kings County is Brooklyn (the resolver's borough counties); "Cook" alone is no county; King County is in WA, not OR
    expect((await get('/v1/geo/lookup?city=Kings%20County&state=NY'))[1]['city_name']).toBe('Brooklyn');
    expect((await get('/v1/geo/lookup?city=Cook&state=IL'))[0]).not.toBe(422);
    expect((await get('/v1/geo/lookup?city=King%20County&state=OR'))[0]).toBe(404);
    // a Connecticut former county keeps its own answer: its towns
    const [status, body] = await get('/v1/geo/lookup?city=Fairfield%20County&state=CT');
    expect(status).toBe(404);
    expect(String(body['message'])).toMatch(/former counties/);
  });
});
