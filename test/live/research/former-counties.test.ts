// Connecticut's former counties (live/places/former-counties.ts): "median price in Fairfield County CT" reads the county
// as its towns, each with its own figure, and says the county is a former one (planning regions since 2022); a rules
// question answers the state's rules once, listing the towns; the geo lookup of "Fairfield County" names them. Before,
// research answered "I don't have figures for Fairfield County, CT as a whole" and the lookup "No city named Fairfield
// County in CT". The town list is checked against the raw files: the towns of the Connecticut sales files (Town) that
// a USPS place name (GeoNames) of a 2020 ZCTA whose primary county is 09001 (us_geo zctas, old counties) names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let data: ResearchData;
let engine: ResearchEngine;
const ask = async (query: string) => (await engine.answer({ query, depth: 'quick' })).answer;
/** The towns of a former county by the raw files (FIPS 09001...), sorted. */
let rawTowns: (fips: string) => Promise<string[]>;

beforeAll(() => {
  data = researchData();
  engine = new ResearchEngine(data, null, PINNED_TODAY);
  rawTowns = async (fips) => (await rawQuery<{ town: string }>(`
    with towns as (
      select distinct trim("Town") as town from read_csv('${dataFile('connecticut-real-estate-sales/*.csv.gz')}', all_varchar = true, union_by_name = true)),
    zctas as (
      select "ZCTA5" as zcta from read_csv('${dataFile('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true) where "Primary County" = '${fips}'),
    ct as (
      select distinct lower(place) as place, zipcode in (select zcta from zctas) as inside
      from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true) where state_code = 'CT')
    -- a USPS place of the town's name, else one holding its name as whole words (Hartland: East and West Hartland)
    select town from towns t where exists (select 1 from ct where inside and (place = lower(t.town)
      or (contains(' ' || place || ' ', ' ' || lower(t.town) || ' ') and not exists (select 1 from ct c2 where c2.place = lower(t.town)))))
    order by town`)).map((r) => r.town);
});

const PLANNING = /one of Connecticut's former counties \(no county government since 1960; nine planning regions replaced the eight counties as Census county-equivalents in 2022\)/;

describe('a former Connecticut county', () => {
  it('"median price in Fairfield County CT": each of its towns by the raw files, with the figure that town\'s own question gives', async () => {
    const expected = await rawTowns('09001');
    expect(expected.length).toBe(23); // Fairfield County's 23 towns
    const a = await ask('median price in Fairfield County CT');
    expect(a).toMatch(new RegExp(`^Reading "Fairfield County" as its 23 towns: Fairfield County, CT is ${PLANNING.source}`));
    // the towns the answer gives a figure (or says none) for, in its order
    const named = [...a.slice(a.indexOf('Median single-family sale price')).matchAll(/(?:: |; )([A-Z][a-z]+(?: [A-Z][a-z]+)*), CT /g)].map((m) => m[1]!);
    expect(named).toEqual(expected);
    // a town's figure is its own question's
    const westport = /Westport, CT (\$[\d,]+) \(2022-09, (\d+) sales\)/.exec(a);
    expect(westport, a).not.toBeNull();
    expect(await ask('median price in Westport CT')).toContain(`was ${westport![1]} in 2022-09 (${westport![2]} sales)`);
  });

  it('named without a state: Connecticut\'s when it is the most populous county of its name, said', async () => {
    const a = await ask('median home price in Fairfield County');
    expect(a).toMatch(/^Reading "Fairfield County" as its 23 towns: .*read as Connecticut's, the most populous county of that name, name the state for Fairfield County, OH or Fairfield County, SC:/);
    // Middlesex County, MA (1.6 million) is larger than Connecticut's former Middlesex County: not read as its towns
    expect(await ask('median price in Middlesex County')).not.toMatch(/former counties/);
  });

  it('Hartford County\'s towns by the raw files', async () => {
    const a = await ask('median price in Hartford County, Connecticut');
    const expected = await rawTowns('09003');
    expect(a).toMatch(new RegExp(`^Reading "Hartford County" as its ${expected.length} towns: Hartford County, CT is ${PLANNING.source}`));
    expect([...a.slice(a.indexOf('Median single-family sale price')).matchAll(/(?:: |; )([A-Z][a-z]+(?: [A-Z][a-z]+)*), CT /g)].map((m) => m[1]!)).toEqual(expected);
  });

  it('a rules question: the state\'s rules once, the towns listed', async () => {
    const a = await ask('how long is the eviction notice in Fairfield County CT');
    const towns = (await rawTowns('09001')).join(', ');
    expect(a).toContain(`Reading "Fairfield County" as Connecticut: Fairfield County, CT is one of Connecticut's former counties`);
    expect(a).toContain(`its 23 towns: ${towns}; Connecticut's rules answer for them: In Connecticut, a landlord must give 3 days' notice`);
    expect(a).not.toMatch(/Bethel, CT 3 days/);
  });
});

describe('over HTTP', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); }, 120_000);
  afterAll(async () => { await srv?.close(); });
  it('the geo lookup of "Fairfield County", CT: 404 naming its towns (the raw files\'), and which of them it answers', async () => {
    const res = await srv.get(`/v1/geo/lookup?city=${encodeURIComponent('Fairfield County')}&state=CT`, srv.key('pro'));
    expect(res.status).toBe(404);
    const { message } = (await res.json()) as { message: string };
    expect(message).toMatch(PLANNING);
    expect(message).toContain(`its 23 towns, each of which the market endpoints answer by name: ${(await rawTowns('09001')).join(', ')}`);
    // the towns it names as Census places the lookup answers
    const places = /the geo lookup answers the \d+ of them that are Census places: (.+)$/.exec(message)![1]!.split(', ');
    for (const city of places.slice(0, 3)) {
      expect((await srv.get(`/v1/geo/lookup?city=${encodeURIComponent(city)}&state=CT`, srv.key('pro'))).status, city).toBe(200);
    }
  });
});
