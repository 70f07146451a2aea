// Two optional canonical columns the native adapters read and the canonical format lacked (review 22, README
// "Canonical format"): permits.csv `building_use` (residential | nonresidential), so commercial work counts in no rehab
// score, as Nashville's and Chicago's own adapters leave it out; distress.csv `closed_date`, so a case closed by the
// window's end is no open filing, as Louisville's Sale Date and Allegheny's closing docket rows close theirs. Without
// them the answers say so. Real rows: Nashville's 37206 applications and Louisville's cases written as canonical files,
// through the canonical steps and the marts, against counts made here from the raw files with plain DuckDB.
import { afterAll, describe, expect, test } from 'vitest';
import { canonicalSources, load } from '../helpers/canonical-sources.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { run } from '../helpers/market-fixtures.ts';
import type { TestContext } from '../helpers/context.ts';

afterAll(removeTmpDirs);

const csv = (v: string | null): string => (v === null ? '' : /[",]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const MARTS = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql',
  'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql',
  'pipelines/marts/30_mart_rehab.sql', 'pipelines/marts/30_mart_investor.sql'];

/** The reference tables the market steps read, empty (the steps need them to exist). */
async function marts(ctx: TestContext): Promise<void> {
  await ctx.db.run(`create table if not exists stg_hud_crosswalk__zip_county (zip varchar, county_fips varchar, res_ratio double, tot_ratio double);
    create table if not exists stg_usgeo__zctas (zcta varchar, primary_county_subdivision varchar, land_area_sqmi double);
    create table if not exists stg_usgeo__zcta_places (zcta varchar, place_geoid varchar, land_area_sqmi double);
    create table if not exists stg_usgeo__places (place_geoid varchar, housing_units bigint, land_area_sqmi double);
    create table if not exists counties (county_fips varchar, county_name varchar, state_code varchar);
    insert into int_market_housing_units values ('37206', 15000)`);
  await run(ctx, ...MARTS);
}

/** The repair rows and the kept rows (rowsSql) of one canonical file made of these lines. */
async function repairsAndRows(file: string, lines: string[], rowsSql: string): Promise<{ repairs: unknown[]; rows: unknown[] }> {
  const { ctx } = await load(canonicalSources({ [file]: lines.join('\n') + '\n' }));
  try {
    return { repairs: await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line`), rows: await ctx.rows(rowsSql) };
  } finally { ctx.close(); }
}

interface Permit { id: string; address: string; zip: string; d: string; type: string; cost: string; lat: string; lng: string; residential: boolean }

/** Nashville's 37206 applications as the native adapter reads them, with this file's own SQL: the type's rehab words
 *  (a Tenant Finish Out is new construction), and the building's use from the subtype, else the type's word. */
const nashville = (): Promise<Permit[]> => rawQuery<Permit>(`
  select Permit__ as id, Address as address, ZIP as zip,
         strftime(cast(to_timestamp(cast(Date_Entered as bigint) / 1000) at time zone 'America/Chicago' as date), '%Y-%m-%d') as d,
         case when t like '%tenant finish out%' then 'new' when t like '%rehab%' then 'renovation' when t like '%addition%' then 'addition'
              when t like '%roofing%' or t like '%fire damage%' then 'repair' else 'other' end as type,
         Const_Cost as cost, Lat as lat, Lon as lng,
         regexp_matches(st, 'single family|duplex|multifamily|townhome|condominium|apartment|dwelling|mobile home|boarding house|group home|fraternity')
           or ((st = '' or regexp_matches(st, '^(accessory|detached garage|addition$|master permit)')) and t like 'building residential%') as residential
  from (select *, lower(trim(Permit_Type_Description)) as t, lower(coalesce(trim(Permit_Subtype_Description), '')) as st
        from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true))
  where ZIP = '37206' order by ObjectId::int`);

describe('permits.csv building_use', () => {
  test("37206's applications with their use: only residential rehab counts; without the column the note says commercial work may be counted", async () => {
    const raw = await nashville();
    const asOf = raw.map((r) => r.d).sort().at(-1)!;
    const start = new Date(Date.parse(`${asOf}T00:00:00Z`)); start.setUTCMonth(start.getUTCMonth() - 12);
    const inWindow = raw.filter((r) => r.d > start.toISOString().slice(0, 10) && r.d <= asOf && ['renovation', 'addition', 'repair'].includes(r.type));
    const residential = inWindow.filter((r) => r.residential).length;
    const unknownCounted = inWindow.filter((r) => Number(r.cost) <= 500000).length; // no use: the $500,000 rule
    expect([raw.length, inWindow.length, residential, unknownCounted]).toEqual([469, 55, 50, 50]);

    const head = 'permit_id,address,zip,issue_date,permit_type,valuation,lat,lng';
    const line = (r: Permit): string => [r.id, r.address, r.zip, r.d, r.type, r.cost, r.lat, r.lng].map(csv).join(',');
    const withUse = await load(canonicalSources({ 'permits.csv': [`${head},building_use`, ...raw.map((r) => `${line(r)},${r.residential ? 'residential' : 'nonresidential'}`)].join('\n') + '\n' }));
    try {
      expect(withUse.warnings.filter((w) => w.includes('building_use'))).toEqual([]); // a column of the format, not "loaded, not used"
      await marts(withUse.ctx);
      expect(await withUse.ctx.rows(`select permits_rehab::int as rehab, permits_rehab_nonresidential::int as nonres, strftime(as_of, '%Y-%m-%d') as as_of, note
        from mart_rehab where zip = '37206' and months = 12`)).toEqual([{ rehab: residential, nonres: inWindow.length - residential, as_of: asOf, note: null }]);
    } finally { withUse.ctx.close(); }

    const without = await load(canonicalSources({ 'permits.csv': [head, ...raw.map(line)].join('\n') + '\n' }));
    try {
      await marts(without.ctx);
      const [r] = await without.ctx.rows<{ rehab: number; note: string }>(`select permits_rehab::int as rehab, note from mart_rehab where zip = '37206' and months = 12`);
      expect(r!.rehab).toBe(unknownCounted);
      expect(r!.note).toBe(`${unknownCounted} of the window's ${unknownCounted} residential rehab permits do not record the building's use (permits.csv gives no building_use): each is counted when its declared cost is $500,000 or less, so commercial work may be counted`);
    } finally { without.ctx.close(); }
  });

  test('a use in another case is read in lower case (lower_cased); another word is nulled (nulled_not_in_list), the permit kept', async () => {
    const lines = ['permit_id,address,zip,issue_date,permit_type,valuation,lat,lng,building_use',
      'A1,1 MAIN ST,37206,2024-01-05,renovation,1000,,,Residential', // 2 lower_cased
      'A2,2 MAIN ST,37206,2024-01-05,renovation,1000,,,office',      // 3 nulled
      'A3,3 MAIN ST,37206,2024-01-05,renovation,1000,,,nonresidential', // 4
      'A4,4 MAIN ST,37206,2024-01-05,renovation,1000,,,'];            // 5 unknown
    const { repairs, rows } = await repairsAndRows('permits.csv', lines, `select line::int as line, building_use from permits order by line`);
    expect(repairs).toEqual([
      { line: 2, rule: 'lower_cased', detail: 'building_use=Residential -> residential' },
      { line: 3, rule: 'nulled_not_in_list', detail: 'building_use=office -> null' }]);
    expect(rows).toEqual([
      { line: 2, building_use: 'residential' }, { line: 3, building_use: null }, { line: 4, building_use: 'nonresidential' }, { line: 5, building_use: null }]);
  });
});

interface Case { parcel: string; address: string; zip: string; d: string; sold: string | null }

describe('distress.csv closed_date', () => {
  test("Louisville's cases with their sale as closed_date: a case sold by the window's end is not open; without the column the note says no outcome is recorded", async () => {
    const raw = await rawQuery<Case>(`
      select PRCLID as parcel, trim(concat_ws(' ', nullif(STNO, 'NA'), nullif(PREDIR, 'NA'), nullif(STNAME, 'NA'), nullif(SUFFIX, 'NA'), nullif(POSTDIR, 'NA'))) as address,
             left(ZIP, 5) as zip, "Date Action Filed" as d, nullif("Sale Date", 'NA') as sold
      from read_csv('${dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)
      where PRCLID <> 'NA'`);
    const asOf = raw.map((r) => r.d).sort().at(-1)!;
    const start = new Date(Date.parse(`${asOf}T00:00:00Z`)); start.setUTCMonth(start.getUTCMonth() - 12);
    const filed = raw.filter((r) => r.d > start.toISOString().slice(0, 10) && r.d <= asOf);
    const open = new Set(filed.filter((r) => r.sold === null || r.sold > asOf).map((r) => r.parcel)).size;
    const all = new Set(filed.map((r) => r.parcel)).size;
    expect([raw.length, asOf, filed.length, all, open]).toEqual([396, '2016-06-03', 105, 91, 88]);

    const head = 'parcel_id,address,city,state,zip,kind,filing_date';
    const line = (r: Case): string => [r.parcel, r.address, 'Louisville', 'KY', r.zip, 'lien_foreclosure', r.d].map(csv).join(',');
    const withClosed = await load(canonicalSources({ 'distress.csv': [`${head},closed_date`, ...raw.map((r) => `${line(r)},${r.sold ?? ''}`)].join('\n') + '\n' }));
    try {
      expect(withClosed.warnings.filter((w) => w.includes('closed_date'))).toEqual([]);
      await marts(withClosed.ctx);
      const [r] = await withClosed.ctx.rows<{ pipeline: number; note: string }>(`select distressed_pipeline_count::int as pipeline, note from mart_investor where city = 'Louisville' and months = 12`);
      expect(r!.pipeline).toBe(open);
      expect(r!.note).not.toContain('no case outcome');
    } finally { withClosed.ctx.close(); }

    const without = await load(canonicalSources({ 'distress.csv': [head, ...raw.map(line)].join('\n') + '\n' }));
    try {
      await marts(without.ctx);
      const [r] = await without.ctx.rows<{ pipeline: number; filings: number; note: string }>(`select distressed_pipeline_count::int as pipeline, distress_filings::int as filings, note from mart_investor where city = 'Louisville' and months = 12`);
      expect(r!.pipeline).toBe(all);
      expect(r!.note).toContain(`; ${r!.filings} of the window's ${r!.filings} filings come from records that give no case outcome (distress.csv has no closed_date): a case closed, dismissed or redeemed since its filing is counted as open`);
    } finally { without.ctx.close(); }
  });

  test('a closed_date that is no date or before the filing is nulled, the case status unknown; empty is open', async () => {
    const lines = ['address,city,state,zip,kind,filing_date,closed_date',
      '1 A ST,Louisville,KY,40215,tax_delinquent,2014-04-14,2015-01-02', // 2 closed
      '2 A ST,Louisville,KY,40215,tax_delinquent,2014-04-14,',           // 3 active
      '3 A ST,Louisville,KY,40215,tax_delinquent,2014-04-14,soon',       // 4 nulled_not_a_date
      '4 A ST,Louisville,KY,40215,tax_delinquent,2014-04-14,2013-01-01']; // 5 nulled_out_of_range
    const { repairs, rows } = await repairsAndRows('distress.csv', lines, `select line::int as line, status, strftime(status_date, '%Y-%m-%d') as closed from distress order by line`);
    expect(repairs).toEqual([
      { line: 4, rule: 'nulled_not_a_date', detail: 'closed_date=soon -> null' },
      { line: 5, rule: 'nulled_out_of_range', detail: 'closed_date=2013-01-01 -> null' }]);
    expect(rows).toEqual([
      { line: 2, status: 'closed', closed: '2015-01-02' }, { line: 3, status: 'active', closed: null },
      { line: 4, status: null, closed: null }, { line: 5, status: null, closed: null }]);
  });
});
