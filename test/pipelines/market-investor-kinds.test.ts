// mart_investor over one source holding two kinds of records that end apart: a canonical folder's sales.csv running to
// 2022-12 and its distress.csv to 2016-06 (review 15: Philadelphia's sales and Louisville's cases in one canonical/
// folder answered Louisville 0 distressed properties over the 12 months to 2022-12-01, 365 of 365 days covered). A
// kind's end is its own: the distress count's window ends at the filings' last day, and a city of filings only is
// covered by the distress file alone. Over given rows in a fresh DuckDB.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const INTERMEDIATE = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql'];

async function sale(city: string, state: string, date: string, n: number): Promise<void> {
  await ctx.db.run(`insert into sales (sale_id, source, file, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line)
    values ($id, 'canonical', 'sales.csv', $id, $city, $st, null, $date::date, 200000, 'sfr', 1000, true, $n)`, { id: `${city}-s${n}`, city, st: state, date, n });
}
async function filing(city: string, date: string, n: number): Promise<void> {
  await ctx.db.run(`insert into distress (distress_id, source, file, parcel_id, city, state_code, kind, filing_date, line)
    values ($id, 'canonical', 'distress.csv', $id, $city, 'KY', 'foreclosure', $date::date, $n)`, { id: `${city}-d${n}`, city, date, n });
}

describe('mart_investor: a source whose sales and filings end apart', () => {
  test("the distress window ends at the filings' own last day, and a city of filings is covered by the distress file only", async () => {
    // sales.csv: Philadelphia 2021-12-01 to 2022-12-01; Bothtown's sales to 2022-12-01 too, its filings to 2016-06-03
    for (const [i, d] of ['2021-12-01', '2022-03-01', '2022-06-01', '2022-09-01', '2022-12-01'].entries()) {
      await sale('Philadelphia', 'PA', d, i);
      await sale('Bothtown', 'KY', d, 10 + i);
    }
    // distress.csv: Louisville's filings 2014-08-01 to 2016-06-03: 2 in the last 3 months, 3 in 12, 4 in 24
    for (const [i, d] of ['2014-08-01', '2015-09-01', '2016-04-01', '2016-06-03'].entries()) {
      await filing('Louisville', d, i);
      await filing('Bothtown', d, 10 + i);
    }
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    const rows = await ctx.rows(`select city, months, strftime(as_of, '%Y-%m-%d') as as_of, strftime(distress_as_of, '%Y-%m-%d') as distress_as_of,
        distressed_pipeline_count::int as pipeline, records_days::int as covered, window_days::int as asked,
        strftime(records_start, '%Y-%m-%d') as covered_from
      from mart_investor where city in ('Louisville', 'Bothtown') and months in (3, 12, 24) order by city desc, months`);
    expect(rows).toEqual([
      // before: as of 2022-12-01 (the folder's last sale), 0 filings, 92/365/730 days covered by sales.csv
      { city: 'Louisville', months: 3, as_of: '2016-06-03', distress_as_of: '2016-06-03', pipeline: 2, covered: 92, asked: 92, covered_from: '2016-03-04' },
      { city: 'Louisville', months: 12, as_of: '2016-06-03', distress_as_of: '2016-06-03', pipeline: 3, covered: 366, asked: 366, covered_from: '2015-06-04' },
      // the distress file starts 2014-08-01: 673 of the 731 days
      { city: 'Louisville', months: 24, as_of: '2016-06-03', distress_as_of: '2016-06-03', pipeline: 4, covered: 673, asked: 731, covered_from: '2014-08-01' },
      // a city of both kinds: its sales window to 2022-12-01, its filings' window to 2016-06-03
      { city: 'Bothtown', months: 3, as_of: '2022-12-01', distress_as_of: '2016-06-03', pipeline: 2, covered: 91, asked: 91, covered_from: '2022-09-02' },
      { city: 'Bothtown', months: 12, as_of: '2022-12-01', distress_as_of: '2016-06-03', pipeline: 3, covered: 365, asked: 365, covered_from: '2021-12-02' },
      { city: 'Bothtown', months: 24, as_of: '2022-12-01', distress_as_of: '2016-06-03', pipeline: 4, covered: 366, asked: 730, covered_from: '2021-12-01' },
    ]);
    const note = await ctx.rows(`select note from mart_investor where city = 'Bothtown' and months = 12`);
    expect(note[0]!.note).toContain('filed in the last 12 months (to 2016-06-03)');
  });
});
