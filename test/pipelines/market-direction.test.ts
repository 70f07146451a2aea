// Market domain, marts stage: the 30-day direction (mart_market_direction, read by the rehab score's trend and the
// trends' direction_30d) over given canonical rows. Its windows end where the market's sources are complete: the
// latest day D whose 7 days (D-7, D] hold at least 3/4 of the average week of the 8 weeks before (D-63, D-7], i.e.
// 8 * last_7 >= 0.75 * prior_56 (warehouse/docs/market.md "mart_market_direction"), not at a file's late-recorded
// last weeks. A week that stops one day of seven short (86%) passes, two days short (71%) does not.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const STEPS = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql', 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql'];

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

/** `perDay` arm's-length sales on every day from `from` to `to` at $200,000, each its own parcel but the first of a day
 *  in `resold` (date -> parcel: that parcel's resale). */
async function dailySales(source: string, zip: string, city: string, from: string, to: string, perDay: number, resold = new Map<string, string>()): Promise<void> {
  for (const d of days(from, to)) {
    for (let i = 0; i < perDay; i++) await sale(`${source}-${zip}-${d}-${i}`, source, zip, city, d, 200000, (i === 0 && resold.get(d)) || `p-${zip}-${d}-${i}`);
  }
}

async function permit(id: string, source: string, zip: string, city: string, state: string, date: string, type: string): Promise<void> {
  await ctx.db.run(`insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, valuation)
    values ($id, $source, $zip, $city, $state, $date::date, $type, 10000)`, { id, source, zip, city, state, date, type });
}

/** `perDay` permits of a type on every day from `from` to `to`. */
async function dailyPermits(source: string, zip: string, city: string, state: string, from: string, to: string, perDay: number, type: string): Promise<void> {
  for (const d of days(from, to)) for (let i = 0; i < perDay; i++) await permit(`${source}-${zip}-${d}-${i}`, source, zip, city, state, d, type);
}

type Row = Record<string, unknown>;
const direction = (where: string): Promise<Row[]> => ctx.rows(`
  select coalesce(zip, city_slug) as market, as_of::varchar as as_of, window_end::varchar as window_end,
         events_last_30d::int as last, events_prior_30d::int as prior, round(direction_pct, 1) as pct, direction
  from mart_market_direction where ${where} order by market`);

describe('mart_market_direction: the windows end where the sources are complete', () => {
  test('a deeds file whose last weeks are recorded at half the rate: the windows end on its last week of 3/4 of the 8 before', async () => {
    // source "deeds": two arm's-length sales a day from March to 2019-06-09 (14 a week), then one a day to 06-30 (the
    // late-recorded tail), then a single late deed on 2019-07-20 (as_of). Four of the sales are rehab resales (bought in
    // January, resold within a year at a gain): 04-20, 05-01, 05-20, 06-12.
    const resold = new Map([['2019-04-20', 'r1'], ['2019-05-01', 'r2'], ['2019-05-20', 'r3'], ['2019-06-12', 'r4']]);
    for (const [i, p] of ['r1', 'r2', 'r3', 'r4'].entries()) await sale(`buy-${p}`, 'deeds', '98103', 'Testville', `2019-01-1${i}`, 100000, p);
    await dailySales('deeds', '98103', 'Testville', '2019-03-01', '2019-06-09', 2, resold);
    await dailySales('deeds', '98103', 'Testville', '2019-06-10', '2019-06-30', 1, resold);
    await sale('late', 'deeds', '98103', 'Testville', '2019-07-20', 200000, 'p-late');
    // a zip of the same source whose own last sale comes long before the source's end: its windows end at its as_of
    await sale('o1', 'deeds', '98105', 'Otherville', '2019-03-05', 200000, 'o1');
    // a flagged deed after the end neither moves as_of nor counts as a record of the source
    await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, is_arms_length, line)
      values ('flagged', 'deeds', 'p-x', 'Testville', 'WA', '98103', '2019-07-25', 0, 'sfr', false, 1)`);
    await run(ctx, ...STEPS);
    // (06-05, 06-12] holds 4 x 2 + 3 = 11 sales against 112 in (04-10, 06-05]: 8 x 11 = 88 >= 0.75 x 112 = 84, complete;
    // (06-06, 06-13] holds 3 x 2 + 4 = 10: 80 < 84, not; no later week passes (06-30: 7 against 98, 56 < 73.5). The
    // 30-day half rule passed 2019-07-04 (31 sales against 60). Read at as_of, (06-20, 07-20] holds no rehab resale
    // against 1 before: "down -100%". Read at 06-12: 05-20 and 06-12 against 04-20 and 05-01: flat.
    expect(await direction(`market_kind = 'zip' or city_slug = 'testville'`)).toEqual([
      { market: '98103', as_of: '2019-07-20', window_end: '2019-06-12', last: 2, prior: 2, pct: 0, direction: 'flat' },
      // no permit counts in 98105 and its one sale is no repeat sale: no source could show a rehab event, so no direction
      // as_of: where its source's records end (2019-07-20), not its own last sale (2019-03-05; market.md "mart_market_direction")
      { market: '98105', as_of: '2019-07-20', window_end: '2019-06-12', last: 0, prior: 0, pct: null, direction: null },
      { market: 'testville', as_of: '2019-07-20', window_end: '2019-06-12', last: 2, prior: 2, pct: 0, direction: 'flat' },
    ]);
    // the rehab score says the same, with the day its trend ends
    const rehab = await ctx.rows(`select trend, trend_pct, trend_end::varchar as trend_end, as_of::varchar as as_of, events_last_30d::int as last
      from mart_rehab where zip = '98103' and months = 6`);
    expect(rehab).toEqual([{ trend: 'flat', trend_pct: 0, trend_end: '2019-06-12', as_of: '2019-07-20', last: 2 }]);
  });

  test('a last week of exactly 3/4 of the average week passes; a record short, or 3/4 of a record short, fails', async () => {
    // three permit files, 4 permits a day from April to 2019-06-23 (28 a week), then 3 a day to 06-30 (21 = 3/4 of 28):
    // "exact" as is; "short" with 2 on 06-30 (20 in its last week); "fraction" with a 5th permit on 05-15, so its 8
    // weeks before the last hold 225 (3/4 of the average week 21.09, and 21 is under it)
    for (const [source, zip] of [['exact', '60601'], ['short', '60602'], ['fraction', '60603']] as const) {
      await dailyPermits(source, zip, 'Chicago', 'IL', '2019-04-01', '2019-06-23', 4, 'new');
      await dailyPermits(source, zip, 'Chicago', 'IL', '2019-06-24', source === 'short' ? '2019-06-29' : '2019-06-30', 3, 'new');
    }
    await dailyPermits('short', '60602', 'Chicago', 'IL', '2019-06-30', '2019-06-30', 2, 'new');
    await permit('fraction-extra', 'fraction', '60603', 'Chicago', 'IL', '2019-05-15', 'new');
    await run(ctx, ...STEPS);
    // exact: 8 x 21 = 168 >= 0.75 x 224 = 168. short: 160 < 168; to 06-29, (06-22, 06-29] holds 4 + 18 = 22 against 224:
    // 176 >= 168. fraction: 168 < 0.75 x 225 = 168.75; to 06-29, 22 against 225: 176 >= 168.75.
    expect(await direction(`market_kind = 'zip'`)).toEqual([
      { market: '60601', as_of: '2019-06-30', window_end: '2019-06-30', last: 0, prior: 0, pct: 0, direction: 'flat' },
      { market: '60602', as_of: '2019-06-30', window_end: '2019-06-29', last: 0, prior: 0, pct: 0, direction: 'flat' },
      { market: '60603', as_of: '2019-06-30', window_end: '2019-06-29', last: 0, prior: 0, pct: 0, direction: 'flat' },
    ]);
  });

  test('a permit file with a holiday-like dip before a complete last week keeps its end; a market of permits and sales counts each to its own complete day', async () => {
    // "city_permits": two rehab permits a day from April through June 2019 but one a day in the week 06-17..06-23 (a
    // holiday); its last week, 06-24..06-30, is a full one again
    await dailyPermits('city_permits', '60614', 'Chicago', 'IL', '2019-04-01', '2019-06-16', 2, 'renovation');
    await dailyPermits('city_permits', '60614', 'Chicago', 'IL', '2019-06-17', '2019-06-23', 1, 'renovation');
    await dailyPermits('city_permits', '60614', 'Chicago', 'IL', '2019-06-24', '2019-06-30', 2, 'renovation');
    // "deeds" (Testville's sales: a sale a day through May, then two in June, 06-10 and 06-30) and "county_permits" (new
    // construction in Testville's zip 98107, one a day from May to 2019-06-25)
    await dailySales('deeds', '98103', 'Testville', '2019-04-01', '2019-05-31', 1);
    await sale('j1', 'deeds', '98103', 'Testville', '2019-06-10', 200000, 'j1');
    await sale('j2', 'deeds', '98103', 'Testville', '2019-06-30', 200000, 'j2');
    await dailyPermits('county_permits', '98107', 'Testville', 'WA', '2019-05-01', '2019-06-25', 1, 'new');
    await run(ctx, ...STEPS);
    // the dip's own week fails ((06-16, 06-23]: 7 against 112, 56 < 84), but the last week holds 14 against 105 in
    // (04-28, 06-23] (112 >= 78.75): complete to 06-30
    expect(await direction('true')).toEqual([
      // (05-31, 06-30]: 60 - 7 rehab permits against 60 in (05-01, 05-31]
      { market: '60614', as_of: '2019-06-30', window_end: '2019-06-30', last: 53, prior: 60, pct: -11.7, direction: 'down' },
      // deeds: (05-25, 06-01] holds 6 sales against 55 before (from 04-01): 48 >= 41.25; (05-26, 06-02] 5 against 56:
      // 40 < 42, and no later week passes
      // deeds only, none a repeat sale, no permit: no direction (null), not flat 0
      { market: '98103', as_of: '2019-06-30', window_end: '2019-06-01', last: 0, prior: 0, pct: null, direction: null },
      // county_permits: (06-18, 06-25] holds 7 against the 49 of 05-01..06-18: complete to its end; but its records
      // start 05-01, under 60 days before 06-25: no prior 30 days to compare, so no direction (null), not flat 0
      { market: '98107', as_of: '2019-06-25', window_end: '2019-06-25', last: 0, prior: 0, pct: null, direction: null },
      { market: 'chicago', as_of: '2019-06-30', window_end: '2019-06-30', last: 53, prior: 60, pct: -11.7, direction: 'down' },
      // Testville reads both kinds: each to its own complete day (sales 06-01, permits 06-25), window_end the later
      // (review 22; before, both ended at the earlier, 06-01, cutting the permits' last 24 days)
      { market: 'testville', as_of: '2019-06-30', window_end: '2019-06-25', last: 0, prior: 0, pct: 0, direction: 'flat' },
    ]);
  });
});
