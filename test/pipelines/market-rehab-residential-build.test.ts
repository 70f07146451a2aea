// The rehab score's inputs are residential on both sides (warehouse/docs/market.md mart_rehab "rehab resales" and
// "Residential rehab"), recomputed from the RAW files with this file's own SQL against the shared real build
// (REII_TEST_ARTIFACTS), and its 404s say so (h26):
// - the resale share's denominator: the window's residential arm's-length sales. NYC's file types every row by its
//   BUILDING CLASS CATEGORY (SOURCE.md): a land or commercial sale (05 vacant land, 06 garages, 21-49 offices, stores,
//   lofts, condo parking...) counted among the share's sales while its numerator could only be a home; King County's
//   file records houses only (no type column), so all of its sales count.
// - an unscored zip's permits of the window: its residential rehab permits, as the score counts them (37027's 404 read
//   "15 of them renovation, addition or repair permits, on residential buildings or not").
// - a PO-box zip (no Census ZCTA) of a city whose permit source covers it: no street address, no permit there, not "no
//   permit source covers the zip" (Nashville 37202, Chicago 60695).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const warehouse = (): string => path.join(buildDir(), 'warehouse.duckdb').replaceAll("'", "''");

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const message = async (zip: string, months = 12): Promise<[number, string]> => {
  const res = await srv.get(`/v1/market/rehab-score?zip=${zip}&months=${months}`, key);
  return [res.status, ((await res.json()) as { message?: string }).message ?? ''];
};

/** Per NYC zip of the mart at 12 months: its arm's-length sales of the window (the build's flags), all of them and the
 *  residential ones by the raw row's BUILDING CLASS CATEGORY (01-04 one to three family and tax class 1 condos, 07-17
 *  rentals, co-ops and condos; the row found by its file and line). */
const NYC = (file: string) => `
  raw_${file.replace(/\W/g, '_')} as (
    select '${file}' as file, row_number() over () + 1 as line, left("BUILDING CLASS CATEGORY", 2) as cat,
           try_cast(replace("SALE PRICE", ',', '') as double) as price
    from read_csv('${dataFile(`nyc-rolling-sales/${file}`)}', all_varchar = true)
  )`;

describe('rehab score: residential inputs, recomputed from the raw files', () => {
  test('the resale share counts residential sales: NYC by its building class, King County all (houses only)', async () => {
    const files = ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz'];
    const rows = await rawQuery<{ zip: string; all_n: number; res: number; m_n: number; price_ok: boolean }>(`attach '${warehouse()}' as wh (read_only);
      with ${files.map(NYC).join(',\n')},
      raw as (${files.map((f) => `select * from raw_${f.replace(/\W/g, '_')}`).join(' union all ')}),
      s as (select s.zip, s.sale_date, s.sale_price, r.cat, r.price from wh.sales s
            join raw r on s.file like '%' || r.file and r.line = s.line
            where s.source = 'nyc' and s.is_arms_length)
      select m.zip, count(s.zip)::int as all_n,
             count(s.zip) filter (where s.cat in ('01', '02', '03', '04', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17'))::int as res,
             any_value(m.sales_n)::int as m_n, bool_and(s.price is not distinct from s.sale_price) as price_ok
      from wh.mart_rehab m join s on s.zip = m.zip and s.sale_date > m.sales_window_start and s.sale_date <= m.sales_as_of
      where m.months = 12 and m.state_code = 'NY'
      group by m.zip order by m.zip`);
    expect(rows.length).toBeGreaterThan(100);
    // the raw row found by file and line is the sale's own (its price)
    expect(rows.filter((r) => !r.price_ok).map((r) => r.zip)).toEqual([]);
    expect(rows.filter((r) => r.m_n !== r.res).map((r) => `${r.zip}: raw residential ${r.res}, mart ${r.m_n}`)).toEqual([]);
    // before, the land and commercial sales counted too: in most NYC zips the window holds some
    expect(rows.filter((r) => r.all_n > r.res).length).toBeGreaterThan(50);

    // King County: every row a house; the window's sales are all its arm's-length sales (raw file: id, date, zipcode)
    const kc = await rawQuery<{ zip: string; n: number; m_n: number }>(`attach '${warehouse()}' as wh (read_only);
      with raw as (select zipcode as zip, strptime(left(date, 8), '%Y%m%d')::date as d from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))
      select m.zip, (select count(*) from wh.sales s where s.source = 'king_county' and s.is_arms_length and s.zip = m.zip
                     and s.sale_date > m.sales_window_start and s.sale_date <= m.sales_as_of)::int as n, m.sales_n::int as m_n
      from wh.mart_rehab m where m.months = 12 and m.zip in (select zip from raw) order by 1`);
    expect(kc.length).toBeGreaterThan(60);
    expect(kc.filter((r) => r.n !== r.m_n)).toEqual([]);
  });

  test("an unscored zip's 404 counts its window's residential rehab permits (37027, Brentwood: 25% in Davidson County)", async () => {
    // the raw Nashville file: zip 37027's applications in the 12 months to the file's last Date_Entered; a rehab type
    // (Rehab, Addition, Roofing/Siding, Fire Damage) whose subtype names a dwelling, or a generic subtype under
    // "Building Residential" (market.md "Residential rehab"; the rule of market-rehab-use-build.test.ts)
    const [w] = await rawQuery<{ end: string; n: number; types: number; res: number }>(`
      with raw as (
        select lower(trim(Permit_Type_Description)) as t, lower(coalesce(trim(Permit_Subtype_Description), '')) as st,
               left(trim(ZIP), 5) as zip, cast(make_timestamp(try_cast(Date_Entered as bigint) * 1000) as date) as d
        from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)
      ),
      e as (select max(d) as end_day from raw)
      select strftime(any_value(end_day), '%Y-%m-%d') as end, count(*)::int as n,
             count(*) filter (where regexp_matches(t, 'rehab|addition|roofing|fire damage'))::int as types,
             count(*) filter (where regexp_matches(t, 'rehab|addition|roofing|fire damage') and (
               regexp_matches(st, 'single family|duplex|multifamily|townhome|condominium|apartment|dwelling|mobile home|boarding house|group home|fraternity')
               or ((st = '' or regexp_matches(st, '^(accessory|detached garage|addition$|master permit)')) and t like 'building residential%')))::int as res
      from raw, e where zip = '37027' and d > end_day - interval 12 month and d <= end_day`);
    expect([w!.end, w!.n, w!.types]).toEqual(['2024-09-19', 32, 15]);
    expect(w!.res).toBeLessThan(w!.types);
    const [status, msg] = await message('37027');
    expect(status).toBe(404);
    // before: "(of every type and use: 15 of them renovation, addition or repair permits, on residential buildings or not; ...)"
    expect(msg).toContain(`32 of them fall in the 12 months to 2024-09-19, the window a score counts (${w!.res} of them residential rehab permits: renovation, addition or repair on a residential building, the permits a score counts; ${w!.types - w!.res === 1 ? '1 renovation, addition or repair permit is' : `${w!.types - w!.res} renovation, addition or repair permits are`} on other buildings, which no score counts)`);
    expect(msg).not.toContain('on residential buildings or not');
  });

  test('a PO-box zip of a covered city: no street address, so no permit there; its source covers the city', async () => {
    // no Census ZCTA (the 2025 Gazetteer lists none), and the HUD-USPS crosswalk places the zip in its county
    const geo = await rawQuery<{ zip: string; zcta: boolean; county: string; city: string }>(`
      with g as (select trim(GEOID) as zip from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', delim = '|', all_varchar = true)),
      x as (select ZIP as zip, arg_max(COUNTY, try_cast(TOT_RATIO as double)) as county, any_value(USPS_ZIP_PREF_CITY) as city
            from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) group by 1)
      select x.zip, x.zip in (select zip from g) as zcta, x.county, x.city from x where x.zip in ('37202', '60695', '37089') order by 1`);
    expect(geo).toEqual([
      { zip: '37089', zcta: false, county: '47149', city: 'LA VERGNE' },
      { zip: '37202', zcta: false, county: '47037', city: 'NASHVILLE' },
      { zip: '60695', zcta: false, county: '17031', city: 'CHICAGO' },
    ]);
    // before: "no building permit source and no sales source of this build covers the zip (no permit or sale is recorded there)"
    expect(await message('37202')).toEqual([404, "No renovation data for zip 37202: it is a PO-box or unique zip of Nashville, TN (no Census ZCTA): it has no street addresses, so no building permit or home sale is recorded in it, though the Nashville building permit applications source (nashville) covers Davidson County, TN, the zip's area (each permit is recorded in the zip of its street address); no rehab score can be computed for this zip: ask for the zip of an address"]);
    // Chicago's 60695 (a PO-box zip: the crosswalk's addresses there are all "other"; 2,187 permits around 200 W Madison
    // St were once guessed into it, market.md)
    const [, chicago] = await message('60695', 6);
    expect(chicago).toMatch(/^No renovation data for zip 60695: it is a PO-box or unique zip of Chicago, IL \(no Census ZCTA\): .* covers the City of Chicago, IL, the zip's area/);
    // La Vergne's PO-box zip is in Rutherford County (47149), which no permit source covers: it still says so
    const [, laVergne] = await message('37089');
    expect(laVergne).toContain('no building permit source and no sales source of this build covers the zip');
  });
});
