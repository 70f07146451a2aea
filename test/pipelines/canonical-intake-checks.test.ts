// No canonical row may reach a data check that fails the build (review 22): whatever a check of pipelines/marts/checks
// would fail is rejected or repaired at intake, with a meta.rejects or meta.repairs row naming the file, line and
// column. Real rows: Nashville's permit applications and Louisville's foreclosure cases written as canonical files
// (README "Canonical format"), through the sources stage, the canonical steps and the row contracts, then every check
// of the build. Before: a valuation of 0 (44 of 37212's applications) and a repeated parcel_id (38 of Louisville's
// 396 parcel lines) reached market_canonical and failed the whole build, naming no line.
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, sale } from '../helpers/canonical-sources.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { run as rowContracts } from '../../pipelines/intermediate/30_market_44_row_contracts.ts';
import { runChecks } from '../../pipelines/checks.ts';
import type { TestContext } from '../helpers/context.ts';

afterAll(removeTmpDirs);

const csv = (v: string | null): string => (v === null ? '' : /[",]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Row contracts, then every check of the build over what the canonical steps loaded: the failed ones. */
async function failedChecks(ctx: TestContext, only?: string): Promise<{ name: string; failingRows: number; sample: unknown[] }[]> {
  await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 0.5 } });
  return (await runChecks(only ? { ...ctx, settings: { ...ctx.settings, stepFilter: only } } : ctx, 'pipelines/marts/checks')).filter((r) => r.status === 'fail').map(({ name, failingRows, sample }) => ({ name, failingRows, sample }));
}

describe('a canonical row that a check would fail is repaired or rejected at intake', () => {
  test("permits.csv: Nashville's 37212 applications, a valuation of 0 nulled (nulled_zero_is_unknown) and the build's checks pass", async () => {
    // the raw file read here with plain DuckDB: Date_Entered is epoch milliseconds (Nashville's day, America/Chicago)
    const raw = await rawQuery<{ id: string; address: string; zip: string; d: string; cost: string; lat: string | null; lng: string | null }>(`
      select Permit__ as id, Address as address, ZIP as zip,
             strftime(cast(to_timestamp(cast(Date_Entered as bigint) / 1000) at time zone 'America/Chicago' as date), '%Y-%m-%d') as d,
             Const_Cost as cost, Lat as lat, Lon as lng
      from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)
      where ZIP = '37212' order by ObjectId::int`);
    const zeros = raw.map((r, i) => ({ line: i + 2, r })).filter(({ r }) => Number(r.cost) === 0);
    expect(raw.length).toBe(177);
    expect(zeros.length).toBe(44);
    const lines = ['permit_id,address,zip,issue_date,permit_type,valuation,lat,lng',
      ...raw.map((r) => [r.id, r.address, r.zip, r.d, 'renovation', r.cost, r.lat, r.lng].map(csv).join(','))];
    const { ctx } = await load(canonicalSources({ 'permits.csv': lines.join('\n') + '\n' }));
    try {
      expect(await failedChecks(ctx)).toEqual([]);
      expect(await ctx.rows(`select file, line::int as line, rule, detail from meta.repairs order by line`))
        .toEqual(zeros.map(({ line, r }) => ({ file: 'canonical/permits.csv', line, rule: 'nulled_zero_is_unknown', detail: `valuation=${r.cost} -> null` })));
      expect(await ctx.rows(`select count(*)::int as n, count(valuation)::int as valued from permits`)).toEqual([{ n: 177, valued: 177 - 44 }]);
    } finally { ctx.close(); }
  });

  test("parcels.csv: Louisville's parcels, a repeated parcel_id rejected duplicate_parcel (its first line kept), a point NA nulled and the parcel kept", async () => {
    const raw = await rawQuery<{ pid: string; address: string; zip: string; lat: string; lng: string }>(`
      select PRCLID as pid, trim(concat_ws(' ', nullif(STNO, 'NA'), nullif(PREDIR, 'NA'), nullif(STNAME, 'NA'), nullif(SUFFIX, 'NA'), nullif(POSTDIR, 'NA'))) as address,
             left(ZIP, 5) as zip, lat, lon as lng
      from read_csv('${dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)
      where PRCLID <> 'NA'`);
    const first = new Map<string, number>();
    const lines = ['parcel_id,address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng'];
    const duplicates: { line: number; rule: string; column: string; value: string }[] = [];
    const repairs: { line: number; rule: string; detail: string }[] = [];
    raw.forEach((r, i) => {
      const line = i + 2;
      lines.push([r.pid, r.address, 'Louisville', 'KY', r.zip, 'sfr', '', '', '', '', r.lat, r.lng].map(csv).join(','));
      if (first.has(r.pid)) { duplicates.push({ line, rule: 'duplicate_parcel', column: 'parcel_id', value: `${r.pid} (first on line ${first.get(r.pid)})` }); return; }
      first.set(r.pid, line);
      for (const [col, v] of [['lat', r.lat], ['lng', r.lng]] as const) if (v === 'NA') repairs.push({ line, rule: 'nulled_not_a_number', detail: `${col}=NA -> null` });
    });
    expect([raw.length, first.size, duplicates.length, repairs.length]).toEqual([396, 358, 38, 3]);
    const { ctx } = await load(canonicalSources({ 'parcels.csv': lines.join('\n') + '\n' }));
    try {
      expect(await failedChecks(ctx)).toEqual([]);
      expect(await ctx.rows(`select line::int as line, rule, column_name as "column", value from meta.rejects where file = 'canonical/parcels.csv' order by line`)).toEqual(duplicates);
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line, detail`)).toEqual(repairs);
      expect(await ctx.rows(`select count(*)::int as n, count(lat)::int as located from parcels`)).toEqual([{ n: 358, located: 358 - new Set(repairs.map((r) => r.line)).size }]);
    } finally { ctx.close(); }
  });

  test("sales.csv: a sale in a zip the HUD crosswalk puts in its state (03804, USPS Portsmouth NH, all in York County ME) passes its contract and the checks", async () => {
    const { ctx } = await load(canonicalSources({ 'sales.csv': [HEADER, ...Array.from({ length: 5 }, (_, i) => sale({ address: `${i + 1} BADGERS IS`, city: 'KITTERY', state: 'ME', zip: '03804', lat: '', lng: '' }))].join('\n') + '\n' }));
    try {
      // the reference rows as the build has them (zips: USPS's state; HUD's ZIP_COUNTY_032023: 03804 -> 23031, res_ratio 1)
      await ctx.db.run(`create table states as select * from (values ('ME', '23'), ('NH', '33')) v(state_code, state_fips);
        create table zips as select '03804' as zip, 'NH' as state_code, 43.0718 as lat, -70.7626 as lng, 'Portsmouth' as city;
        create table stg_hud_crosswalk__zip_county as select '03804' as zip, '23031' as county_fips, 1.0 as res_ratio, 1.0 as tot_ratio;
        create table cities (state_code varchar, city_slug varchar);
        create table mart_comps (zip varchar, state_code varchar); create table mart_rehab (zip varchar, state_code varchar);
        create table mart_investor (state_code varchar, city_slug varchar, tier_source varchar)`);
      // (the marts' own checks need their full tables: the geography checks alone, over empty marts)
      expect(await failedChecks(ctx, 'market_geography,market_sales_zip_state,market_sales')).toEqual([]);
      expect(await ctx.rows(`select count(*)::int as n from meta.rejects`)).toEqual([{ n: 0 }]);
      expect(await ctx.rows(`select state_code, count(*)::int as n from sales group by all`)).toEqual([{ state_code: 'ME', n: 5 }]);
    } finally { ctx.close(); }
  });

  test('distress.csv: an amount of 0 is unknown (nulled_zero_is_unknown), the filing kept and counted; the checks pass', async () => {
    const lines = ['address,city,state,zip,kind,filing_date,parcel_id,amount',
      '1415 BERRY BLVD,Louisville,KY,40215,tax_delinquent,2014-04-14,064D00260000,0', // 2 nulled
      '2743 DUMESNIL ST,Louisville,KY,40211,lien_foreclosure,2014-02-04,046K00040000,1200', // 3 kept as written
    ];
    const { ctx } = await load(canonicalSources({ 'distress.csv': lines.join('\n') + '\n' }));
    try {
      expect(await failedChecks(ctx)).toEqual([]);
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs`)).toEqual([{ line: 2, rule: 'nulled_zero_is_unknown', detail: 'amount=0 -> null' }]);
      expect(await ctx.rows(`select line::int as line, amount from distress order by line`)).toEqual([{ line: 2, amount: null }, { line: 3, amount: 1200 }]);
    } finally { ctx.close(); }
  });
});
