// Market domain, marts stage: the comps answer's note (warehouse/docs/market.md mart_comps) over given canonical rows.
// When a window holds arm's-length sales of the type and none records a living area, there is no price per sqft:
// the note says so, whatever the state (the rows decide, not a list of sources that record no area).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

test('sales of the type without a living area: sale_count and a note; comps or no sales: no note', async () => {
  const rows: [string, string, string, number | null, boolean][] = [
    // sfr: three arm's-length sales in the 6 months to 2015-05-14, none with a living area; a flagged one not counted
    ['a', 'sfr', '2015-05-14', null, true], ['b', 'sfr', '2015-04-01', null, true], ['c', 'sfr', '2014-12-01', null, true],
    ['d', 'sfr', '2015-05-01', null, false],
    // condo: one comp and one sale without an area: a small cohort, said by sample_count and confidence, no note
    ['e', 'condo', '2015-05-01', 800, true], ['f', 'condo', '2015-05-02', null, true],
    // multi: its only sale is older than 6 months: no note in 3 or 6 months, one in 12
    ['g', 'multi', '2014-09-01', null, true],
  ];
  for (const [id, type, date, sqft, arms] of rows) {
    await ctx.db.run(`insert into sales (sale_id, source, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line)
      values ($id, 'test', 'Seattle', 'WA', '98103', $date::date, 400000, $type, $sqft, $arms, 1)`, { id, type, date, sqft, arms });
  }
  await run(ctx, 'pipelines/intermediate/30_market_95_zip_names.sql', 'pipelines/marts/30_mart_comps.sql');
  const got = await ctx.rows(`select property_type, months, comp_count::int as comps, sale_count::int as sales, sample_count, note
    from mart_comps where months in (6, 12) order by property_type, months`);
  const note = (n: number): string => `${n} arm's-length ${n === 1 ? 'sale' : 'sales'} of this type in the window, none with a recorded living area: no price per square foot`;
  expect(got).toEqual([
    { property_type: 'commercial', months: 6, comps: 0, sales: 0, sample_count: null, note: null },
    { property_type: 'commercial', months: 12, comps: 0, sales: 0, sample_count: null, note: null },
    { property_type: 'condo', months: 6, comps: 1, sales: 2, sample_count: null, note: null },
    { property_type: 'condo', months: 12, comps: 1, sales: 2, sample_count: null, note: null },
    { property_type: 'land', months: 6, comps: 0, sales: 0, sample_count: null, note: null },
    { property_type: 'land', months: 12, comps: 0, sales: 0, sample_count: null, note: null },
    { property_type: 'multi', months: 6, comps: 0, sales: 0, sample_count: null, note: null },
    { property_type: 'multi', months: 12, comps: 0, sales: 1, sample_count: null, note: note(1) },
    { property_type: 'sfr', months: 6, comps: 0, sales: 3, sample_count: null, note: note(3) },
    { property_type: 'sfr', months: 12, comps: 0, sales: 3, sample_count: null, note: note(3) },
  ]);
});
