// Market domain, marts stage: the 30-day direction (mart_market_direction, read by the rehab score's trend and the
// trends' direction_30d) over given canonical rows. Its windows end where the market's sources are complete: a
// source's records of the 30 days to a day D at least half those of the 30 days before (warehouse/docs/market.md
// "mart_market_direction"), not at a file's late-recorded last weeks.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const STEPS = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_rehab.sql'];

/** Every day from `from` to `to` (YYYY-MM-DD, both included). */
function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

async function sale(id: string, source: string, zip: string, city: string, date: string, price: number, parcel: string): Promise<void> {
  await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, is_arms_length, line)
    values ($id, $source, $parcel, $city, 'WA', $zip, $date::date, $price, 'sfr', true, 1)`, { id, source, parcel, city, zip, date, price });
}

async function permit(id: string, source: string, zip: string, city: string, state: string, date: string, type: string): Promise<void> {
  await ctx.db.run(`insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, valuation)
    values ($id, $source, $zip, $city, $state, $date::date, $type, 10000)`, { id, source, zip, city, state, date, type });
}

type Row = Record<string, unknown>;
const direction = (where: string): Promise<Row[]> => ctx.rows(`
  select coalesce(zip, city_slug) as market, as_of::varchar as as_of, window_end::varchar as window_end,
         events_last_30d::int as last, events_prior_30d::int as prior, round(direction_pct, 1) as pct, direction
  from mart_market_direction where ${where} order by market`);

describe('mart_market_direction: the windows end where the sources are complete', () => {
  test('a deeds file whose last weeks are under-recorded: the windows end on the last day of at least half the month before', async () => {
    // source "deeds": one arm's-length sale a day from March to June 2019, then a single late deed on 2019-07-20 (as_of).
    // Four of the daily sales are rehab resales (bought in January, resold within a year at a gain): 05-25, 06-12,
    // 06-17, 06-19.
    const resold = new Map([['2019-05-25', 'r1'], ['2019-06-12', 'r2'], ['2019-06-17', 'r3'], ['2019-06-19', 'r4']]);
    for (const [i, p] of ['r1', 'r2', 'r3', 'r4'].entries()) await sale(`buy-${p}`, 'deeds', '98103', 'Testville', `2019-01-1${i}`, 100000, p);
    for (const d of days('2019-03-01', '2019-06-30')) await sale(`s-${d}`, 'deeds', '98103', 'Testville', d, 200000, resold.get(d) ?? `p-${d}`);
    await sale('late', 'deeds', '98103', 'Testville', '2019-07-20', 200000, 'p-late');
    // a zip of the same source whose own last sale comes long before the source's end: its windows end at its as_of
    await sale('o1', 'deeds', '98105', 'Otherville', '2019-03-05', 200000, 'o1');
    // a flagged deed after the end neither moves as_of nor counts as a record of the source
    await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, is_arms_length, line)
      values ('flagged', 'deeds', 'p-x', 'Testville', 'WA', '98103', '2019-07-25', 0, 'sfr', false, 1)`);
    await run(ctx, ...STEPS);
    // the 30 days to 2019-07-15 hold 15 sales (06-16..06-30) against 30 before: exactly half, complete; to 07-16, 14
    // against 30: not. Read at as_of, (06-20, 07-20] holds no rehab resale against 4 before: "down -100%". Read at
    // 07-15: 06-17 and 06-19 against 05-25 and 06-12: flat.
    expect(await direction(`market_kind = 'zip' or city_slug = 'testville'`)).toEqual([
      { market: '98103', as_of: '2019-07-20', window_end: '2019-07-15', last: 2, prior: 2, pct: 0, direction: 'flat' },
      { market: '98105', as_of: '2019-03-05', window_end: '2019-03-05', last: 0, prior: 0, pct: 0, direction: 'flat' },
      { market: 'testville', as_of: '2019-07-20', window_end: '2019-07-15', last: 2, prior: 2, pct: 0, direction: 'flat' },
    ]);
    // the rehab score says the same, with the day its trend ends
    const rehab = await ctx.rows(`select trend, trend_pct, trend_end::varchar as trend_end, as_of::varchar as as_of, events_last_30d::int as last
      from mart_rehab where zip = '98103' and months = 6`);
    expect(rehab).toEqual([{ trend: 'flat', trend_pct: 0, trend_end: '2019-07-15', as_of: '2019-07-20', last: 2 }]);
  });

  test('a permit file complete to its end keeps its end; a market of two sources ends at the earlier complete day', async () => {
    // "city_permits": complete to its last day (a rehab permit a day through June, two a day in its last 10 days)
    for (const d of days('2019-05-01', '2019-06-30')) {
      await permit(`c-${d}`, 'city_permits', '60614', 'Chicago', 'IL', d, 'renovation');
      if (d > '2019-06-20') await permit(`c2-${d}`, 'city_permits', '60614', 'Chicago', 'IL', d, 'repair');
    }
    // "deeds" (Testville's sales: a sale a day through May, then two in June, 06-10 and 06-30: complete through 06-16)
    // and "county_permits" (new construction in Testville's zip 98107, one a day to 2019-06-25: complete to its end)
    for (const d of days('2019-04-01', '2019-05-31')) await sale(`s-${d}`, 'deeds', '98103', 'Testville', d, 200000, `p-${d}`);
    await sale('j1', 'deeds', '98103', 'Testville', '2019-06-10', 200000, 'j1');
    await sale('j2', 'deeds', '98103', 'Testville', '2019-06-30', 200000, 'j2');
    for (const d of days('2019-05-01', '2019-06-25')) await permit(`n-${d}`, 'county_permits', '98107', 'Testville', 'WA', d, 'new');
    await run(ctx, ...STEPS);
    expect(await direction('true')).toEqual([
      // (06-01, 06-30]: 30 + 10 rehab permits against 30 before
      { market: '60614', as_of: '2019-06-30', window_end: '2019-06-30', last: 40, prior: 30, pct: 33.3, direction: 'up' },
      // deeds: (05-17, 06-16] holds 14 + 1 = 15 sales against 30 before, exactly half; (05-18, 06-17] 13 + 1 against 30
      { market: '98103', as_of: '2019-06-30', window_end: '2019-06-16', last: 0, prior: 0, pct: 0, direction: 'flat' },
      { market: '98107', as_of: '2019-06-25', window_end: '2019-06-25', last: 0, prior: 0, pct: 0, direction: 'flat' },
      { market: 'chicago', as_of: '2019-06-30', window_end: '2019-06-30', last: 40, prior: 30, pct: 33.3, direction: 'up' },
      // Testville reads both sources: the earlier of their complete days (06-16, not the permits' 06-25)
      { market: 'testville', as_of: '2019-06-30', window_end: '2019-06-16', last: 0, prior: 0, pct: 0, direction: 'flat' },
    ]);
  });
});
