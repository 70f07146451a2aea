// GET /v1/market/trends: a change of the summary is the window's only when it ends inside the window asked (review 15,
// api/market-trends.ts windowSummary). Manhattan's single-family sales never reach 20 in a month of the last 12
// (2023-03..2024-02; raw NYC rolling sales, borough 1, category 01, $10,000 or more: at most 12), so no change of those
// 12 months can be computed; before, the 12-month answer gave the stored change_3m_pct -26.1 ending 2021-09.
import { describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Trends { series: { month: string }[]; summary: Record<string, unknown> }

const api = serveSharedBuild('builder', 100_000);

async function trends(q: string): Promise<Trends> {
  const res = await api.get(`/v1/market/trends?${q}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Trends;
  expect(schemaErrors('MarketTrends', body)).toEqual([]);
  return body;
}

describe('a change ending before the window asked is not the window\'s', () => {
  test('Manhattan sfr, 12 months: no month of the window has 20 sales, so every change is null and the note says why', async () => {
    const raw = await rawQuery<{ m: string; n: number }>(`
      select strftime(try_cast("SALE DATE" as date), '%Y-%m') as m, count(*)::int as n
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
      where "BOROUGH" = '1' and "BUILDING CLASS CATEGORY" like '01 %' and try_cast(replace("SALE PRICE", ',', '') as double) >= 10000
      group by all order by m`);
    const inWindow = raw.filter((r) => r.m >= '2023-03' && r.m <= '2024-02');
    expect(Math.max(...inWindow.map((r) => r.n))).toBeLessThan(20);
    // the months with 20 sales or more are 2021's June (20) and September (25): the stored change ends there
    expect(raw.filter((r) => r.n >= 20).map((r) => r.m)).toEqual(['2021-06', '2021-09']);

    const all = await trends('city=Manhattan&state=NY&months=60');
    expect(all.summary['change_end_month']).toBe('2021-09');
    expect(all.summary['change_3m_pct']).not.toBeNull();

    const y = await trends('city=Manhattan&state=NY&months=12');
    expect(y.series[0]!.month).toBe('2023-03');
    expect(y.series.at(-1)!.month).toBe('2024-02');
    expect(y.summary).toMatchObject({ change_3m_pct: null, change_12m_pct: null, change_24m_pct: null, change_end_month: null });
    expect(y.summary['change_note']).toMatch(/no month of this 12-month window \(2023-03\.\.2024-02\) is complete with 20 or more sales; the latest such month is 2021-09, before it \(months=30 reaches it\)/);

    // a window reaching 2021-09 keeps the change as stored
    const r = await trends('city=Manhattan&state=NY&months=30');
    expect(r.summary['change_end_month']).toBe('2021-09');
    expect(r.summary['change_3m_pct']).toBe(all.summary['change_3m_pct']);
    const short = await trends('city=Manhattan&state=NY&months=29');
    expect(short.summary['change_3m_pct']).toBeNull();
  });
});
