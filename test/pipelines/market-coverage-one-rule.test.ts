// One coverage rule for every market mart (review 17, warehouse/docs/market.md "Coverage of a window"): a canonical
// sales.csv of six Fairfield County, CT towns cut from the state's head-of-file file (the reviewer's build) holds one
// sale a month or none in 2020-10..2022-01, then 54, 40, 37, 24, 14, 30, 37, 47, 65, 59, 53, 39 a month in
// 2022-10..2023-09. The investor overview answered Darien's 24 months 730 of 730 days covered (each file's first to last
// sale) where comps said partial, and February 2023 (14 sales, 21.5% of June's 65) was called a partial extract by
// comps and uncovered by the trends: a winter dip inside the file's solid months, not an extract. Now comps, investor,
// rehab (no row here: no permit, no repeat sale) and the trends read int_market_file_coverage: the solid months 2022-10-01..2023-09-27, February included, and
// the thin months before them not. Over given rows in a fresh DuckDB, one zip for the town.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';
import { run as runTrends } from '../../pipelines/marts/30_mart_market_trends.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const SOLID: [string, number][] = [['2022-10', 54], ['2022-11', 40], ['2022-12', 37], ['2023-01', 24], ['2023-02', 14], ['2023-03', 30],
  ['2023-04', 37], ['2023-05', 47], ['2023-06', 65], ['2023-07', 59], ['2023-08', 53], ['2023-09', 39]];

async function sales(): Promise<void> {
  const rows: [string, number][] = [];
  // the thin head: one sale on the 15th of each month 2020-10..2022-01
  for (let m = 0; m < 16; m++) rows.push([new Date(Date.UTC(2020, 9 + m, 15)).toISOString().slice(0, 10), 1]);
  // the solid months: n sales spread over days 1..27 (the file ends 2023-09-27)
  for (const [month, n] of SOLID) for (let i = 0; i < n; i++) rows.push([`${month}-${String(1 + (i % 27)).padStart(2, '0')}`, 1]);
  await ctx.db.run(`create temp table days (d date)`);
  for (const [d] of rows) await ctx.db.run(`insert into days values ($d::date)`, { d });
  await ctx.db.run(`insert into sales (sale_id, source, file, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line)
    select 'd' || n, 'canonical', 'sales.csv', 'p' || n, 'Darien', 'CT', '06820', d, 900000 + n, 'sfr', 2000, true, n
    from (select d, row_number() over (order by d) as n from days)`);
}

describe('one coverage rule: comps, investor, rehab and trends read the same covered days', () => {
  test("a small complete market's winter dip is covered; the thin months before the file's solid months are not", async () => {
    await sales();
    await run(ctx, 'pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
      'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql',
      'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_comps.sql', 'pipelines/marts/30_mart_investor.sql',
      'pipelines/marts/30_mart_market_monthly.sql');
    await runTrends(ctx);
    const cover = `strftime(records_start, '%Y-%m-%d') as lo, strftime(records_end, '%Y-%m-%d') as hi, records_days::int as days, window_days::int as asked`;
    const comps = await ctx.rows(`select months, ${cover}, note from mart_comps where zip = '06820' and property_type = 'sfr' and months in (12, 24) order by months`);
    const investor = await ctx.rows(`select months, ${cover}, note from mart_investor where city = 'Darien' and months in (12, 24) order by months`);
    // before: investor 24 months 2021-09-28..2023-09-27, 730 of 730, 12 months 365 of 365; comps 334 and 334 (February
    // left out: "the other 28 days come from a partial extract"). The file has no sale in 2022-02..09: 12 months start uncovered
    const want = [{ months: 12, lo: '2022-10-01', hi: '2023-09-27', days: 362, asked: 365 }, { months: 24, lo: '2022-10-01', hi: '2023-09-27', days: 362, asked: 730 }];
    for (const [name, got] of Object.entries({ comps, investor })) {
      expect(got.map(({ note: _, ...r }) => r), name).toEqual(want);
      expect(got[0]!.note, name).toContain('cover 2022-10-01 to 2023-09-27 only, 362 of the 365 days asked');
      expect(got[0]!.note, name).not.toContain('partial extract');
      expect(got[1]!.note, name).toContain('cover 2022-10-01 to 2023-09-27 only, 362 of the 730 days asked: ');
      expect(got[1]!.note, name).toContain('of the other 368 days, 126 hold the');
    }
    const months = await ctx.rows<{ month: string; covered: boolean }>(`select month_label as month, covered from market_monthly
      where market_kind = 'zip' and zip = '06820' and property_type = 'sfr' and month_label between '2021-12' and '2023-09' order by month_no`);
    // before: 2023-02 false (a winter dip called a partial extract)
    expect(months.filter((m) => m.covered).map((m) => m.month)).toEqual(SOLID.map(([m]) => m));
  });
});
