// Sales of one calendar month asked ("median sale price in Seattle in March 2015", "how many sales in Queens in March
// 2022"), from the same monthly series the price answers read (the trends shard: each month's arm's-length sales and
// their median): that month's count and median, or why there is none: no file of the market's sources covers it
// (coverage.ts), it had fewer than 5 sales (the series keeps no figure then), or it is outside the data's months.
// Wording: warehouse/docs/research.md "Years".
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { money, plural, type Fact, type Source } from './facts.ts';
import { mixedTypeNote, priceRank, TYPE_WORDS, wholeCity, byCount } from './sales-facts.ts';
import { RANK, ranks } from './ranks.ts';
import type { ResearchData } from './data.ts';
import type { MonthlySeries } from './year-facts.ts';
import { monthCover, spanWords, uncoveredMonths } from './coverage.ts';
import { dataMonths } from './data-range.ts';
import { monthPeriod } from './figure-period.ts';

/** A month the source's files cover whole (its first and last sale days span it: `covered`) but whose source recorded
 *  under half the sales of the months around it in all (the trends' `complete` false: price-index.ts partialMonths,
 *  Denver's 2019-06, 453 rows of the raw file beside 1,632 in 2019-05: a file cut by recording date, 2019-07-10, before
 *  the month's deeds were in); no price change starts or ends there (market.md). Said as a partial month: before, "the
 *  source's files span the whole month" led, which read as a whole month. A market's own winter dip (King County's
 *  January 2015 in zip 98103, 17 sales) is complete and says nothing. */
export const THIN_MONTH = ' (the source recorded under half as many sales in all that month as in the months around it, though its files hold sales dated past both ends of it, as when a file is cut by recording date before the month\'s sales are all recorded; so the count is short of the month\'s sales, and no price change is measured from it)'

/** The fact of the month asked (u.years.month), from a market's monthly series. */
export function monthFact(data: ResearchData, u: Understanding, t: Target, where: string, c: MonthlySeries, src: Source, asOf: string): Fact {
  const y = u.years!;
  const month = y.month!;
  const noun = TYPE_WORDS[u.propertyType]!;
  const i = c.month.indexOf(month);
  const n = i >= 0 ? c.sales_count[i] ?? 0 : 0;
  const none = (why: string): Fact => ({
    intent: 'trends', target: t, value: `no figure for ${month}`, sentence: `I don't have ${noun} sales for ${where} in ${y.label}: ${why}${wholeCity(t)}`,
    detail: [], source: null, confidence: 'low', primary: true, uncertain: null,
  });
  if (n === 0) {
    if (uncoveredMonths(data, t, [month]).length) return none(`no file of the source covers that month, so the data has no sales for it at all (${spanWords(data, t)})`);
    // a month the files cover in part only (the trends' `covered` false: coverage.ts) is said so, as the trends say it
    if (monthCover(data, t, month) === 'part') return none(`${month} is not covered by the source files (${spanWords(data, t)}): they hold part of the month only, and fewer than 5 arm's-length ${noun} sales of it`);
    // the data's months are its source's, not those with 5 or more sales (data-range.ts)
    const held = dataMonths(data, t, c, asOf, where, noun);
    if (i < 0 || !held.holds(month)) return none(`${held.words}, so ${month} is outside the data`);
    // inside the data's months: a month of 1-4 sales has no count or median in the series (market.md "Minimum cohort 5")
    return none(`the month had fewer than 5 arm's-length ${noun} sales (the monthly series keeps no count or median for so few); ${held.words}`);
  }
  const median = c.median_price[i];
  // a month the files cover in part only has no median in the build (market.md "A month covered in part")
  const partial = c.covered?.[i] === false ? ' (the month is recorded in part only: a source file starts or ends inside it, or holds a sliver of its sales; this counts the sales recorded, and a part-month has no median, not being comparable with whole months)'
    : c.complete?.[i] === false ? THIN_MONTH : '';
  const note = mixedTypeNote(data, t, u.propertyType, [month], n);
  return {
    // a count asked ranks by the count, else the median when the month has one
    ...(u.asks.includes('sales_count') || median == null ? ranks(u, n, n.toLocaleString('en-US'), RANK.sales) : priceRank(u, median)), intent: 'trends', target: t, value: `${median != null ? `${money(median)} (${month}, ${plural(n, 'sale')})` : `${plural(n, 'sale')} (${month})`}`,
    ...(median != null ? { period: monthPeriod(data, t, month) } : {}), ...(note ? { typeNote: note } : {}),
    // a month recorded in part is said first, so its count is not read as the month's (h61sales F14)
    sentence: `In ${where}, ${partial ? `${y.label} is a partial month in this data: ${plural(n, `arm's-length ${noun} sale`)} recorded in it` : `in ${y.label} there were ${plural(n, `arm's-length ${noun} sale`)}`}${median != null ? `, at a median sale price of ${money(median)}` : ''}${partial}${note}${wholeCity(t)}`,
    detail: ['The month\'s own arm\'s-length sales (a median needs 5 or more); the monthly series is GET /v1/market/trends.'],
    source: { ...src, citation: `${src.citation.replace(/, as of .*$/, '')}, ${month}, as of ${asOf}` },
    confidence: note || partial ? 'low' : byCount(n), primary: true, uncertain: null,
  };
}
