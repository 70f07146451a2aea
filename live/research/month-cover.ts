// The months a market's source files do not cover (the trends mart's coveredMonths, 30_mart_market_trends.ts, kept
// in the trends shard's `covered`), for GET /v1/market/trends and the research answer: such a month holds no count of
// the market's sales, so it is never "0 sales" and a change from it is said to be null because of it. Review 16: NYC's
// 2022-04..2023-02 (the gap between its two rolling-sales files) read `sample_count: 0` and "2023-02 had 0 sales";
// Connecticut's 2021-09 (before the 2022 file's 2022-01-01, where the 2001-2022 head-of-file extract holds a few
// stray rows a month) "0 sales" in New Canaan, "1 sale" in Stamford.
import { coveredWords } from './coverage.ts';
import { marketKey, type Market, type MarketWindows } from './market-window.ts';
import type { SourceSpan } from './coverage.ts';

/** A market's series coverage: the trends shard's `covered`, else (a build before it) the months inside a
 *  month-precise vintage of one of its `sources` (coverage.ts: NYC's two files), else every month (unknown). */
export function coveredOf(c: { month: readonly string[]; covered?: readonly boolean[] }, sources: readonly string[] = [], spans: ReadonlyMap<string, SourceSpan> = new Map()): readonly boolean[] {
  if (c.covered) return c.covered;
  const list = sources.map((id) => spans.get(id));
  if (list.length === 0 || list.some((x) => x === undefined)) return c.month.map(() => true);
  return c.month.map((m) => list.some((x) => x!.ranges.some(([from, to]) => m >= from && m <= to)));
}

/** The research answer's: a market's series coverage by its sources in market.json (coveredOf). */
export const seriesCovered = (data: { market: MarketWindows | null; spans: ReadonlyMap<string, SourceSpan> }, m: Market, c: { month: readonly string[]; covered?: readonly boolean[] }): readonly boolean[] =>
  coveredOf(c, data.market?.sources?.[marketKey(m)] ?? [], data.spans);

/** "2023-02 is not covered by the source files (the source files cover ...): no sale of it is recorded, which is not
 *  0 sales": why month i gives no figure, with the `n` sales the files hold of it. */
export const notCoveredWords = (months: readonly string[], covered: readonly boolean[], i: number, n: number): string =>
  `${months[i]} is not covered by the source files (${coveredWords(months, covered)}): ${n === 0 ? 'no sale of it is recorded, which is not a count of 0 sales' : `the ${n === 1 ? '1 sale' : `${n.toLocaleString('en-US')} sales`} recorded in it ${n === 1 ? 'is' : 'are'} not the month's count`}`;

/** The trends summary's note for each null change whose start month the source files do not cover, or null. */
export function coverNote(summary: Record<string, unknown>, months: readonly string[], covered: readonly boolean[]): string | null {
  const end = summary['change_end_month'];
  const e = typeof end === 'string' ? months.indexOf(end) : -1;
  if (e < 0) return null;
  const notes = [3, 12, 24].filter((back) => summary[`change_${back}m_pct`] === null && e - back >= 0 && covered[e - back] === false)
    .map((back) => `change_${back}m_pct is null: ${months[e - back]}, the month it compares with ${end}, is not covered by the source files (${coveredWords(months, covered)})`);
  return notes.length ? notes.join('; ') : null;
}
