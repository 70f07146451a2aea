// mart_investor's coverage is its sales files' (review 25): the investor share is a share of sales, so a distress file's
// span is no sales coverage. The reviewer's canonical folder (Branford and Madison, CT: sales.csv solid to 2022-09, then
// a thin extract; distress.csv filings 2022-12-19..2023-08-07) read Madison's 12 months as 233 days covered with the
// distress file, 1 without, over the same thin sales. A city of filings only is still covered by its filing files (the
// only records its answer counts). Over given rows in a fresh DuckDB; the days are counted here from the dates given.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const INTERMEDIATE = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql'];

let line = 0;
async function sale(city: string, date: string): Promise<void> {
  line += 1;
  await ctx.db.run(`insert into sales (sale_id, source, file, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line)
    values ($id, 'canonical', 'sales.csv', $id, $city, 'CT', null, $date::date, 300000, 'sfr', 1000, true, $n)`, { id: `s${line}`, city, date, n: line });
}
async function filing(city: string, date: string): Promise<void> {
  line += 1;
  await ctx.db.run(`insert into distress (distress_id, source, file, parcel_id, city, state_code, kind, filing_date, line)
    values ($id, 'canonical', 'distress.csv', $id, $city, 'CT', 'pre_foreclosure', $date::date, $n)`, { id: `d${line}`, city, date, n: line });
}
/** Days from a to b, both included. */
const days = (a: string, b: string): number => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000) + 1;

describe('mart_investor: coverage is the sales files\'', () => {
  test("a distress file's span is not counted as sales coverage; a city of filings only keeps its filings' coverage", async () => {
    // sales.csv: its busiest month 2022-06 (40 sales), 2022-09 solid (12 >= a quarter of 40), then 2 a month to 2023-09
    // (a thin extract): the file covers 2022-09-30, Madison's last solid day in the 12 months to 2023-09-29, whole
    for (let i = 0; i < 40; i++) await sale('Branford', '2022-06-15');
    for (let i = 0; i < 11; i++) await sale('Branford', '2022-09-10');
    await sale('Madison', '2022-09-30');
    for (let m = 10; m <= 21; m++) {
      const ym = `${2022 + Math.floor((m - 1) / 12)}-${String(((m - 1) % 12) + 1).padStart(2, '0')}`;
      await sale('Madison', `${ym}-05`);
      await sale('Madison', `${ym}-${ym === '2023-09' ? '29' : '20'}`);
    }
    // distress.csv: Madison's filings 2022-12-19..2023-08-07; Guilford has filings and no sale
    for (const d of ['2022-12-19', '2023-02-22', '2023-08-07']) await filing('Madison', d);
    for (const d of ['2023-01-10', '2023-05-02']) await filing('Guilford', d);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    const rows = await ctx.rows<Record<string, unknown>>(`select city, strftime(as_of, '%Y-%m-%d') as as_of, window_days::int as asked,
        records_days::int as covered, strftime(records_start, '%Y-%m-%d') as covered_from, strftime(records_end, '%Y-%m-%d') as covered_to,
        confidence, note
      from mart_investor where months = 12 and city in ('Madison', 'Guilford') order by city desc`);
    const asked = days('2022-09-30', '2023-09-29');
    const other = asked - 1;
    // before: 233 days (2022-09-30 and the distress file's 232, 2022-12-19..2023-08-07), "of the other 132 days, all 132"
    expect(1 + days('2022-12-19', '2023-08-07')).toBe(233);
    expect(rows[0]).toMatchObject({ city: 'Madison', as_of: '2023-09-29', asked, covered: 1, covered_from: '2022-09-30', covered_to: '2022-09-30', confidence: 'low' });
    expect(rows[0]!.note).toContain(`records cover 2022-09-30 to 2022-09-30 only, 1 of the ${asked} days asked: of the other ${other} days, all ${other} hold the city's sales from a partial extract`);
    // the distress count keeps its own window (the 12 months to its last filing) and says its files' days apart
    expect(rows[0]!.note).toContain(`filed in the last 12 months (to 2023-08-07), not every filing still open; the filing records cover 2022-12-19 to 2023-08-07 only, ${days('2022-12-19', '2023-08-07')} of that window's ${days('2022-08-08', '2023-08-07')} days`);
    // a city of filings only: its window ends at its last filing, covered by the filing file's span (2022-12-19..2023-08-07)
    expect(rows[1]).toMatchObject({ city: 'Guilford', as_of: '2023-08-07', asked: days('2022-08-08', '2023-08-07'),
      covered: days('2022-12-19', '2023-08-07'), covered_from: '2022-12-19', covered_to: '2023-08-07' });
  });
});
