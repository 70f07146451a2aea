// mart_rehab, the minimum cohort and the confidence's count (warehouse/docs/market.md "mart_rehab"), over given
// canonical rows: a rehab resale share of 1-4 arm's-length sales is null and left out of the score (as comps and
// investor, minimum cohort 5), the note says so, and a zip with nothing else to score has no row (a 404); the
// confidence counts the events the score is computed from (rehab permits, sales of a computed share), not every permit.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const MARTS = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql', 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql'];

const sale = (id: string, zip: string, date: string, price: number, parcel: string, renovated: number | null = null) => ctx.db.run(
  `insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, year_renovated, line,
      is_portfolio, is_duplicate)
    values ($id, 'test', $parcel, 'Testville', 'WA', $zip, $date::date, $price, 'sfr', 1000, true, $ren, 1, false, false)`,
  { id, zip, date, price, parcel, ren: renovated });

const permit = (id: string, zip: string, date: string, type: string, value: number | null) => ctx.db.run(
  `insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, valuation) values ($id, 'test', $zip, 'Nashville', 'TN', $d::date, $t, $v)`,
  { id, zip, d: date, t: type, v: value });

const day = (start: string, n: number): string => new Date(Date.parse(`${start}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('mart_rehab: minimum cohort of the rehab resale share', () => {
  test('1-4 sales give no resale share: left out of the score with a note; a zip with nothing else is not scored', async () => {
    // 98118: no permit source; a quick resale at +50% among 4 arm's-length sales (its records can show resales):
    // a share of 1 in 4 (25%, "Very Hot") was scored before
    await sale('q1', '98118', '2015-01-01', 200000, 'p1');
    await sale('q2', '98118', '2015-05-01', 300000, 'p1');
    await sale('q3', '98118', '2015-03-01', 400000, 'p2');
    await sale('q4', '98118', '2015-04-01', 400000, 'p3');
    // 37206: 10 rehab permits in the year on 1,000 units, and 3 sales, 2 of them renovated that year
    await ctx.db.run(`insert into int_market_housing_units values ('37206', 1000)`);
    for (let i = 0; i < 10; i++) await permit(`r${i}`, '37206', day('2023-09-01', 30 * i), 'renovation', 100000);
    await sale('n1', '37206', '2024-03-01', 300000, 'x1', 2024);
    await sale('n2', '37206', '2024-04-01', 300000, 'x2', 2024);
    await sale('n3', '37206', '2024-05-01', 300000, 'x3');
    await run(ctx, ...MARTS);
    expect(await ctx.rows(`select count(*)::int as n from mart_rehab where zip = '98118'`)).toEqual([{ n: 0 }]);
    const [row] = await ctx.rows<Record<string, unknown>>(`select rehab_momentum_score as score, rehab_sale_share, resale_score, sales_n, rehab_sales,
        sample_count, note from mart_rehab where zip = '37206' and months = 12`);
    // the permit components alone: 10 permits per 1,000 units a year, $1,000 a unit
    const permitScore = (100 * Math.log(11)) / Math.log(51);
    const valueScore = (100 * Math.log(1001)) / Math.log(2001);
    expect(row).toEqual({
      score: Math.round(((0.45 * permitScore + 0.35 * valueScore) / 0.8) * 10) / 10, rehab_sale_share: null, resale_score: null,
      sales_n: '3', rehab_sales: '2', sample_count: '10',
      note: expect.stringMatching(/(^|; )fewer than 5 residential arm's-length sales in the window: no rehab resale share \(minimum cohort 5\)(; |$)/),
    });
    // its trend rests on 1-2 events a month (a permit every 30 days, 2 renovated sales): the note says so, last
    expect(row!.note).toMatch(/; the trend rests on few events: \d rehab events in the 30 days to \d{4}-\d\d-\d\d against \d in the 30 days before \(fewer than 5 before, so one event more or less moves trend_pct widely\)$/);
    // the mart's check holds: no share of 1-4 sales
    expect(await ctx.rows(`select count(*)::int as n from mart_rehab where (rehab_sale_share is not null or resale_score is not null) and sales_n < 5`))
      .toEqual([{ n: 0 }]);
  });

  test('5 sales make a share: it counts in the score and the sample, the note says nothing of it', async () => {
    await ctx.db.run(`insert into int_market_housing_units values ('37206', 1000)`);
    for (let i = 0; i < 10; i++) await permit(`r${i}`, '37206', day('2023-09-01', 30 * i), 'renovation', 100000);
    for (let i = 0; i < 5; i++) await sale(`n${i}`, '37206', day('2024-01-01', 20 * i), 300000, `x${i}`, i === 0 ? 2024 : null);
    // and 2 new-construction permits, which no component counts: not in the sample (10 rehab permits + 5 sales)
    await permit('new1', '37206', '2024-02-01', 'new', 900000); await permit('new2', '37206', '2024-03-01', 'new', 900000);
    await run(ctx, ...MARTS);
    const [row] = await ctx.rows<Record<string, unknown>>(`select rehab_sale_share, resale_score, sample_count, note from mart_rehab where zip = '37206' and months = 12`);
    expect(row).toMatchObject({ rehab_sale_share: 0.2, resale_score: 100, sample_count: '15' });
    expect(String(row!['note'] ?? '')).not.toContain('minimum cohort');
  });
});

describe('mart_rehab: confidence counts the events the score is computed from', () => {
  test('a zip of many office and new-construction permits and 3 rehab permits is low, not high', async () => {
    // 37209: a year of records (a permit every 6 days, 61 of them), 3 of them rehab: the score rests on 3 permits
    await ctx.db.run(`insert into int_market_housing_units values ('37209', 1000)`);
    for (let i = 0; i <= 60; i++) await permit(`c${i}`, '37209', day('2023-06-02', 6 * i), i % 20 === 10 ? 'renovation' : 'new', 500000);
    await run(ctx, ...MARTS);
    const [row] = await ctx.rows<Record<string, unknown>>(`select permits_all, permits_rehab, sample_count, records_days >= 0.9 * window_days as covered, confidence
      from mart_rehab where zip = '37209' and months = 12`);
    // before: confidence_by_count(61 permits) = high
    expect(row).toEqual({ permits_all: '61', permits_rehab: '3', sample_count: '3', covered: true, confidence: 'low' });
  });
});
