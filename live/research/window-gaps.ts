// Months inside a window of sales that no file of the market's sources covers (coverage.ts): said with the window's
// count and median ("in the 24 months to 2024-02-29" of Queens holds sales of 13 months only: New York City's rolling
// sales have no file for 2022-04..2023-02), never left for the reader to take as 24 months of sales. Rules:
// warehouse/docs/research.md "Years".
import type { ResearchData } from './data.ts';
import type { Market } from './market-window.ts';
import { monthCover, monthRuns, spanWords, uncoveredMonths } from './coverage.ts';
import { plural } from './facts.ts';

/** `touched`: the months (YYYY-MM, oldest first) a window of sales after `asOf` less its months and up to `asOf`
 *  touches (sales-facts.ts windowMonths; the build's window rule); the oldest is inside it only when that start day,
 *  its day clamped to its month's length (2024-02-29 less 24 months: 2022-02-28), is before its month's last day.
 *  The months before its last the files cover in part only (a file starting inside them: Sacramento's 2008-05) are
 *  named in the trends' words ("2008-05 in part only", review 23), so a count is never read as one of whole months. "" when every month is covered whole or the spans are unknown. */
export function windowGap(data: ResearchData, m: Market, touched: readonly string[], asOf: string): string {
  const d = Number(asOf.slice(8, 10));
  const [sy, sm] = touched[0]!.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(sy, sm, 0)).getUTCDate();
  const months = Math.min(d, last) >= last ? touched.slice(1) : touched;
  const out = uncoveredMonths(data, m, months);
  // the window's own last month is not said: the window ends at the place's latest sale, on or before its file's end,
  // so a file ending inside that month (King County's 2015-05, to 2015-05-27) leaves no day of the window uncovered
  const part = months.filter((x) => x !== asOf.slice(0, 7) && monthCover(data, m, x) === 'part');
  if (out.length === 0 && part.length === 0) return '';
  const partWords = part.length ? `${monthRuns(part)} in part only` : '';
  if (out.length === 0) return ` (the source covers ${partWords}, inside this window: ${spanWords(data, m, part)})`;
  // the months it covers in part only said by the coverage words, which end with them ("; 2015-05 in part only")
  return ` (the source covers none of ${monthRuns(out)}, inside this window, so these sales fall in the ${plural(months.length - out.length, 'month')} of it the source covers: ${spanWords(data, m)})`;
}
