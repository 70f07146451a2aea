// GET /v1/market/trends, review 16: a month the market's source files do not cover (NYC's 2022-04..2023-02, the gap
// between its two rolling-sales files) holds no count of sales: its sample_count is null as its sales_count, never 0;
// and a change of the summary null because the month it compares is such a month says so in change_note
// (live/research/month-cover.ts coverNote). Expected figures are our own SQL over the raw files in ../shared/data.
import { describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Month { month: string; sales_count: number | null; sample_count: number | null; complete: boolean }
interface Trends { series: Month[]; summary: Record<string, unknown> }

const api = serveSharedBuild('builder', 100_000);
const NYC = ['nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz'];

describe('months the source files do not cover', () => {
  test('zip 11201 condo, 36 months: 2022-04..2023-02 (and 2021-03, before the first file) have null counts; change_12m_pct says why it is null', async () => {
    const byMonth = await rawQuery<{ m: string; n: number }>(`select strftime(try_cast("SALE DATE" as date), '%Y-%m') as m, count(*)::int as n
      from read_csv([${NYC.map((f) => `'${dataFile(f)}'`).join(', ')}], all_varchar = true) group by all`);
    const rowsOf = new Map(byMonth.map((r) => [r.m, r.n]));
    const spans = await rawQuery<{ a: string; b: string }>(NYC.map((f) => `select strftime(min(try_cast("SALE DATE" as date)), '%Y-%m') as a, strftime(max(try_cast("SALE DATE" as date)), '%Y-%m') as b from read_csv('${dataFile(f)}', all_varchar = true)`).join(' union all ') + ' order by a');
    const inFiles = (m: string): boolean => spans.some((s) => m >= s.a && m <= s.b);

    const res = await api.get('/v1/market/trends?zip=11201&property_type=condo&months=36');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Trends;
    expect(schemaErrors('MarketTrends', body)).toEqual([]);
    expect(body.series[0]!.month).toBe('2021-03');
    const gap = body.series.filter((s) => !inFiles(s.month));
    expect(gap.map((s) => s.month)).toEqual(['2021-03', '2022-04', '2022-05', '2022-06', '2022-07', '2022-08', '2022-09', '2022-10', '2022-11', '2022-12', '2023-01', '2023-02']);
    for (const s of gap) {
      expect(rowsOf.get(s.month) ?? 0, s.month).toBe(0); // no file holds a row of the month: unrecorded, not 0 sales
      expect(s, s.month).toMatchObject({ sales_count: null, sample_count: null, complete: false });
    }
    // a covered month keeps its count
    for (const s of body.series.filter((x) => inFiles(x.month) && x.sales_count !== null)) expect(s.sample_count, s.month).toBe(s.sales_count);

    const words = spans.map((s) => `${s.a} to ${s.b}`).join(' and ');
    expect(body.summary).toMatchObject({ change_end_month: '2024-02', change_12m_pct: null });
    expect(body.summary['change_3m_pct']).not.toBeNull();
    expect(body.summary['change_note']).toBe(`change_12m_pct is null: 2023-02, the month it compares with 2024-02, is not covered by the source files (the source files cover ${words} of the 60 months to 2024-02)`);
  });
});
