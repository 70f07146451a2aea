// Months inside a window of sales that no file of the market's sources covers (coverage.ts): said with the window's
// count and median ("in the 24 months to 2024-02-29" of Queens holds sales of 13 months only: New York City's rolling
// sales have no file for 2022-04..2023-02), never left for the reader to take as 24 months of sales. Months covered in
// part only are said so too, and the months the sales fall in are never called covered when none is whole (review 25:
// Greenwich's "these sales fall in the 12 months of it the source covers", all 12 held in part only by a thin extract).
// Rules: warehouse/docs/research.md "Years".
import type { ResearchData } from './data.ts';
import type { Market } from './market-window.ts';
import { monthCover, monthRuns as runsOf, spanWords } from './coverage.ts';
import { plural } from './facts.ts';

/** A window's months by how the market's source files cover them: `none` not at all, `part` in part only, `whole`
 *  the rest (and every month where the coverage is unknown). */
export interface WindowCover { none: string[]; part: string[]; whole: string[] }

/** `touched`: the months (YYYY-MM, oldest first) a window of sales after `asOf` less its months and up to `asOf`
 *  touches (sales-facts.ts windowMonths; the build's window rule); the oldest is inside it only when that start day,
 *  its day clamped to its month's length (2024-02-29 less 24 months: 2022-02-28), is before its month's last day.
 *  The window's own last month, covered in part only, counts as whole after a whole month: the window ends at the
 *  place's latest sale, on or before its file's end, so a file ending inside that month (King County's 2015-05, to
 *  2015-05-27) leaves no day of the window uncovered; after a month not whole it is a thin extract's (Connecticut's
 *  2023-09) or a file of days (Sacramento's 2008-05), and in part only. */
export function windowCover(data: ResearchData, m: Market, touched: readonly string[], asOf: string): WindowCover {
  const d = Number(asOf.slice(8, 10));
  const [sy, sm] = touched[0]!.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(sy, sm, 0)).getUTCDate();
  const months = Math.min(d, last) >= last ? touched.slice(1) : touched;
  const cover = months.map((x) => monthCover(data, m, x));
  const end = asOf.slice(0, 7);
  const part = (i: number): boolean => cover[i] === 'part' && (months[i] !== end || (i > 0 && cover[i - 1] !== 'whole'));
  return {
    none: months.filter((_, i) => cover[i] === 'none'),
    part: months.filter((_, i) => part(i)),
    whole: months.filter((_, i) => cover[i] !== 'none' && !part(i)),
  };
}

/** The window's months the source files do not cover, or cover in part only, said in the trends' words ("2008-05 in
 *  part only", review 23), so a count is never read as one of whole months; "" when every month is covered whole or
 *  the spans are unknown. */
export function windowGap(data: ResearchData, m: Market, touched: readonly string[], asOf: string): string {
  const { none, part, whole } = windowCover(data, m, touched, asOf);
  // more than two runs counted, with their first and last (review 25: Danbury, CT's 24 months named 7 runs of months
  // none covers, the head-of-file extract's stray rows between them), as the coverage words do (extractCoverWords)
  const monthRuns = (list: readonly string[]): string => {
    const runs = runsOf(list);
    return runs.split(' and ').length <= 2 ? runs : `${list.length} months between ${list[0]} and ${list.at(-1)}`;
  };
  if (none.length === 0 && part.length === 0) return '';
  const partWords = `${monthRuns(part)} in part only`;
  if (none.length === 0) return whole.length ? ` (the source covers ${partWords}, inside this window: ${spanWords(data, m, part)})`
    : ` (the source covers every month this window touches, ${monthRuns(part)}, in part only, none whole: ${spanWords(data, m, part)})`;
  // the months it covers in part only said by the coverage words, which end with them ("; 2015-05 in part only")
  if (part.length === 0) return ` (the source covers none of ${monthRuns(none)}, inside this window, so these sales fall in the ${plural(whole.length, 'month')} of it the source covers: ${spanWords(data, m)})`;
  const held = whole.length === 0
    ? `so these sales fall in ${part.length === 1 ? `${part[0]}, a month it covers in part only` : `the ${part.length} months of it the source covers in part only, none whole (${monthRuns(part)})`}`
    : `so these sales fall in the ${plural(whole.length + part.length, 'month')} of it the source covers, ${monthRuns(part)} in part only`;
  return ` (the source covers none of ${monthRuns(none)}, inside this window, ${held}: ${spanWords(data, m, part)})`;
}
