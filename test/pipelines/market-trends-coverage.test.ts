// Market trends, marts stage over given canonical rows: a month is complete only when the market's sources cover the
// whole month (warehouse/docs/market.md `change_<n>m_pct`, "complete"): each source's first and last record day within
// 3 days of the month's edges, and no source of the market starting or ending inside it; and when it is no partial
// month of its source, read from the source's total monthly sales, never from the market's own few. The months
// outside a file's span are not complete either. Every expectation is also asked of the oracle's own rule
// (coveredMonth, partialMonths over the given rows' monthly totals per source).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';
import { coveredMonth, partialMonths, type Span } from '../helpers/oracle-complete-month.ts';
import { run as runTrends } from '../../pipelines/marts/30_mart_market_trends.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

/** `perDay` arm's-length single-family sales at $200,000-$200,000+perDay on every day from `from` to `to`. */
async function dailySales(source: string, zip: string, city: string, state: string, from: string, to: string, perDay: number): Promise<void> {
  await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, is_arms_length, line)
    select $source || '-' || $zip || '-' || d::varchar || '-' || i, $source, 'p-' || $source || d::varchar || i, $city, $state, $zip, d::date,
           200000 + 1000 * i, 'sfr', true, 1
    from generate_series($from::date, $to::date, interval 1 day) t(d), range($n) r(i)`,
  { source, zip, city, state, from, to, n: perDay });
}

async function build(): Promise<void> {
  await run(ctx, 'pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
    'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_market_monthly.sql');
  await runTrends(ctx);
}

type Month = { month: string; n: number; sales_count: number | null; complete: boolean; covered: boolean; confidence: string };
const series = (zip: string): Promise<Month[]> => ctx.rows<Month>(`
  select month_label as month, sale_count::int as n, sales_count::int as sales_count, complete, covered, confidence
  from market_monthly where market_kind = 'zip' and zip = $zip and property_type = 'sfr' order by month_no`, { zip });
const cityMonths = (slug: string): Promise<Month[]> => ctx.rows<Month>(`
  select month_label as month, sale_count::int as n, sales_count::int as sales_count, complete, covered, confidence
  from market_monthly where market_kind = 'city' and city_slug = $slug and property_type = 'sfr' order by month_no`, { slug });
const endMonth = async (zip: string): Promise<string | null> =>
  (await ctx.rows<{ m: string | null }>(`select change_end_month as m from mart_trends where market_kind = 'zip' and zip = $zip and property_type = 'sfr'`, { zip }))[0]!.m;

/** The partial months of each given source (the oracle's partialMonths over the given rows' monthly totals). */
async function sourcePartials(): Promise<Map<string, Set<string>>> {
  const rows = await ctx.rows<{ source: string; m: string; n: number }>(`
    select source, strftime(sale_date, '%Y-%m') as m, count(*)::int as n from sales where is_arms_length group by all`);
  const counts = new Map<string, Map<string, number>>();
  for (const r of rows) (counts.get(r.source) ?? counts.set(r.source, new Map()).get(r.source)!).set(r.m, r.n);
  return new Map([...counts].map(([source, c]) => [source, partialMonths(c)]));
}

/** The complete months of a series, and the oracle's: covered by the spans and no partial month of its sources. */
async function check(months: Month[], spans: Span[], sources: string[]): Promise<string[]> {
  const partial = await sourcePartials();
  months.forEach((m) => {
    expect(m.complete, m.month).toBe(coveredMonth(m.month, spans) && !sources.some((s) => partial.get(s)!.has(m.month)));
    expect(m.covered, m.month).toBe(coveredMonth(m.month, spans)); // the coverage alone, which the answers read (review 16)
    if (!m.complete) expect(m.confidence, m.month).toBe('low');
  });
  return months.filter((m) => m.complete).map((m) => m.month);
}

describe('market trends: a month is complete only when its sources cover all of it', () => {
  test('a file starting mid-month, one ending mid-month, one ending 3 days before the month end', async () => {
    // 98001: from Tuesday 2019-01-15 (January's 51 sales pass the count test against February's 84: only the span tells)
    await dailySales('late-start', '98001', 'Alpha', 'WA', '2019-01-15', '2019-06-30', 3);
    // 98002: to Tuesday 2019-06-18 (June's 54 sales are over half of May's 93)
    await dailySales('early-end', '98002', 'Beta', 'WA', '2019-01-01', '2019-06-18', 3);
    // 98003: to Thursday 2019-06-27, June 30 a Sunday: within the 3 days' tolerance; 98004: to 06-26, one day short
    await dailySales('edge-end', '98003', 'Gamma', 'WA', '2019-01-04', '2019-06-27', 3);
    await dailySales('short-end', '98004', 'Delta', 'WA', '2019-01-04', '2019-06-26', 3);
    await build();
    const a = await series('98001');
    expect(a.length).toBe(60);
    expect(a.find((m) => m.month === '2019-01')!.sales_count).toBe(51); // the figures stay
    expect(await check(a, [{ first: '2019-01-15', last: '2019-06-30' }], ['late-start'])).toEqual(['2019-02', '2019-03', '2019-04', '2019-05', '2019-06']);
    expect(a.slice(0, 55).every((m) => !m.complete && m.n === 0 || m.month === '2019-01')).toBe(true); // before the file: not complete
    expect(await check(await series('98002'), [{ first: '2019-01-01', last: '2019-06-18' }], ['early-end'])).toEqual(['2019-01', '2019-02', '2019-03', '2019-04', '2019-05']);
    expect(await endMonth('98002')).toBe('2019-05'); // no change ends in the cut June
    expect(await check(await series('98003'), [{ first: '2019-01-04', last: '2019-06-27' }], ['edge-end'])).toEqual(['2019-01', '2019-02', '2019-03', '2019-04', '2019-05', '2019-06']);
    expect(await check(await series('98004'), [{ first: '2019-01-04', last: '2019-06-26' }], ['short-end'])).toEqual(['2019-01', '2019-02', '2019-03', '2019-04', '2019-05']);
  });

  test('a single-week file (Sacramento 2008-05-15..05-21): its one month of 420 sales is not complete, low confidence, no change end', async () => {
    await dailySales('week', '95814', 'Sacramento', 'CA', '2008-05-15', '2008-05-21', 60);
    await build();
    const s = await series('95814');
    expect(s.at(-1)).toMatchObject({ month: '2008-05', sales_count: 420, complete: false, confidence: 'low' });
    expect(await check(s, [{ first: '2008-05-15', last: '2008-05-21' }], ['week'])).toEqual([]); // the empty months before it neither
    expect(await check(await cityMonths('sacramento'), [{ first: '2008-05-15', last: '2008-05-21' }], ['week'])).toEqual([]);
    expect(await endMonth('95814')).toBeNull();
  });

  test('a market of two sources: a month where one of them starts mid-month is not complete', async () => {
    await dailySales('whole', '98005', 'Epsilon', 'WA', '2019-01-01', '2019-06-30', 3);
    await dailySales('joins', '98005', 'Epsilon', 'WA', '2019-03-12', '2019-06-30', 1);
    await build();
    expect(await check(await series('98005'), [{ first: '2019-01-01', last: '2019-06-30' }, { first: '2019-03-12', last: '2019-06-30' }], ['whole', 'joins']))
      .toEqual(['2019-01', '2019-02', '2019-04', '2019-05', '2019-06']);
  });
});

describe('market trends: the count test reads the source\'s total monthly sales, not the market\'s own', () => {
  test('a zip\'s seasonal dip in a full month of its source is complete; a month its source records in part is not, whatever the zip\'s own count', async () => {
    // 'county': zip 98010 steady at 3 sales a day; zip 98011 too but for March, 31 sales against 84 and 90 around it
    // (its own dip, under half: partial by its own count), while the county's March (124) is over half of February's 168
    await dailySales('county', '98010', 'Zeta', 'WA', '2019-01-01', '2019-06-30', 3);
    await dailySales('county', '98011', 'Eta', 'WA', '2019-01-01', '2019-02-28', 3);
    await dailySales('county', '98011', 'Eta', 'WA', '2019-03-01', '2019-03-31', 1);
    await dailySales('county', '98011', 'Eta', 'WA', '2019-04-01', '2019-06-30', 3);
    // 'tail': its file runs to June 30, but June holds 61 sales against May's 155 (a file whose last deeds are recorded in
    // part); zip 98013's own June (60 against 62 in May) looks whole
    await dailySales('tail', '98012', 'Theta', 'WA', '2019-01-01', '2019-05-31', 3);
    await dailySales('tail', '98012', 'Theta', 'WA', '2019-06-30', '2019-06-30', 1);
    await dailySales('tail', '98013', 'Iota', 'WA', '2019-01-01', '2019-06-30', 2);
    await build();
    const dip = await series('98011');
    expect(dip.find((m) => m.month === '2019-03')).toMatchObject({ n: 31, complete: true, covered: true, confidence: 'medium' });
    expect(await check(dip, [{ first: '2019-01-01', last: '2019-06-30' }], ['county'])).toEqual(['2019-01', '2019-02', '2019-03', '2019-04', '2019-05', '2019-06']);
    // a change may start in the dip: March -> June
    const [c] = await ctx.rows<{ e: string; c3: number | null }>(`select change_end_month as e, change_3m_pct as c3 from mart_trends where market_kind = 'zip' and zip = '98011' and property_type = 'sfr'`);
    expect(c!.e).toBe('2019-06');
    expect(c!.c3).not.toBeNull();
    const tail = await series('98013');
    expect(tail.find((m) => m.month === '2019-06')).toMatchObject({ n: 60, complete: false, covered: true, confidence: 'low' });
    expect(await check(tail, [{ first: '2019-01-01', last: '2019-06-30' }], ['tail'])).toEqual(['2019-01', '2019-02', '2019-03', '2019-04', '2019-05']);
    expect(await endMonth('98013')).toBe('2019-05');
  });
});

describe('the oracle\'s coverage rule', () => {
  test('the edges: 3 days of tolerance each side, a month outside every span, a source covering part of it', () => {
    expect(coveredMonth('2014-05', [{ first: '2014-05-02', last: '2015-05-27' }])).toBe(true); // King County's first month
    expect(coveredMonth('2015-05', [{ first: '2014-05-02', last: '2015-05-27' }])).toBe(false); // and its last: 28, 29 missing
    expect(coveredMonth('2023-09', [{ first: '2020-10-01', last: '2023-09-29' }])).toBe(true); // Connecticut's last (30th a Saturday)
    expect(coveredMonth('2021-01', [{ first: '2021-01-04', last: '2021-12-31' }])).toBe(true);
    expect(coveredMonth('2021-01', [{ first: '2021-01-05', last: '2021-12-31' }])).toBe(false);
    expect(coveredMonth('2014-04', [{ first: '2014-05-02', last: '2015-05-27' }])).toBe(false);
    expect(coveredMonth('2014-06', [])).toBe(false);
    expect(coveredMonth('2019-04', [{ first: '2019-01-01', last: '2019-06-30' }, { first: '2019-04-20', last: '2019-06-30' }])).toBe(false);
    expect(coveredMonth('2010-04', [{ first: '2019-01-01', last: '2019-06-30' }, { first: '2010-01-01', last: '2010-12-31' }])).toBe(true);
  });
});
