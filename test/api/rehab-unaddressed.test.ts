// A PO-box or unique zip (no Census ZCTA) in the area a permit source covers has no rehab score, and the rehab 404 and
// research's rehab answer say why in the same words (live/research/unaddressed.ts; warehouse/docs/market.md mart_rehab,
// research.md "rehab"), over HTTP on the shared real build (REII_TEST_ARTIFACTS), the zips' facts read from the RAW
// files (the 2025 Gazetteer's ZCTAs, the HUD-USPS crosswalk's county and city, the Nashville applications file):
// - Vanderbilt's unique zip 37240, where one $13.2M renovation is recorded, read "the zip has no housing unit count"
//   unlike the other unaddressed zips (h27: mart_rehab_unaddressed left out a zip in which a permit counts);
// - research answered "We have no renovation permit data for zip 37202" where the endpoint said the Nashville source
//   covers the zip's county and the zip has no street addresses (Chicago's PO-box zips likewise).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro', 100_000); });
afterAll(() => srv.close());

const rehab404 = async (zip: string, months: number): Promise<string> => {
  const res = await srv.get(`/v1/market/rehab-score?zip=${zip}&months=${months}`, key);
  expect(res.status, zip).toBe(404);
  return ((await res.json()) as { message: string }).message;
};
const research = async (query: string): Promise<string> => {
  const res = await srv.post('/v1/research/query', { query }, key);
  expect(res.status, query).toBe(200);
  return ((await res.json()) as { answer: string }).answer;
};

/** The zips' Census ZCTA (the Gazetteer lists it or not) and the crosswalk's county and USPS city. */
const GEO = (zips: string[]) => `
  with g as (select trim(GEOID) as zip from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', delim = '|', all_varchar = true)),
  x as (select ZIP as zip, arg_max(COUNTY, try_cast(TOT_RATIO as double)) as county, any_value(USPS_ZIP_PREF_CITY) as city
        from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) group by 1)
  select x.zip, x.zip in (select zip from g) as zcta, x.county, x.city from x where x.zip in (${zips.map((z) => `'${z}'`).join(', ')}) order by 1`;

describe('a PO-box or unique zip of a permit source\'s area', () => {
  test("37240 (Vanderbilt's unique zip): its one permit counted, in the other unaddressed zips' words", async () => {
    expect(await rawQuery(GEO(['37240']))).toEqual([{ zip: '37240', zcta: false, county: '47037', city: 'NASHVILLE' }]);
    // the adapter's kept applications (a day entered and a permit number, its first line): the file's span, and 37240's
    const [raw] = await rawQuery<{ a: string; b: string; n: number; d: string; type: string; cost: number }>(`
      with kept as (
        select left(trim(ZIP), 5) as zip, make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date as d,
               Permit_Type_Description as type, try_cast(Const_Cost as double) as cost
        from (select *, row_number() over (partition by trim(Permit__) order by ObjectId::int) as k
              from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true))
        where k = 1 and nullif(trim(Permit__), '') is not null and try_cast(Date_Entered as bigint) is not null)
      select (select min(d)::varchar from kept) as a, (select max(d)::varchar from kept) as b, count(*)::int as n,
             any_value(d)::varchar as d, any_value(type) as type, any_value(cost) as cost
      from kept where zip = '37240'`);
    // one commercial rehab, no residential rehab permit (market.md "Residential rehab"), in the 12 months to the file's end
    expect(raw).toMatchObject({ a: '2021-09-16', b: '2024-09-19', n: 1, d: '2024-04-23', cost: 13_200_000 });
    expect(raw!.type).toMatch(/^Building Commercial/);
    const why = `it is a PO-box or unique zip of Nashville, TN (no Census ZCTA): it has no area of its own, so no housing unit count and no permit rate, and no home sale is recorded in it, though the Nashville building permit applications source (nashville) covers Davidson County, TN, the zip's area; it records 1 building permit in the zip (not a residential rehab permit)`;
    const ask = "ask for the zip of a home's street address";
    const tail = `no rehab score can be computed for this zip: ${ask}`;
    // before: "No renovation data for zip 37240: the Nashville ... source (nashville) records 1 building permit in the zip
    // (not a residential rehab permit) ...; but the zip has no housing unit count: no permit rate, so no permit component; ..."
    const lead = `No renovation data for zip 37240: ${why}`;
    expect(await rehab404('37240', 12)).toBe(`${lead} in its whole file, ${raw!.a} to ${raw!.b}; it falls in the 12 months to ${raw!.b}, the window a score counts; ${tail}`);
    expect(await rehab404('37240', 3)).toBe(`${lead} in its whole file, ${raw!.a} to ${raw!.b}; it falls before the 3 months to ${raw!.b}, the window a score counts; ${tail}`);
    // research says it too (its count over the whole file: the index holds no window of the zip's permits)
    expect(await research('rehab score 37240')).toBe(`We have no rehab momentum score for zip 37240: ${why}; ${ask}.`);
  });

  test('research says what the rehab 404 says: Nashville 37202 and Chicago 60695, PO-box zips (before: "no renovation permit data")', async () => {
    expect(await rawQuery(GEO(['37202', '60695']))).toEqual([
      { zip: '37202', zcta: false, county: '47037', city: 'NASHVILLE' },
      { zip: '60695', zcta: false, county: '17031', city: 'CHICAGO' },
    ]);
    const nashville = "it is a PO-box or unique zip of Nashville, TN (no Census ZCTA): it has no street addresses, so no building permit or home sale is recorded in it, though the Nashville building permit applications source (nashville) covers Davidson County, TN, the zip's area (each permit is recorded in the zip of its street address)";
    const ask = 'ask for the zip of an address';
    expect(await rehab404('37202', 6)).toBe(`No renovation data for zip 37202: ${nashville}; no rehab score can be computed for this zip: ${ask}`);
    expect(await research('rehab score 37202')).toBe(`We have no rehab momentum score for zip 37202: ${nashville}; ${ask}.`);
    const chicago = await rehab404('60695', 6);
    expect(chicago).toMatch(/^No renovation data for zip 60695: it is a PO-box or unique zip of Chicago, IL \(no Census ZCTA\): .* covers the City of Chicago, IL, the zip's area/);
    const chicagoWhy = chicago.slice('No renovation data for zip 60695: '.length).replace(`; no rehab score can be computed for this zip: ${ask}`, '');
    expect(await research('what is the rehab momentum in 60695?')).toBe(`We have no rehab momentum score for zip 60695: ${chicagoWhy}; ${ask}.`);
  });
});
