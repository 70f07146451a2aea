// Review 24 C: a zip or city no sales source records a sale in, inside a county one does. King County's zips 98288,
// 98051, 98047 and 98224 (and the city of Skykomish) were told "No sales source covers ...: its sales sources are
// county and city files of other markets", false: the King County file covers the county and has no sale in them. The
// 404 now names the county's source, its sales there and that none is in this zip; and a zip of no reference file
// (00000, 99999) is outside coverage, in the location endpoint's words; the rehab score (h25: it still said no source
// covered them) and the investor overview of Skykomish say the same. Over HTTP on the shared build; the county is
// HUD's crosswalk's, the counts the raw King County file's.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, statusAndMessage, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { NASHVILLE } from '../helpers/oracle-raw-permits.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const message = (path: string): Promise<[number, string]> => statusAndMessage(srv, path, key);
const ZIPS = ['98288', '98051', '98047', '98224'];

describe('a zip or city of a covered county with no sale of its own', () => {
  test('King County zips with no sale in the King County file: the county\'s source and sales named, none in the zip', async () => {
    // HUD's crosswalk puts each zip (most of its addresses, or all of them) in King County, 53033
    const hud = await rawQuery<{ zip: string; county: string }>(`select "ZIP" as zip, arg_max("COUNTY", try_cast("TOT_RATIO" as double)) as county
      from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) where "ZIP" in (${ZIPS.map((z) => `'${z}'`).join(', ')}) group by 1 order by 1`);
    expect(hud.map((r) => r.county)).toEqual(ZIPS.map(() => '53033'));
    const [kc] = await rawQuery<{ n: number; zips: number; here: number }>(`select count(*)::int as n, count(distinct zipcode)::int as zips,
      count(*) filter (where zipcode in (${ZIPS.map((z) => `'${z}'`).join(', ')}))::int as here
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    expect(kc!.here).toBe(0);
    const county = `the King County WA house sales 2014-2015 source \\(king_county\\) records ${kc!.n.toLocaleString('en-US')} arm's-length sales in ${kc!.zips} of the zips of King County, WA, the zip's county, but none in this zip`;
    for (const zip of ZIPS) {
      for (const [path, what] of [[`/v1/market/comps?zip=${zip}`, 'sfr sales to compare'], [`/v1/market/trends?zip=${zip}`, 'sfr sales']] as const) {
        const [status, msg] = await message(path);
        expect(status, path).toBe(404);
        // before: "No sales source covers zip 98288: ... (its sales sources are county and city files of other markets)"
        expect(msg, path).toMatch(new RegExp(`^No ${what} for zip ${zip}: ${county}$`));
      }
    }
    const [status, msg] = await message('/v1/market/trends?city=Skykomish&state=WA');
    expect(status).toBe(404);
    const city = `the King County WA house sales 2014-2015 source (king_county) records ${kc!.n.toLocaleString('en-US')} arm's-length sales in ${kc!.zips} of the zips of King County, WA, the city's county, but none in Skykomish, WA`;
    expect(msg).toBe(`No sfr sales for Skykomish, WA: ${city}`);
    // the investor overview (sales and filings; no filing source in Washington): before, "No investor data for Skykomish, WA"
    expect(await message('/v1/market/investor-overview?city=Skykomish&state=WA')).toEqual([404, `No investor data for Skykomish, WA: ${city}`]);
  });

  test('the rehab score of those zips says the same, and that no permit source covers them', async () => {
    // the build's permit files are Nashville's (Davidson County, TN) and Chicago's (the city): none of these zips
    const [nash] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${NASHVILLE} where zip in (${ZIPS.map((z) => `'${z}'`).join(', ')})`);
    expect(nash!.n).toBe(0);
    for (const zip of ZIPS) {
      const [, comps] = await message(`/v1/market/comps?zip=${zip}`);
      const county = comps.slice(comps.indexOf(': ') + 2);
      expect(county).toMatch(/^the King County WA house sales 2014-2015 source \(king_county\) records [\d,]+ arm's-length sales in \d+ of the zips of King County, WA, the zip's county, but none in this zip$/);
      // before: "no building permit source and no sales source of this build covers the zip (no permit or sale is recorded there)"
      expect(await message(`/v1/market/rehab-score?zip=${zip}`)).toEqual([404, `No renovation data for zip ${zip}: ${county}; and no building permit source covers the zip: no rehab score can be computed`]);
    }
  });

  test('Elmont 11003 (Nassau County): the NYC file holds Queens sales in two zips mostly of Nassau, not sales across the county', async () => {
    // the NYC file's sales whose zip HUD's crosswalk puts mostly in Nassau County (36059): Queens (borough 4) rows only
    const rows = await rawQuery<{ zip: string; borough: string }>(`select distinct s."ZIP CODE" as zip, s.BOROUGH as borough
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true, union_by_name = true) s
      join (select "ZIP" as zip, arg_max("COUNTY", try_cast("TOT_RATIO" as double)) as county
            from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) group by 1) h
        on h.zip = s."ZIP CODE" where h.county = '36059' order by 1`);
    expect(rows).toEqual([{ zip: '11001', borough: '4' }, { zip: '11040', borough: '4' }]);
    for (const path of ['/v1/market/comps?zip=11003', '/v1/market/rehab-score?zip=11003', '/v1/market/trends?zip=11003']) {
      const [status, msg] = await message(path);
      expect(status, path).toBe(404);
      // before: "... records sales across Nassau County, NY, the zip's county (134 arm's-length sales in 2 of its zips)"
      expect(msg, path).toMatch(/: the NYC DOF rolling sales source \(nyc\) records [\d,]+ arm's-length sales in 2 of the zips of Nassau County, NY, the zip's county, but none in this zip/);
      expect(msg, path).not.toContain('across');
    }
  });

  test('a zip of no reference file is outside coverage, as the location endpoint says', async () => {
    for (const zip of ['00000', '99999']) {
      const [n] = await rawQuery<{ n: number }>(`select (select count(*) from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true) where zip_code = '${zip}')
        + (select count(*) from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) where "ZIP" = '${zip}') as n`);
      expect(Number(n!.n), zip).toBe(0);
      const [ls, location] = await message(`/v1/location/risk?zip=${zip}`);
      expect([ls, location]).toEqual([404, `Zip ${zip} is outside coverage`]);
      const [status, msg] = await message(`/v1/market/comps?zip=${zip}`);
      expect(status).toBe(404);
      expect(msg).toBe(`${location}: it is in none of this build's zip reference files, so no source has sfr sales to compare there`);
      // the rehab score says the same (before: "no building permit source and no sales source of this build covers the zip")
      expect(await message(`/v1/market/rehab-score?zip=${zip}`)).toEqual([404, `${location}: it is in none of this build's zip reference files, so no source has renovation data there`]);
    }
  });

  test('a zip of a county no source covers keeps the no-source answer', async () => {
    const [status, msg] = await message('/v1/market/comps?zip=59801&property_type=sfr');
    expect(status).toBe(404);
    expect(msg).toContain('No sales source covers zip 59801');
  });
});
