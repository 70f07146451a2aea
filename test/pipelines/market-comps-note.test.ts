// Market domain, marts stage: the comps answer's note (warehouse/docs/market.md mart_comps) over given canonical rows.
// When a window holds arm's-length sales of the type and none records a living area, there is no price per sqft:
// the note says so, whatever the state (the rows decide, not a list of sources that record no area). The window's
// sales of the type left out as not arm's-length are counted by reason (review 26).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

test('every null figure is explained: no sale, sales without a living area (no count below 5), 1-4 comps, no list data', async () => {
  const rows: [string, string, string, number | null, boolean][] = [
    // sfr: three arm's-length sales in the 6 months to 2015-05-14, none with a living area; a flagged one not counted
    ['a', 'sfr', '2015-05-14', null, true], ['b', 'sfr', '2015-04-01', null, true], ['c', 'sfr', '2014-12-01', null, true],
    ['d', 'sfr', '2015-05-01', null, false],
    // condo: one comp and one sale without an area: a small cohort, said by sample_count and confidence, no note
    ['e', 'condo', '2015-05-01', 800, true], ['f', 'condo', '2015-05-02', null, true],
    // multi: its only sale is older than 6 months: no note in 3 or 6 months, one in 12
    ['g', 'multi', '2014-09-01', null, true],
  ];
  // the source's records run from 2014-01-02 (a sale of another zip): its span covers every window asked here, so no
  // coverage clause (market.md "Coverage of a window"; market-comps-coverage.test.ts has the windows it does not cover)
  await ctx.db.run(`insert into sales (sale_id, source, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line)
    values ('z', 'test', 'Seattle', 'WA', '98105', date '2014-01-02', 400000, 'sfr', 1000, true, 1)`);
  for (const [id, type, date, sqft, arms] of rows) {
    await ctx.db.run(`insert into sales (sale_id, source, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line)
      values ($id, 'test', 'Seattle', 'WA', '98103', $date::date, 400000, $type, $sqft, $arms, 1)`, { id, type, date, sqft, arms });
  }
  // the flagged sfr sale a portfolio deed; a nominal one of 2014-10 in the 12 months only (review 26: said, by reason)
  await ctx.db.run(`update sales set is_portfolio = true where sale_id = 'd'`);
  await ctx.db.run(`insert into sales (sale_id, source, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, non_arms_length_reason, line)
    values ('h', 'test', 'Seattle', 'WA', '98103', date '2014-10-01', 1000, 'sfr', 900, false, 'nominal_price', 1)`);
  await run(ctx, 'pipelines/intermediate/30_market_95_zip_names.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_comps.sql');
  const got = await ctx.rows(`select property_type, months, comp_count::int as comps, sale_count::int as sales, sample_count, note
    from mart_comps where zip = '98103' and months in (6, 12) order by property_type, months`);
  // below 5 sales the count is not given (minimum cohort); no Redfin row here, no list data: the listing clause always
  const noArea = (n: number): string => `${n >= 5 ? n : 'fewer than 5'} arm's-length sales of this type in the window, none with a recorded living area: no price per square foot`;
  const noSale = "no arm's-length sale of this type in the window: no price per square foot";
  // a type the zip's one source records no sale of anywhere (land, commercial): said so (comps_type_unrecorded)
  const noneRecorded = (type: string): string => `no arm's-length sale of this type in the window: the zip's sales source records no ${type} sale in any of its markets (its sales are of the types sfr, multi and condo only), so none made here is in this build; no price per square foot`;
  const few = "fewer than 5 arm's-length sales of this type in the window with a recorded living area: too few for a price per square foot (minimum cohort 5)";
  const listing = (residential: boolean): string => `no days on market or list-to-sale ratio: fewer than 5 comps of the window record a list date and price, and ${residential
    ? "no Redfin zip snapshot stands for the window (one needs its 90 days inside the window, its type this one or all residential, and 5 or more homes sold) (Redfin's sale-to-list is an average, not a median: not used for the ratio)"
    : 'the Redfin zip snapshots cover residential types only'}`;
  const note = (first: string, residential = true): string => `${first}; ${listing(residential)}`;
  expect(got).toEqual([
    { property_type: 'commercial', months: 6, comps: 0, sales: 0, sample_count: null, note: note(noneRecorded('commercial'), false) },
    { property_type: 'commercial', months: 12, comps: 0, sales: 0, sample_count: null, note: note(noneRecorded('commercial'), false) },
    { property_type: 'condo', months: 6, comps: 1, sales: 2, sample_count: null, note: note(few) },
    { property_type: 'condo', months: 12, comps: 1, sales: 2, sample_count: null, note: note(few) },
    { property_type: 'land', months: 6, comps: 0, sales: 0, sample_count: null, note: note(noneRecorded('land'), false) },
    { property_type: 'land', months: 12, comps: 0, sales: 0, sample_count: null, note: note(noneRecorded('land'), false) },
    { property_type: 'multi', months: 6, comps: 0, sales: 0, sample_count: null, note: note(noSale) },
    { property_type: 'multi', months: 12, comps: 0, sales: 1, sample_count: null, note: note(noArea(1)) },
    { property_type: 'sfr', months: 6, comps: 0, sales: 3, sample_count: null, note: note(`1 other sale of this type in the window is left out as not arm's-length: 1 portfolio (multi-parcel) deed; ${noArea(3)}`) },
    { property_type: 'sfr', months: 12, comps: 0, sales: 3, sample_count: null, note: note(`2 other sales of this type in the window are left out as not arm's-length: 1 nominal price, 1 portfolio (multi-parcel) deed; ${noArea(3)}`) },
  ]);
});
