// New York City's boroughs by their counties' names (review 23 #1): `GET /v1/geo/lookup?city=Kings County&state=NY`
// and the trends of it answered 404 "closest names: Kings Point" (a Long Island village), and `city=Richmond&state=NY`
// suggested only "Richmondville", while research read "Kings County" as Brooklyn. Each borough is a county: a county's
// name with its County word (or "Co.") is that borough on every city endpoint, in New York only; a bare "Kings" or
// "Richmond" is no place (no Census place of New York bears either name), and its 404 names the borough first.
// The borough of each county is read from the raw simplemaps cities file (its county_fips and county_name), and the
// county's name and GEOID from the raw Census Gazetteer counties file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
/** [county name as the Gazetteer names it, its GEOID, the borough whose county it is (simplemaps)] */
let counties: [string, string, string][];
beforeAll(async () => {
  srv = await startTestServer(artifactsDir()); key = srv.key('pro');
  counties = (await rawQuery<{ county: string; fips: string; borough: string }>(`
    with sm as (select city, county_fips, county_name from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)
                where state_id = 'NY' and city in ('Manhattan', 'Brooklyn', 'Queens', 'Bronx', 'Staten Island')),
         gz as (select "NAME" as name, "GEOID" as geoid from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_counties_national.txt.gz')}', all_varchar = true, delim = '|')
                where "USPS" = 'NY')
    select gz.name as county, gz.geoid as fips, sm.city as borough from sm join gz on gz.geoid = sm.county_fips and gz.name = sm.county_name || ' County'
    order by fips`)).map((r) => [r.county, r.fips, r.borough]);
});
afterAll(async () => { await srv?.close(); });

const get = async (path: string): Promise<[number, Record<string, unknown>]> => { const r = await srv.get(path, key); return [r.status, await r.json() as Record<string, unknown>]; };
const q = encodeURIComponent;

describe('NYC borough counties on the city endpoints', () => {
  it('the raw files pair five New York counties with the five boroughs', () => {
    expect(counties).toEqual([
      ['Bronx County', '36005', 'Bronx'], ['Kings County', '36047', 'Brooklyn'], ['New York County', '36061', 'Manhattan'],
      ['Queens County', '36081', 'Queens'], ['Richmond County', '36085', 'Staten Island'],
    ]);
  });

  it('geo lookup: each county by name (and "Co.", any case) is its borough\'s answer, whose county and FIPS are the county\'s', async () => {
    for (const [county, fips, borough] of counties) {
      const want = await get(`/v1/geo/lookup?city=${q(borough)}&state=NY`);
      expect(want[0], borough).toBe(200);
      expect([want[1]['county_name'], want[1]['fips_code']]).toEqual([county, fips]);
      for (const typed of [county, county.toLowerCase(), county.replace(/ County$/, ' Co.')]) {
        expect(await get(`/v1/geo/lookup?city=${q(typed)}&state=NY`), typed).toEqual(want);
      }
    }
  });

  it('market trends and the investor overview of "Kings County" answer as Brooklyn (city: Brooklyn says the reading)', async () => {
    const want = await get('/v1/market/trends?city=Brooklyn&state=NY&property_type=sfr');
    const got = await get(`/v1/market/trends?city=${q('Kings County')}&state=NY&property_type=sfr`);
    expect(got).toEqual(want);
    expect(got[1]['city']).toBe('Brooklyn');
    expect(await get(`/v1/market/investor-overview?city=${q('Richmond County')}&state=NY`)).toEqual(await get(`/v1/market/investor-overview?city=${q('Staten Island')}&state=NY`));
  });

  it('a bare "Richmond" or "Kings" is no place of New York in the raw Gazetteer, and its 404 names the borough first', async () => {
    const places = await rawQuery<{ name: string }>(`select "NAME" as name from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', all_varchar = true, delim = '|')
      where "USPS" = 'NY' and regexp_replace("NAME", ' (city|town|village|CDP)$', '') in ('Richmond', 'Kings')`);
    expect(places).toEqual([]);
    const [status, body] = await get('/v1/geo/lookup?city=Richmond&state=NY');
    expect(status).toBe(404);
    expect(body['message']).toBe('No city named Richmond in NY; closest names: Staten Island, Richmondville; Richmond County is Staten Island, a borough of New York City: '
      + 'ask city=Staten Island or city=Richmond County (the county\'s name without County is read as no place)');
    const trends = await get('/v1/market/trends?city=Kings&state=NY&property_type=sfr');
    expect(trends[0]).toBe(404);
    expect(String(trends[1]['message'])).toContain('closest names: Brooklyn, ');
    expect(String(trends[1]['message'])).toContain('Kings County is Brooklyn, a borough of New York City: ask city=Brooklyn or city=Kings County');
  });

  it('only in New York: Kings County, CA (a county of its own in the Gazetteer) is no Brooklyn', async () => {
    const ca = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_counties_national.txt.gz')}', all_varchar = true, delim = '|')
      where "USPS" = 'CA' and "NAME" = 'Kings County'`);
    expect(ca[0]!.n).toBe(1);
    const [status, body] = await get(`/v1/geo/lookup?city=${q('Kings County')}&state=CA`);
    // a county sent as a city: its own answer, a 422 naming its cities (h68places, test/api/county-as-city.test.ts)
    expect(status).toBe(422);
    expect(String(body['message'])).not.toContain('Brooklyn');
    expect(String(body['message'])).toContain('is Kings County, CA, a county, not a city');
  });
});
