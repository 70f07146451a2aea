// The months a market's data holds, for a period asked with no month of 5 or more sales (year-facts.ts,
// month-facts.ts): the months its sources' files cover up to its latest sale (coverage.ts), or, when that is not
// known, its first month with a count to the month of its latest sale. Before, the range said was only
// the months with 5 or more sales, so months of 1-4 sales read as outside the data (11215's 25 sales of 2023: "run
// from 2021-05 to 2021-12, so 2023 is outside the data"). Rules: warehouse/docs/research.md "Years".
import type { Target } from './places.ts';
import { marketSpans, monthCover, spanWords, type SourceSpan } from './coverage.ts';
import { marketKey, type MarketWindows } from './market-window.ts';

interface ResearchData { market: MarketWindows | null; spans: ReadonlyMap<string, SourceSpan> }

/** `holds(m)`: the data holds month m (YYYY-MM); `words`: that range said. */
export function dataMonths(data: ResearchData, t: Target, c: { month: string[]; sales_count: (number | null)[] }, asOf: string, where: string, noun: string): { holds: (m: string) => boolean; words: string } {
  const end = asOf.slice(0, 7);
  // the months the source files cover, whole or in part (coverage.ts: the trends' flags, else the vintages)
  if (data.market?.covered?.[marketKey(t)] || marketSpans(data, t).length) {
    return { holds: (m) => m <= end && (monthCover(data, t, m) ?? 'none') !== 'none', words: spanWords(data, t) };
  }
  const first = c.month.find((_, i) => (c.sales_count[i] ?? 0) > 0);
  if (!first) return { holds: () => false, words: `we keep no monthly ${noun} sales for ${where}` };
  return { holds: (m) => m >= first && m <= end, words: `the monthly ${noun} sales we keep for ${where} run from ${first} (its first month with 5 or more sales) to ${end} (its latest sale, ${asOf})` };
}
