// The trends summary's changes (`change_3m_pct`, `change_12m_pct`, `change_24m_pct`, `change_end_month`) recomputed from
// the RAW sales files of King County, Sacramento, NYC and Philadelphia by warehouse/docs/market.md "mart_trends", written
// out again without the build's marts, shards or warehouse/price-index.ts: a zip's monthly arm's-length sales of a type
// (RAW_MARKET_SALES, portfolio deeds out) with their median price; a month is complete when the source's files cover it
// whole and it is no partial month of the source (oracle-complete-month.ts); the change ends on the latest complete
// month with 20 or more sales and compares with the month n before it, complete with 20 sales too, as the ratio of
// their median prices (`100 x (exp(ln m_end - ln m_start) - 1)`, the median model). Used by test/api/h75-trends-changes-raw.test.ts.
import { RAW_MARKET_SALES, rawQuery } from './oracle-raw-comps.ts';
import { coveredMonth, rawPartialMonths, type Span } from './oracle-complete-month.ts';
import { dayOf, rawCoverageInputs } from './oracle-raw-coverage.ts';

/** One zip's month of one type from the raw files: arm's-length sales and their median price. */
export interface RawZipMonth { src: string; zip: string; type: string; month: string; n: number; median: number }

/** Every zip-type-month of the four sources, by `src|zip|type` -> month -> the raw month; and the cities of NYC and
 *  Philadelphia (`zip` then `city/NY/<borough slug>`, `city/NY/new-york`, `city/PA/philadelphia`: an NYC sale counts in
 *  its borough and in the city, market.md "int_market_city_parts"). */
export async function rawZipMonths(): Promise<Map<string, Map<string, RawZipMonth>>> {
  const rows = await rawQuery<RawZipMonth>(`${RAW_MARKET_SALES},
    arms as (select src, type, strftime(d, '%Y-%m') as month, price,
                    case when src = 'nyc' then 'city/NY/' || case split_part(block, '-', 1) when '1' then 'manhattan' when '2' then 'bronx'
                      when '3' then 'brooklyn' when '4' then 'queens' when '5' then 'staten-island' end end as borough,
                    case src when 'nyc' then 'city/NY/new-york' when 'philadelphia' then 'city/PA/philadelphia' end as city, zip
             from market where not portfolio and type is not null and d is not null)
    select src, zip, type, month, count(*)::int as n, median(price)::double as median from arms where zip is not null group by all
    union all select src, borough, type, month, count(*)::int, median(price)::double from arms where borough is not null group by all
    union all select src, city, type, month, count(*)::int, median(price)::double from arms where city is not null group by all`);
  const out = new Map<string, Map<string, RawZipMonth>>();
  for (const r of rows) {
    const k = `${r.src}|${r.zip}|${r.type}`;
    (out.get(k) ?? out.set(k, new Map()).get(k)!).set(r.month, r);
  }
  return out;
}

/** The changes of one series by the documented rule, and why each null one is null. */
export interface RawChanges {
  end: string | null;
  pct: Record<3 | 12 | 24, number | null>;
  /** per null change, the first reason the answer gives: `before` (the start is before the grid), `uncovered` (the
   *  files do not cover the start month whole), `thin` (under 20 sales: `n`), `partial` (a partial month of the source) */
  why: Record<3 | 12 | 24, { kind: 'before' | 'uncovered' | 'thin' | 'partial' | 'none'; month?: string; n?: number } | null>;
}

/** market.md "Rounding in the answers": half away from zero to `d` decimals. */
export const roundTo = (x: number, d: number): number => Math.sign(x) * Math.round(Math.abs(x) * 10 ** d) / 10 ** d;

/**
 * The changes over the series' months `grid` (the 60 months the answer lists) of a zip-type's raw months, the source's
 * partial months and its files' spans. Both ends: 20 or more sales (CHANGE_MIN_SAMPLE), complete.
 */
export function rawChanges(grid: readonly string[], months: ReadonlyMap<string, RawZipMonth>, partial: ReadonlySet<string>, spans: readonly Span[]): RawChanges {
  const n = (i: number): number => months.get(grid[i]!)?.n ?? 0;
  const complete = (i: number): boolean => coveredMonth(grid[i]!, spans) && !partial.has(grid[i]!);
  const solid = (i: number): boolean => n(i) >= 20 && complete(i);
  let e = -1;
  for (let i = grid.length - 1; i >= 0; i--) if (solid(i)) { e = i; break; }
  const pct = { 3: null, 12: null, 24: null } as RawChanges['pct'];
  const why = { 3: null, 12: null, 24: null } as RawChanges['why'];
  for (const back of [3, 12, 24] as const) {
    if (e < 0) { why[back] = { kind: 'none' }; continue; }
    const s = e - back;
    if (s < 0) why[back] = { kind: 'before' };
    else if (!coveredMonth(grid[s]!, spans)) why[back] = { kind: 'uncovered', month: grid[s] };
    else if (n(s) < 20) why[back] = { kind: 'thin', month: grid[s], n: n(s) };
    else if (!complete(s)) why[back] = { kind: 'partial', month: grid[s] };
    else pct[back] = 100 * (months.get(grid[e]!)!.median / months.get(grid[s]!)!.median - 1);
  }
  return { end: e < 0 ? null : grid[e]!, pct, why };
}

/** The raw inputs of rawChanges for every zip of the four sources, read once. */
export async function rawChangeInputs(): Promise<{ months: Map<string, Map<string, RawZipMonth>>; partial: Map<string, Set<string>>; spans: Map<string, Span[]> }> {
  const [months, partial, cover] = await Promise.all([rawZipMonths(), rawPartialMonths(), rawCoverageInputs()]);
  // the days the files cover with full volume (market.md "Coverage of a window", the one rule of the trends too), as spans
  const spans = new Map([...cover.covered].map(([src, files]) => [src, files.flat().map(([a, b]) => ({ first: dayOf(a), last: dayOf(b) }))]));
  return { months, partial, spans };
}
