// mart_rehab and mart_market_direction over one source holding permits and sales that end apart: a canonical folder's
// permits.csv to 2020-06-30 (Nashville's zips) and its sales.csv to 2022-12-01 (another state's). Each kind's end is its
// own (review 15, as the investor overview's distress window): a zip of permits only reads its 12 months to the
// permits' last day and is covered by the permit file, not by 2022's sales. Over given rows in a fresh DuckDB.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const MARTS = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql', 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql'];

const day = (start: string, n: number): string => new Date(Date.parse(`${start}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('mart_rehab: a source whose permits and sales end apart', () => {
  test("a zip of permits only reads its window to the permits' last day, covered by the permit file", async () => {
    await ctx.db.run(`insert into int_market_housing_units values ('37206', 1000)`);
    // permits.csv: 12 renovations in 37206, one every 30 days to 2020-06-30
    for (let i = 0; i < 12; i++) {
      await ctx.db.run(`insert into permits (permit_id, source, file, zip, city, state_code, issue_date, permit_type, valuation)
        values ($id, 'canonical', 'permits.csv', '37206', 'Nashville', 'TN', $d::date, 'renovation', 100000)`, { id: `r${i}`, d: day('2019-08-05', 30 * i) });
    }
    // sales.csv: 19104's sales to 2022-12-01
    for (const [i, d] of ['2021-12-01', '2022-06-01', '2022-12-01'].entries()) {
      await ctx.db.run(`insert into sales (sale_id, source, file, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line, is_portfolio, is_duplicate)
        values ($id, 'canonical', 'sales.csv', $id, 'Philadelphia', 'PA', '19104', $d::date, 200000, 'sfr', 1000, true, 1, false, false)`, { id: `s${i}`, d });
    }
    await run(ctx, ...MARTS);
    // before: as of 2022-12-01 (the folder's last sale): no permit in the window, 0 of 365 days covered; now the permit
    // file's span, 2019-08-05 to 2020-06-30, covers 331 of the 366 days
    expect(await ctx.rows(`select strftime(as_of, '%Y-%m-%d') as as_of, permits_rehab::int as permits, records_days::int as covered, window_days::int as asked
      from mart_rehab where zip = '37206' and months = 12`)).toEqual([{ as_of: '2020-06-30', permits: 12, covered: 331, asked: 366 }]);
    expect(await ctx.rows(`select strftime(as_of, '%Y-%m-%d') as as_of from mart_market_direction where market_kind = 'zip' and zip = '37206'`))
      .toEqual([{ as_of: '2020-06-30' }]);
  });
});
