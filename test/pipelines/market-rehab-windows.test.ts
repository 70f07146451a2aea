// mart_rehab over a canonical market whose two files end apart (README "Canonical format"): sales.csv runs to
// 2024-06-15 and permits.csv to 2023-12-15, both in zip 19104. Each measure is computed over a window its own records
// cover: the permit components over the months to the permits' last day, the resale share over the months to the
// sales' last day (before: one window to 2024-06-15 for both, so the last 6 months read as no permit at all and the
// permit components 0). The files go through the real canonical steps (test/helpers/canonical-sources.ts), then the
// market steps the rehab mart reads, in a fresh DuckDB.
import fs from 'node:fs';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { canonicalSources, load } from '../helpers/canonical-sources.ts';
import type { TestContext } from '../helpers/context.ts';
import { run } from '../helpers/market-fixtures.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { rehabFact } from '../../live/research/rehab-facts.ts';
import { run as runMarketSource } from '../../pipelines/marts/30_mart_market_source.ts';
import type { ResearchData } from '../../live/research/data.ts';

afterAll(removeTmpDirs);
const opened: TestContext[] = [];
afterEach(() => { while (opened.length) opened.pop()!.close(); });

const STEPS = ['pipelines/intermediate/30_market_45_sale_flags.sql', 'pipelines/intermediate/30_market_92_resales.sql',
  'pipelines/intermediate/30_market_95_zip_names.sql', 'pipelines/intermediate/30_market_97_zip_permits.sql',
  'pipelines/intermediate/30_market_98_permit_area.sql', 'pipelines/marts/30_mart_market_direction.sql',
  'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql'];

const SALES_HEADER = 'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng,parcel_id';
const PERMITS_HEADER = 'permit_id,address,zip,issue_date,permit_type,valuation,lat,lng';
const mid = (y: number, m: number): string => `${y}-${String(m).padStart(2, '0')}-15`;

/** sales.csv: 2 arm's-length sales a month in 19104 from 2023-07 to 2024-06 (24), 2 of each month a resale of an
 *  earlier parcel 30 days on at +20% from 2023-08 (so the zip's records can show quick resales); permits.csv: one
 *  $20,000 renovation a month from 2023-01 to 2023-12 (12). */
function files(): Record<string, string> {
  const sales: string[] = [SALES_HEADER];
  const months = [...Array(12).keys()].map((i) => [2023 + Math.floor((6 + i) / 12), ((6 + i) % 12) + 1] as const);
  months.forEach(([y, m], i) => {
    sales.push(`${100 + i} MARKET ST,PHILADELPHIA,PA,19104,${mid(y, m)},300000,sfr,3,2,1500,1920,good,,,P${100 + i}`);
    // the second sale of the month: a resale of last month's first parcel at +20% (a quick resale at a gain), else a new parcel
    sales.push(i === 0 ? `200 MARKET ST,PHILADELPHIA,PA,19104,${mid(y, m)},250000,sfr,3,2,1500,1920,good,,,P200`
      : `${100 + i - 1} MARKET ST,PHILADELPHIA,PA,19104,${mid(y, m)},360000,sfr,3,2,1500,1920,good,,,P${100 + i - 1}`);
  });
  const permits: string[] = [PERMITS_HEADER];
  for (let m = 1; m <= 12; m++) permits.push(`R${m},${m} CHESTNUT ST,19104,${mid(2023, m)},renovation,20000,,`);
  return { 'sales.csv': `${sales.join('\n')}\n`, 'permits.csv': `${permits.join('\n')}\n` };
}

async function built(): Promise<TestContext> {
  const { ctx } = await load(canonicalSources(files()));
  opened.push(ctx);
  // the tables 30_market_98_permit_area.sql reads, empty (no zip's permit area known: every zip covered), as
  // marketTables makes them (not itself: its first step would empty the loaded tables)
  await ctx.db.run(`create table stg_hud_crosswalk__zip_county (zip varchar, county_fips varchar, res_ratio double, tot_ratio double)`);
  await ctx.db.run('create table stg_usgeo__zctas (zcta varchar, primary_county_subdivision varchar, land_area_sqmi double)');
  await ctx.db.run('create table stg_usgeo__zcta_places (zcta varchar, place_geoid varchar, land_area_sqmi double)');
  await ctx.db.run('create table stg_usgeo__places (place_geoid varchar, housing_units bigint, land_area_sqmi double)');
  await ctx.db.run('create table counties (county_fips varchar, county_name varchar, state_code varchar)');
  await ctx.db.run(`create or replace table int_market_housing_units as select '19104' as zip, 1000::bigint as housing_units`);
  await run(ctx, ...STEPS);
  await runMarketSource(ctx); // the rehab shard's source
  return ctx;
}

describe('mart_rehab: a canonical market whose permits.csv ends before its sales.csv', () => {
  test("each measure is counted over its own kind's window, and the row says both windows", async () => {
    const ctx = await built();
    expect(await ctx.rows(`select count(*)::int as sales, max(sale_date)::varchar as last from sales where is_arms_length`))
      .toEqual([{ sales: 24, last: '2024-06-15' }]);
    const rows = await ctx.rows(`select months, as_of::varchar as as_of, permits_as_of::varchar as permits_end, sales_as_of::varchar as sales_end,
        permits_rehab::int as permits, sales_n::int as sales, rehab_sales::int as resales,
        permits_window_days::int as p_days, permits_records_days::int as p_covered, sales_window_days::int as s_days, sales_records_days::int as s_covered
      from mart_rehab where zip = '19104' and months in (6, 12) order by months`);
    // before: permits 0 at 6 months (the window 2023-12-16..2024-06-15 holds no permit) and 6 at 12 months
    expect(rows).toEqual([
      { months: 6, as_of: '2024-06-15', permits_end: '2023-12-15', sales_end: '2024-06-15', permits: 6, sales: 12, resales: 6,
        p_days: 183, p_covered: 183, s_days: 183, s_covered: 183 },
      { months: 12, as_of: '2024-06-15', permits_end: '2023-12-15', sales_end: '2024-06-15', permits: 12, sales: 24, resales: 11,
        p_days: 365, p_covered: 335, s_days: 366, s_covered: 337 },
    ]);
    // the 6 months' score from its own permits: 6 renovations in half a year on 1,000 homes (12 a year per 1,000) declaring
    // $120,000 ($240 a home a year), and 6 of the 12 sales quick resales at a gain (share 0.5): before, 20.0 "Warming"
    // (permit rate 0, value $0, the resale share alone at 100)
    const [six] = await ctx.rows<{ permit_rate: number; value_rate: number; score: number; label: string; note: string }>(
      `select permit_rate, value_rate, rehab_momentum_score as score, label, note from mart_rehab where zip = '19104' and months = 6`);
    const want = 0.45 * 100 * Math.log(13) / Math.log(51) + 0.35 * 100 * Math.log(241) / Math.log(2001) + 0.20 * 100;
    expect([six!.permit_rate, six!.value_rate]).toEqual([12, 240]);
    expect(six!.score).toBeCloseTo(Math.round(want * 10) / 10, 9);
    expect([want.toFixed(1), six!.label]).toEqual(['74.6', 'Hot']);
    expect(six!.note).toContain("the zip's permit and sales records end apart (permits 2023-12-15, sales 2024-06-15): permits are counted over 2023-06-16 to 2023-12-15 (183 of its 183 days covered) and sales over 2023-12-16 to 2024-06-15 (183 of its 183 days covered)");
    // confidence is capped by each measure's coverage of its own window: at 24 months the permit file covers 335 of its
    // 730 days (low), where the union of both files over the window to 2024-06-15 read 518 of 731 (medium, before)
    expect(await ctx.rows(`select confidence from mart_rehab where zip = '19104' and months = 24`)).toEqual([{ confidence: 'low' }]);
  });

  test("the answer and the research sentence say both windows", async () => {
    const ctx = await built();
    const [row] = await ctx.rows<{ body: string }>(`select body from (${fs.readFileSync('pipelines/shards/rehab.sql', 'utf8').replace(/;\s*$/, '')}) where zip = '19104' and months = 6`);
    const body = JSON.parse(row!.body) as Record<string, unknown>;
    expect([body['as_of'], body['permits_window'], body['sales_window']]).toEqual(['2024-06-15',
      { window_start: '2023-06-16', window_end: '2023-12-15', window_days: 183, records_start: '2023-06-16', records_end: '2023-12-15', records_days: 183 },
      { window_start: '2023-12-16', window_end: '2024-06-15', window_days: 183, records_start: '2023-12-16', records_end: '2024-06-15', records_days: 183 }]);
    // the research answer reads the shard: before, "over the 6 months to 2024-06-15" for both
    const data = { shard: async () => body, market: null, hasFamily: async () => true } as unknown as ResearchData;
    const fact = await rehabFact(data, { months: 6, targets: [], direction: 'high' } as never, {} as never, '19104', true);
    expect(fact.sentence).toContain('(Hot) over the 6 months to 2023-12-15 for its permits and to 2024-06-15 for its sales (their records end apart)');
  });

  test('a zip of sales only has no permit window: its permit columns are null, not 0 days', async () => {
    const ctx = await built();
    await ctx.db.run(`delete from permits; delete from int_market_zip_permits`);
    await run(ctx, 'pipelines/marts/30_mart_rehab.sql');
    expect(await ctx.rows(`select permits_as_of, permits_window_start, permits_window_days, permits_records_days, sales_as_of::varchar as sales_as_of,
        sales_records_days::int as sales_records_days from mart_rehab where zip = '19104' and months = 6`))
      .toEqual([{ permits_as_of: null, permits_window_start: null, permits_window_days: null, permits_records_days: null, sales_as_of: '2024-06-15', sales_records_days: 183 }]);
  });
});
