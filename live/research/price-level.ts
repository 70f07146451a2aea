// The price level of a zip or a city asked ("median home price in Seattle"), from its trends shard (the monthly
// series GET /v1/market/trends serves) or the research index's windows (sales-facts.ts): the median over the months
// asked, else the latest solid month's median, else recent months pooled when that month is stale. Wording:
// warehouse/docs/research.md "Intents" (price level).
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { missing, money, pct, plural, type Fact, type Source } from './facts.ts';
import { CHANGE_MIN_SAMPLE, isComplete } from '../../warehouse/price-index.ts';
import { byCount, mixedTypeNote, priceRank, TYPE_WORDS, wholeCity, windowMonths, windowPriceFact } from './sales-facts.ts';
import { allResidential, marketKey, windowFigure, WINDOW_MIN_SALES, type Market } from './market-window.ts';
import { monthRuns } from './coverage.ts';
import { windowCover } from './window-gaps.ts';
import type { MonthlySeries } from './year-facts.ts';
import { monthPeriod } from './figure-period.ts';

/** A trends shard (pipelines/shards/trends.sql), the columns read here: 60 months, oldest first. */
export interface StoredTrends { method: string; as_of: string; series: MonthlySeries & { se: (number | null)[]; untyped_count?: number[] } }
export const indexName = (s: StoredTrends): string => (s.method === 'repeat_sales' ? 'repeat-sales index' : 'median-price index');

/** A price level asked ("median home price in Seattle"): over the months asked, the median of the window's sales
 *  (sales-facts.ts windowPriceFact); else the median sale price of the latest complete month (warehouse/price-index.ts
 *  isComplete: not the partial last month of a file) with CHANGE_MIN_SAMPLE sales, else the latest month with a figure
 *  (5 sales), at low confidence and said to be so, else (no month with a median) the recent months pooled (noMonthMedian); then `change`, the index change trendsFact computed over `months` to
 *  the latest solid month `last` (null when the API's rule gives none). The value names its month: places compared
 *  side by side may have figures of different months. */
export function priceLevelFact(data: ResearchData, s: StoredTrends, u: Understanding, t: Target, where: string, src: Source, change: number | null, months: number, last: number, noChange: string | null = null): Fact {
  const c = s.series;
  const counts = c.sales_count.map((n) => n ?? 0);
  const sales = (i: number): number => counts[i]!;
  let at = -1;
  for (let i = c.month.length - 1; i >= 0 && at < 0; i--) if (c.median_price[i] != null && sales(i) >= CHANGE_MIN_SAMPLE && (c.complete?.[i] ?? isComplete(counts, i))) at = i;
  const solid = at >= 0;
  for (let i = c.month.length - 1; i >= 0 && at < 0; i--) if (c.median_price[i] != null) at = i;
  const type = TYPE_WORDS[u.propertyType];
  const monthly = at < 0 ? null : `the latest month with a median was ${c.month[at]}: ${money(c.median_price[at]!)} (${plural(sales(at), 'sale')})`;
  const windowed = windowPriceFact(data, u, t, where, monthly);
  if (windowed) return windowed;
  const method = indexName(s);
  const changed = change === null ? (noChange ? `; ${noChange}` : '') : `; the ${method} changed ${pct(change)} over the ${months} months to ${c.month[last]}`;
  // the latest solid month is stale (recent months with sales, none of 20): the recent months pooled instead
  const pooled = recentPool(data, u, t, where, c, at, solid, changed);
  if (pooled) return pooled;
  if (at < 0) return noMonthMedian(data, u, t, where, c) ?? missing('trends', t, `${where} has no month with 5 or more ${type} sales in the 60 months to ${s.as_of}, too few for a median sale price${untypedWords(data, t, u.propertyType, c.month)}`);
  const month = c.month[at]!;
  // a window asked but no window figures in this build: the month's figure, said to be for that month only
  const notWindow = u.months ? ` (a single month's figure: the ${u.months} months asked are not kept as one figure)` : '';
  const note = mixedTypeNote(data, t, u.propertyType, [month], sales(at));
  return {
    ...priceRank(u, c.median_price[at]!), intent: 'trends', target: t, value: `${money(c.median_price[at]!)} (${month}, ${plural(sales(at), 'sale')})`, period: monthPeriod(data, t, month), ...(note ? { typeNote: note } : {}),
    sentence: `In ${where}, the median ${type} sale price was ${money(c.median_price[at]!)} in ${month} (${plural(sales(at), 'sale')})${notWindow}${note}${changed}${wholeCity(t)}`,
    detail: [solid
      ? `The latest complete month with ${CHANGE_MIN_SAMPLE} or more sales; the monthly series is GET /v1/market/trends.`
      : `No complete month has ${CHANGE_MIN_SAMPLE} or more sales: this is the latest month with a median (5 sales or more), ${month}, at low confidence; the monthly series is GET /v1/market/trends.`],
    source: src, confidence: note ? 'low' : solid ? byCount(sales(at)) : 'low', primary: true, uncertain: null,
    ...(t.zip ? { zip: { zip: t.zip, measure: solid ? c.median_price[at]! : null, group: null, months: null, asOf: month, sales: sales(at) } } : {}),
  };
}


/** A condo or multi-family figure missing of a Connecticut town whose sales of some months come from the 2022 file,
 *  which records no residential subtype: those sales are counted as single-family (all residential), so the type's
 *  sales of those months are not absent but not told apart (review 25: "condo prices in Stamford CT" read as if the
 *  town had no condo sales, its 1,588 residential sales of 2022-01..09 all counted single-family); '' otherwise. */
function untypedWords(data: ResearchData, t: Target, type: string, months: readonly string[]): string {
  if ((type !== 'condo' && type !== 'multi') || t.zip || !t.city) return '';
  const held = months.filter((m) => allResidential(data.market, t, m) > 0);
  if (held.length === 0) return '';
  const n = held.reduce((a, m) => a + allResidential(data.market, t, m), 0);
  return `; but ${plural(n, 'residential sale')} of ${monthRuns(held)} come from Connecticut's 2022 sales file, which does not tell ${TYPE_WORDS[type]} sales from single-family homes: they are counted as single-family (all residential sales), so its ${TYPE_WORDS[type]} sales of those months are among them, not absent`;
}

/** The windows tried when the latest solid month is stale: the recent months pooled, the shortest with 20 sales. */
const POOLS = [3, 6, 12];

/** The windows of POOLS a market's sales may be pooled over (a median of `least` sales or more), shortest first; in a
 *  comparison, first those where every other side with such a window has one too, so sides pooled beside each other
 *  are of the same months (review 25: Hartford, CT pooled over 6 months beside Bridgeport over 3, and ranked). */
function poolWindows(data: ResearchData, u: Understanding, t: Market, least: number): number[] {
  const enough = (x: Market, months: number): boolean => {
    const w = windowFigure(data.market, x, u.propertyType, months);
    return w !== null && w.median !== null && w.sales >= least;
  };
  const own = POOLS.filter((m) => enough(t, m));
  const others = u.targets.filter((x) => marketKey(x) !== marketKey(t) && POOLS.some((m) => enough(x, m)));
  const shared = own.filter((m) => others.every((x) => enough(x, m)));
  return [...shared, ...own.filter((m) => !shared.includes(m))];
}

/** The latest solid month `at` (20 sales, complete; `solid` false: only a month of 5 or more) is before the last few
 *  months, which hold sales but no month of 20 (zip 11375: 2021-10's 23 sales while 2023-09..2024-02 hold 50): the
 *  median of the shortest recent window (3, 6, then 12 months to the market's last sale) with 20 sales, its span and
 *  count said, and that month said after it; null when the month is recent or no window has 20 sales. */
function recentPool(data: ResearchData, u: Understanding, t: Target, where: string, c: MonthlySeries, at: number, solid: boolean, changed: string): Fact | null {
  for (const months of poolWindows(data, u, t, CHANGE_MIN_SAMPLE)) {
    const w = windowFigure(data.market, t, u.propertyType, months)!;
    // a solid month inside the window (from its first whole month) is recent enough: the month stays the answer
    const first = windowMonths(w.asOf, months)[1]!;
    if (at >= 0 && solid && c.month[at]! >= first) return null;
    const f = windowPriceFact(data, { ...u, months }, t, where, null)!;
    // the stale month said after, when it lies before the window (a partial month inside it is among the pooled sales:
    // Sacramento's 2008-05, 36 sales of zip 95757, said again as "the latest month with a median" before)
    // months held in part only (a thin extract's: Connecticut's 2022-10..2023-09) have no median in the trends: said
    const part = windowCover(data, t, windowMonths(w.asOf, months), w.asOf).part;
    const noMonthly = part.length ? `; GET /v1/market/trends gives ${part.length === 1 ? `${part[0]} no median of its own, as it is` : `${monthRuns(part)} no monthly median, as each is`} held in part only, its sales not comparable with a whole month's: pooled, they give this one figure, to be compared only with figures pooled over the same months` : '';
    const stale = at >= 0 && c.month[at]! < first ? ` (the latest ${solid ? `month with ${CHANGE_MIN_SAMPLE} or more sales` : 'month with a median'} was ${c.month[at]}: ${money(c.median_price[at]!)}, ${plural(c.sales_count[at] ?? 0, 'sale')})` : '';
    return {
      ...f, sentence: `${f.sentence.replace(`In ${where}, `, `In ${where}, no complete month of the last ${months} has ${CHANGE_MIN_SAMPLE} ${TYPE_WORDS[u.propertyType]} sales, so they are pooled: `)}${stale}${noMonthly}${changed}`,
      detail: [`No recent month has ${CHANGE_MIN_SAMPLE} or more sales: the recent months are pooled (the shortest of 3, 6 and 12 months with ${CHANGE_MIN_SAMPLE}) rather than an older month's figure; the monthly series is GET /v1/market/trends.`],
    };
  }
  return null;
}

/** No month of the series keeps a median (each month under 5 sales, or recorded in part only: zip 95825's 8 sales of
 *  2008-05, a month Sacramento's file ends inside): the median of the recent months' sales pooled (the shortest of
 *  POOLS with 5 sales: the sales the sales count answers with, sales-facts.ts), its basis said; null when none has 5. */
function noMonthMedian(data: ResearchData, u: Understanding, t: Target, where: string, c: MonthlySeries): Fact | null {
  // the shortest of the pooled windows with a median (recentPool's), so a city pooled beside it is of the same months
  const months = poolWindows(data, u, t, WINDOW_MIN_SALES)[0];
  const f = months ? windowPriceFact(data, { ...u, months }, t, where, null) : null;
  if (!f) return null;
  const part = c.month.filter((_, i) => (c.sales_count[i] ?? 0) > 0 && c.median_price[i] == null);
  const why = part.length ? `${monthRuns(part)} ${part.length === 1 ? 'holds' : 'hold'} its sales but ${part.length === 1 ? 'is' : 'are'} recorded in part only, a source file starting or ending inside: a count with no median` : `each month holds fewer than 5 ${TYPE_WORDS[u.propertyType]} sales`;
  return {
    // a county's or city's zips are ranged by figures of 20 sales (city-summary.ts levelKinds): none of these there
    ...f, confidence: 'low', ...(f.zip ? { zip: { ...f.zip, measure: null } } : {}),
    sentence: `No month of ${where} has a median sale price of its own (${why}), so the sales of the last ${months} months are pooled: ${f.sentence.replace(/^In /, 'in ')}`,
    detail: ['A month\'s median needs 5 or more sales in a month recorded whole; with none, the median of the window\'s sales pooled (the figure "how many sales" gives); the monthly series is GET /v1/market/trends.'],
  };
}
