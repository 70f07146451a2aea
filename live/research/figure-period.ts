// The period a compared figure is of, carried on its fact (Fact.period) from where the figure is made, so a comparison
// ranks figures like for like (like-for-like.ts) by the months they are of and how the source files cover those
// months, never by reading them back out of the value's words (before session 26, a regex over "(3 months to 2022-09)").
// Rules: warehouse/docs/research.md "Comparisons" (Like for like).
import type { ResearchData } from './data.ts';
import { monthCover } from './coverage.ts';
import { windowCover } from './window-gaps.ts';
import type { Market } from './market-window.ts';
import type { FigurePeriod } from './facts.ts';

/** A month's figure: its cover by the market's trends flags (`whole` where unknown). */
export const monthPeriod = (data: ResearchData, m: Market, month: string): FigurePeriod =>
  ({ kind: 'month', end: month, cover: monthCover(data, m, month) === 'part' ? 'part' : 'whole' });

/** A price index change: its two ends are complete months, so covered whole. */
export const changePeriod = (months: number, end: string): FigurePeriod => ({ kind: 'change', months, end, cover: 'whole' });

/** A window's figure of `months` months to `asOf`, which touches the months `touched` (sales-facts.ts windowMonths). */
export function windowPeriod(data: ResearchData, m: Market, months: number, asOf: string, touched: readonly string[]): Extract<FigurePeriod, { kind: 'window' }> {
  const c = windowCover(data, m, touched, asOf);
  // a first month the window holds under half of is no part of its kind (review 25: Fairfield, CT's 12 months to
  // 2023-09-29 hold 2022-09-30 of the 2022 file, a whole month's, beside 12 months of the thin extract: Milford's kind)
  const [y, n] = touched[0]!.split('-').map(Number) as [number, number];
  const len = new Date(Date.UTC(y, n, 0)).getUTCDate();
  const sliver = len - Math.min(Number(asOf.slice(8, 10)), len) < len / 2 ? touched[0] : null;
  const part = c.part.filter((x) => x !== sliver), whole = c.whole.filter((x) => x !== sliver);
  return { kind: 'window', months, end: asOf.slice(0, 7), asOf, cover: part.length === 0 ? 'whole' : whole.length === 0 ? 'part' : 'mixed' };
}

/** A count of filings over a window of `months` months to `asOf` (the filings' own end), counting `counts` (the filing
 *  kinds its records hold, said: investor-bits.ts filingKinds): its months are the filings', no sales file's. */
export const filingsPeriod = (months: number, asOf: string, counts: string): FigurePeriod =>
  ({ kind: 'window', months, end: asOf.slice(0, 7), asOf, cover: 'whole', counts });

/** The period said ("2022-09", "the 3 months to 2022-09", "the 6 months to 2023-09-29") and the key of figures of one
 *  period (windows of one length ending in one month are one, each at its market's latest sale). */
export const periodSaid = (p: FigurePeriod): string => (p.kind === 'month' ? p.end : `the ${p.months} months to ${p.kind === 'window' ? p.asOf : p.end}`);
export const periodKey = (p: FigurePeriod): string => (p.kind === 'month' ? p.end : `${p.months}|${p.end}`);
