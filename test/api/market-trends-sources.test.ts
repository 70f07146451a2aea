// GET /v1/market/trends against the raw files (own DuckDB SQL over ../shared/data, no build table read): the index is
// based on a complete month (Philadelphia), a change or an index step never compares a month of Connecticut's 2022
// extract, which records no residential subtype, with a typed one (Hamden), a month is complete only where a file of
// the market's sales covers it whole, by its dates and by its volume beside its source's busiest month (Hartford), and
// a market no sales source covers says so in its 404 (warehouse/docs/market.md "market_monthly and the trends").
import { describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { coveredMonth, rawPartialMonths, rawSourceMonths } from '../helpers/oracle-complete-month.ts';

interface Month { month: string; sales_count: number | null; median_price: number | null; price_index: number | null; sample_count: number; complete: boolean; confidence: string; untyped_count: number }
interface Trends { base_month: string | null; series: Month[]; summary: Record<string, unknown>; index_note: string | null; data_note: string | null; month_note: string | null }

const api = serveSharedBuild('builder', 100_000);

async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await api.get(path);
  return { status: res.status, body: (await res.json()) as T };
}

const CT = dataFile('connecticut-real-estate-sales/*.csv.gz');
/** Connecticut's raw rows: which file (the head-of-file extract, or the 2022 one with no residential subtype), the month
 *  recorded, the town, the types and the price. */
const CT_ROWS = `(select case when filename like '%head9999%' then 'head' else 'y2022' end as f,
    strftime(strptime("Date Recorded", '%m/%d/%Y'), '%Y-%m') as m, Town as town, "Property Type" as pt, "Residential Type" as rt,
    try_cast(replace("Sale Amount", ',', '') as double) as price
  from read_csv('${CT}', all_varchar = true, filename = true, union_by_name = true))`;

describe('the price index is based on a complete month', () => {
  test('Philadelphia: not July 2022 (33 survivor-biased sales), the first complete month with 20 sales of the window', async () => {
    // the OPA roll's single-family sales by month, from the raw file (a parcel's last sale only)
    const raw = await rawQuery<{ m: string; n: number }>(`
      select strftime(try_cast(left(sale_date, 10) as date), '%Y-%m') as m, count(*)::int as n
      from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
      where trim(category_code_description) = 'SINGLE FAMILY' and trim(building_code_description) not like 'RES CONDO%'
        and trim(building_code_description) <> 'CONDO PARKING SPACE' and try_cast(sale_price as double) >= 10000
        and try_cast(left(sale_date, 10) as date) between '2021-01-01' and '2022-12-31'
      group by all order by m`);
    const last = raw.at(-1)!.m; // 2022-12: the file ends on the 12th, a partial month
    expect(last).toBe('2022-12');
    const months = Array.from({ length: 24 }, (_, i) => `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
    const counts = months.map((m) => raw.find((r) => r.m === m)?.n ?? 0);
    // the roll's partial months, from its raw monthly totals of every type: to August 2022 (a parcel's last sale only)
    const partial = (await rawPartialMonths()).get('philadelphia')!;
    for (const window of [6, 12]) {
      const { status, body } = await get<Trends>(`/v1/market/trends?city=Philadelphia&state=PA&months=${window}`);
      expect(status).toBe(200);
      expect(schemaErrors('MarketTrends', body)).toEqual([]);
      const from = 24 - window;
      // the oracle: the first month of the window, short of the file's partial last month, no partial month of the roll
      const expected = months.slice(from).find((m, j) => m !== last && counts[from + j]! >= 20 && !partial.has(m));
      expect(expected).toBe('2022-09');
      expect(body.base_month).toBe(expected);
      const base = body.series.find((s) => s.month === body.base_month)!;
      expect(base.complete).toBe(true);
      expect(base.price_index).toBe(100);
      // October and November against September's median (the index is 100 x median / the base's), not against July's
      // 33 sales (219.05 and 213.05 before the base rule)
      for (const m of ['2022-10', '2022-11']) {
        const s = body.series.find((x) => x.month === m)!;
        expect(s.price_index).toBe(Math.round(10_000 * s.median_price! / base.median_price!) / 100);
        expect(s.price_index!).toBeLessThan(150);
      }
    }
  });
});

describe('a month is partial by its source\'s total sales, not by one market\'s', () => {
  test('zip 98103: January and February 2015 (17 and 23 sales, a winter dip) are complete; King County\'s May 2015 is not', async () => {
    // King County's raw file: every sale per month, and the zip's own
    const kc = (await rawSourceMonths()).get('king_county')!;
    const [span] = await rawQuery<{ first: string; last: string }>(`
      select strftime(min(d), '%Y-%m-%d') as first, strftime(max(d), '%Y-%m-%d') as last
      from (select strptime("date", '%Y%m%dT%H%M%S')::date as d from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`);
    const own = new Map((await rawQuery<{ m: string; n: number }>(`
      select strftime(strptime("date", '%Y%m%dT%H%M%S'), '%Y-%m') as m, count(*)::int as n
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true) where zipcode = '98103' group by all`)).map((r) => [r.m, r.n]));
    // the zip's January is under half of its December and of its months after; the county's is not
    expect(own.get('2015-01')! * 2).toBeLessThan(Math.max(own.get('2014-12')!, own.get('2015-02')!));
    expect(kc.get('2015-01')! * 2).toBeGreaterThan(Math.max(kc.get('2014-12')!, kc.get('2015-02')!));
    expect(kc.get('2015-05')! * 2).toBeLessThan(kc.get('2015-04')!); // the file's cut last month: 646 against 2,231
    const partial = (await rawPartialMonths()).get('king_county')!;
    const { status, body } = await get<Trends>('/v1/market/trends?zip=98103&months=12');
    expect(status).toBe(200);
    expect(schemaErrors('MarketTrends', body)).toEqual([]);
    for (const s of body.series) expect(s.complete, s.month).toBe(coveredMonth(s.month, [span!]) && !partial.has(s.month));
    const at = (m: string): Month => body.series.find((s) => s.month === m)!;
    expect([at('2015-01'), at('2015-02')].map((s) => [s.sales_count, s.complete])).toEqual([[own.get('2015-01'), true], [own.get('2015-02'), true]]);
    expect(at('2015-02').confidence).toBe('medium'); // 23 sales: no longer low for a partial month it is not
    expect(at('2015-05').complete).toBe(false);
    expect(at('2015-05').confidence).toBe('low');
    // zip 98115: January 2015 (21 sales) now starts the 3-month change to April, as market.md cites
    const z = await get<Trends>('/v1/market/trends?zip=98115&months=12');
    expect(z.body.series.find((s) => s.month === '2015-01')!.complete).toBe(true);
    expect(z.body.summary['change_end_month']).toBe('2015-04');
    expect(z.body.summary['change_3m_pct']).not.toBeNull();
  });
});

describe('Connecticut: a change or an index step compares like with like', () => {
  test("Hamden: August 2022's all-residential sales are not set against August 2023's single-family ones", async () => {
    const raw = await rawQuery<{ f: string; m: string; typed: boolean; n: number; med: number }>(`
      select f, m, rt is not null as typed, count(*)::int as n, median(price) as med from ${CT_ROWS}
      where town = 'Hamden' and pt = 'Residential' and m in ('2022-08', '2023-08') group by all order by all`);
    // the 2022 extract records no residential subtype: 124 residential sales at $310,000, of every kind
    expect(raw.filter((r) => r.m === '2022-08')).toEqual([{ f: 'y2022', m: '2022-08', typed: false, n: 124, med: 310_000 }]);
    expect(raw.filter((r) => r.m === '2023-08').every((r) => r.f === 'head' && r.typed)).toBe(true);
    const { body } = await get<Trends>('/v1/market/trends?city=Hamden&state=CT&months=24');
    expect(schemaErrors('MarketTrends', body)).toEqual([]);
    const untyped = (m: string): boolean => raw.some((r) => r.m === m && !r.typed) || m < '2022-10';
    const aug22 = body.series.find((s) => s.month === '2022-08')!;
    expect(aug22.untyped_count).toBe(aug22.sample_count);
    // no 12-month change from an untyped month to a typed one (it read +6.1%)
    const end = body.summary['change_end_month'] as string | null;
    if (body.summary['change_12m_pct'] !== null) {
      const start = `${Number(end!.slice(0, 4)) - 1}${end!.slice(4)}`;
      expect(untyped(start)).toBe(untyped(end!));
    }
    expect(body.summary['change_12m_pct']).not.toBe(6.1);
    // every index value is of the base month's mix: the typed months from October 2022 have none against the 2022 base
    const base = body.base_month!;
    for (const s of body.series) {
      if (s.price_index === null) continue;
      expect(s.untyped_count > 0, s.month).toBe(body.series.find((x) => x.month === base)!.untyped_count > 0);
    }
    expect(body.series.filter((s) => s.month >= '2022-10').every((s) => s.price_index === null)).toBe(true);
    // review 17: those typed months are a thin extract (the head-of-file one: under a quarter of the source's busiest
    // month), covered in part only: no median or index at all, so no index step sets them against the untyped base
    expect(body.series.filter((s) => s.month >= '2022-10' && s.sales_count !== null).every((s) => s.median_price === null)).toBe(true);
    expect(body.month_note).toContain('2022-10');
  });
});

describe('Connecticut: a month is complete only where a file of the market covers it whole', () => {
  test("Hartford: no file of its sales covers a month whole (the head-of-file extract's months are thin beside the source's busiest)", async () => {
    const byFile = await rawQuery<{ f: string; m: string; n: number; hartford: number }>(`
      select f, m, count(*)::int as n, count(*) filter (where town = 'Hartford')::int as hartford from ${CT_ROWS}
      where m is not null group by f, m`);
    const busiest = Math.max(...[...new Set(byFile.map((r) => r.m))].map((m) => byFile.filter((r) => r.m === m).reduce((s, r) => s + r.n, 0)));
    expect(busiest).toBe(5449); // June 2022: 5,441 rows of the 2022 extract and 8 of the head-of-file one
    const hartfordFiles = new Set(byFile.filter((r) => r.hartford > 0).map((r) => r.f));
    expect([...hartfordFiles]).toEqual(['head']); // the 2022 extract holds no Hartford sale
    // covered: a file of Hartford's sales holds a quarter of the busiest month that month (its span covers the months between)
    const covered = (m: string): boolean => byFile.some((r) => hartfordFiles.has(r.f) && r.m === m && r.n >= 0.25 * busiest);
    const { body } = await get<Trends>('/v1/market/trends?city=Hartford&state=CT&months=36');
    expect(body.series).toHaveLength(36);
    for (const s of body.series) expect(s.complete, s.month).toBe(s.complete && covered(s.month));
    expect(body.series.filter((s) => s.complete)).toEqual([]); // 2020-10..2023-09: none (2020-10..2022-02 were complete with 0 sales)
    expect(body.base_month).toBeNull();
    // the answer says the data is a partial extract, in the research answer's words
    expect(body.data_note).toMatch(/^These sales come from a partial extract of their source \(Connecticut OPM real estate sales, 50,945 rows\)/);
    const other = await get<Trends>('/v1/market/trends?zip=98103&months=12');
    expect(other.body.data_note).toBeNull();
  });
});

describe('the 404 of a market no sales source covers', () => {
  test('says no sales source covers it, not that no sales happened', async () => {
    for (const [q, where] of [
      ['trends?zip=60614', 'zip 60614'], ['trends?city=Chicago&state=IL', 'Chicago, IL'], ['trends?city=Louisville&state=KY', 'Louisville, KY'],
      ['trends?city=Pittsburgh&state=PA', 'Pittsburgh, PA'], ['comps?zip=60614', 'zip 60614'], ['trends?zip=73301', 'zip 73301'],
    ] as const) {
      const r = await get<{ message: string }>(`/v1/market/${q}`);
      expect(r.status, q).toBe(404);
      expect(r.body.message, q).toMatch(new RegExp(`^No sales source covers ${where}: `));
      expect(r.body.message, q).not.toMatch(/No sfr sales/);
    }
    // a zip a source covers, without sales of the type in the window asked
    const covered = await get<{ message: string }>('/v1/market/comps?zip=98103&property_type=land&months=3');
    if (covered.status === 404) expect(covered.body.message).toBe('No land sales for zip 98103 in the last 3 months');
  });
});
