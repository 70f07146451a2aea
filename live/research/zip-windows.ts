// Zips of a city, borough or county ranked by their sales with no calendar period asked ("which Bronx zips had the most
// sales over the last 6 months", "top 5 zips in Sacramento by number of sales"): each zip's own window of the months
// asked (3-24, else 12) to its latest arm's-length sale, from the research index's market windows (market.json: every
// arm's-length sale of the window pooled, as GET /v1/market/comps counts them), never the sum of its monthly counts, which
// keep none for a month of 1-4 sales (the trends' minimum cohort). Before (h61sales F3), "the last 6 months" was ranked
// over 12 and each zip's months of 1-4 sales were left out of its count (the Bronx's 10471, 11 sales in its 6 months,
// was not listed). Wording: warehouse/docs/research.md "Years".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { plural, type Fact } from './facts.ts';
import { windowFigure, WINDOW_MIN_SALES } from './market-window.ts';
import { topAsked } from './asked.ts';

/** The ranking of `zips` by their arm's-length sales of the type asked over their own windows; null when the build
 *  keeps no market windows (the monthly ranking answers then). */
export function zipWindowCountFact(data: ResearchData, u: Understanding, t: Target, zips: readonly string[], where: string, noun: string, typeNote: string): Fact | null {
  const months = u.months && u.months >= 3 && u.months <= 24 ? u.months : 12;
  if (!data.market) return null;
  const rows: { zip: string; sales: number; asOf: string }[] = [];
  let few = 0;
  for (const zip of zips) {
    const w = windowFigure(data.market, { zip, state: t.state }, u.propertyType, months);
    if (!w || w.sales === 0) continue;
    if (w.sales < WINDOW_MIN_SALES) { few++; continue; } // 1-4: said "fewer than 5", never ranked (minimum cohort)
    rows.push({ zip, sales: w.sales, asOf: w.asOf });
  }
  if (rows.length === 0) return { intent: 'trends', target: t, value: null, sentence: `No zip of ${where} had 5 or more arm's-length ${noun} sales in the ${months} months to its latest sale${few ? ` (${plural(few, 'zip')} had fewer than 5)` : ''}`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
  const low = /\b(fewest|least|lowest|bottom|fewer)\b/.test(u.query.toLowerCase());
  rows.sort((a, b) => (low ? a.sales - b.sales : b.sales - a.sales) || a.zip.localeCompare(b.zip));
  const shown = rows.slice(0, Math.min(rows.length, topAsked(u.query.toLowerCase()) ?? 5));
  const ends = [...new Set(rows.map((r) => r.asOf))].sort();
  // each zip's end said beside it when the ends fall in different months
  const apart = ends[0]!.slice(0, 7) !== ends.at(-1)!.slice(0, 7);
  const endWords = ends.length === 1 ? ends[0]! : `${ends[0]} to ${ends.at(-1)}`;
  const city = (z: string): string => { const c = data.zips.get(z)?.city; return c && c !== t.city && c !== t.area?.name ? ` (${c})` : ''; };
  const list = shown.map((r, i) => `${i + 1}. zip ${r.zip}${city(r.zip)} ${plural(r.sales, 'sale')}${apart ? ` (to ${r.asOf})` : ''}`).join('; ');
  const fewWords = few ? `; ${plural(few, 'more zip')} had sales in ${few === 1 ? 'its window' : 'their windows'} but fewer than 5, too few to be said, so ${few === 1 ? 'it is' : 'they are'} not ranked` : '';
  return {
    intent: 'trends', target: t, value: `zip ${shown[0]!.zip} ${plural(shown[0]!.sales, 'sale')}`,
    sentence: `In ${where}, by arm's-length ${noun} sales in the ${months} months to each zip's own latest sale (${endWords}), every sale of the window counted${typeNote}, the ${low ? 'fewest' : 'most'} of ${plural(rows.length, 'zip')} with 5 or more: ${list}${fewWords}`,
    detail: ['Each zip\'s window ends at its latest arm\'s-length sale (its comps window, GET /v1/market/comps); a count of 1-4 sales is not said (minimum cohort).'],
    source: { type: 'trends', category: 'market', citation: `reii warehouse: arm's-length ${u.propertyType} sales per zip of ${where}, ${months} months to each zip's latest sale (${endWords}), as of ${ends.at(-1)}` },
    confidence: shown[0]!.sales >= 20 ? 'medium' : 'low', primary: true, uncertain: null,
  };
}

/** Why a calendar period's zip ranking by count is the sum of each zip's months of 5 or more sales, not every sale of
 *  the period (h63ask: "which Bronx zips had the most sales since September 2023" named its left-out months but not why
 *  they could not be counted): the research index keeps a zip's sales per calendar month only with 5 or more (the
 *  trends' minimum cohort) and every sale only over windows of 3-24 months ending at the zip's latest sale, day to day,
 *  so no window is the period. `months`: the months asked the source covers; `asOf`: the latest sale of the zips. */
export function calendarCountWhy(months: readonly string[], asOf: string): string {
  const last = months.at(-1), first = months[0];
  const base = '; every sale of a calendar period cannot be counted from the research index: it keeps a zip\'s count per calendar month only where the month has 5 or more sales (the trends\' minimum cohort), and counts every sale only over windows of 3 to 24 months ending at each zip\'s latest sale, day to day';
  if (!first || !last || last !== asOf.slice(0, 7)) return `${base}, none of which is this period, so each count above is its months of 5 or more sales only`;
  const n = (Number(last.slice(0, 4)) - Number(first.slice(0, 4))) * 12 + Number(last.slice(5, 7)) - Number(first.slice(5, 7)) + 1;
  if (n < 3 || n > 24) return `${base}, none of which is this period, so each count above is its months of 5 or more sales only`;
  // DuckDB's date - N months (the build's window bound, exclusive) keeps the day, clamped to the month's last
  const [y, m, d] = asOf.split('-').map(Number) as [number, number, number];
  const k = y * 12 + (m - 1) - n, by = Math.floor(k / 12), bm = k % 12;
  const bound = new Date(Date.UTC(by, bm, Math.min(d, new Date(Date.UTC(by, bm + 1, 0)).getUTCDate())));
  const start = new Date(bound.getTime() + 86_400_000).toISOString().slice(0, 10);
  return `${base} (the ${n} months to ${asOf} run from ${start}, not ${first}-01), so each count above is its months of 5 or more sales only; ask for "the last ${n} months" for every sale of each zip's window`;
}
