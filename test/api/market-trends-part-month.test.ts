// GET /v1/market/trends and the research answer: a month the source files cover in part only (Denver's file ends
// 2019-07-09: 9 days of July) keeps its count of the sales recorded but has no median, investor share or index, and
// month_note says so (market.md "A month covered in part"); and no count of a month of 1-4 sales leaves beside its null
// sales_count: sample_count and untyped_count are null too (minimum cohort). Expected figures: our own SQL over the
// raw files (the research oracle's arm's-length sales, test/helpers/oracle-research.ts).
import { describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { askWithSalesOracle } from '../helpers/research.ts';
import { sql } from '../helpers/oracle-research.ts';

interface Month { month: string; sales_count: number | null; median_price: number | null; median_price_per_sqft: number | null; investor_purchase_share_pct: number | null; price_index: number | null; sample_count: number | null; untyped_count: number | null; complete: boolean }
interface Trends { series: Month[]; month_note: string | null; summary: Record<string, unknown> }

const api = serveSharedBuild('builder', 100_000);
const ask = askWithSalesOracle();
const DENVER = 'denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz';

async function monthsOf(where: string, type: string): Promise<Map<string, { n: number; median: number }>> {
  const rows = await sql<{ m: string; n: number; median: number }>(`select strftime(sale_date, '%Y-%m') as m, count(*)::int as n, quantile_cont(sale_price, 0.5) as median
    from oracle_arms where ${where} and property_type = $type group by all`, { type });
  return new Map(rows.map((r) => [r.m, { n: r.n, median: Number(r.median) }]));
}

describe('a month covered in part only', () => {
  test('Denver single-family 2019-07: the raw count, no median or index, month_note names it; whole months keep theirs', async () => {
    const [end] = await rawQuery<{ d: string }>(`select max(strptime("RECEPTION_DATE", '%Y%m%d'))::date::varchar as d from read_csv('${dataFile(DENVER)}', all_varchar = true)`);
    expect(end!.d.slice(0, 7)).toBe('2019-07'); // the file ends in the first days of July (its 9-10th)
    expect(end!.d < '2019-07-28').toBe(true);
    const raw = await monthsOf(`state_code = 'CO' and lower(city) = 'denver'`, 'sfr');
    const res = await api.get('/v1/market/trends?city=Denver&state=CO&property_type=sfr&months=12');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Trends;
    expect(schemaErrors('MarketTrends', body)).toEqual([]);
    const jul = body.series.at(-1)!;
    expect(jul.month).toBe('2019-07');
    expect(raw.get('2019-07')!.n).toBeGreaterThanOrEqual(5); // a month that had a median before
    expect(jul).toMatchObject({ sales_count: raw.get('2019-07')!.n, median_price: null, median_price_per_sqft: null, investor_purchase_share_pct: null, price_index: null, complete: false });
    expect(body.month_note).toContain('2019-07: the source files cover this month in part only');
    const may = body.series.find((s) => s.month === '2019-05')!;
    expect(may).toMatchObject({ sales_count: raw.get('2019-05')!.n, median_price: Math.round(raw.get('2019-05')!.median), complete: true });
    expect(may.price_index).not.toBeNull();
  });

  test('the research answer for that month gives its count and no median, and says why', async () => {
    const raw = await monthsOf(`state_code = 'CO' and lower(city) = 'denver'`, 'sfr');
    const r = await ask('denver co single-family sales in july 2019');
    // said partial first (h61sales F14), the count of the sales recorded in it
    expect(r.answer).toContain(`July 2019 is a partial month in this data: ${raw.get('2019-07')!.n.toLocaleString('en-US')} arm's-length single-family sales recorded in it`);
    expect(r.answer).toContain('recorded in part only');
    expect(r.answer).not.toMatch(/median sale price of/);
  }, 600_000);
});

describe('no count of 1-4 sales beside a null sales_count', () => {
  test('Killingly, CT commercial: months of 1-4 sales have sample_count and untyped_count null', async () => {
    const raw = await monthsOf(`state_code = 'CT' and lower(city) = 'killingly'`, 'commercial');
    const body = (await (await api.get('/v1/market/trends?city=Killingly&state=CT&property_type=commercial&months=60')).json()) as Trends;
    expect(schemaErrors('MarketTrends', body)).toEqual([]);
    const small = body.series.filter((s) => (raw.get(s.month)?.n ?? 0) >= 1 && raw.get(s.month)!.n <= 4);
    expect(small.length).toBeGreaterThan(0);
    for (const s of small) expect(s, s.month).toMatchObject({ sales_count: null, sample_count: null, untyped_count: null });
    for (const s of body.series.filter((x) => x.sales_count !== null)) expect(s.sales_count, s.month).toBe(raw.get(s.month)!.n);
  });
});
