// Sale prices of calendar years asked ("NYC condo prices in 2022", "price trend in Sacramento since 2020"), from the
// same monthly series the price answers read (the trends shard: each month's arm's-length sales and their median):
// the months of those years the data holds, their sales and their monthly medians, or, when the data holds none of
// them, that the years are outside its range (with the range). One year asked also gets the median of all of its sales
// together (market.json `years`: yearWhole); a span of months or several years, only the monthly medians. Wording:
// warehouse/docs/research.md "Years".
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { townFileGap, untypedFileYears } from './town-file-gap.ts';
import { money, pct, plural, type Fact, type Source } from './facts.ts';
import { CHANGE_MIN_SAMPLE } from '../../warehouse/price-index.ts';
import { mixedTypeNote, TYPE_WORDS, wholeCity } from './sales-facts.ts';
import type { ResearchData } from './data.ts';
import type { Years } from './years.ts';
import { salesSaid, windowFigure, yearFigure } from './market-window.ts';
import { monthRuns, spanWords, uncoveredMonths } from './coverage.ts';
import { RANK, ranks } from './ranks.ts';
import { periodVerb, periodWhen, resolveLast } from './periods.ts';
import { monthByMonth } from './month-by-month.ts';
import { dataMonths } from './data-range.ts';

/** The monthly series of a trends shard, the columns read here (oldest first). */
export interface MonthlySeries { month: string[]; median_price: (number | null)[]; sales_count: (number | null)[]; level: (number | null)[]; index_sample_count: number[]; complete?: boolean[]; covered?: boolean[] }

/** The years asked as a range of months (YYYY-MM), `to` open for "since"; a span of named months, those months. */
export const inYears = (m: string, y: Years): boolean => (y.months ? m >= y.months[0] && m <= y.months[1]
  : Number(m.slice(0, 4)) >= y.from && (y.to === null || Number(m.slice(0, 4)) <= y.to) && (!y.since || m >= y.since));
/** How many months the years (or the span of months) asked hold. */
const monthsAsked = (y: Years, last: string): number => {
  if (y.months) { const [a, b] = y.months.map((m) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7))) as [number, number]; return b - a + 1; }
  if (y.since) return Number(last.slice(0, 4)) * 12 + Number(last.slice(5, 7)) - (Number(y.since.slice(0, 4)) * 12 + Number(y.since.slice(5, 7))) + 1;
  return (y.to === null ? Number(last.slice(0, 4)) - y.from + 1 : y.to - y.from + 1) * 12;
};

/** The fact of the years asked, from a market's monthly series. */
export function yearFact(data: ResearchData, u: Understanding, t: Target, where: string, c: MonthlySeries, src: Source, asOf: string): Fact {
  // a season counted back ("last summer"): the last one the place's data reaches (periods.ts resolveLast)
  const y = resolveLast(u.years!, asOf.slice(0, 7), (m) => { const i = c.month.indexOf(m); return i >= 0 && (c.sales_count[i] ?? 0) > 0 && c.covered?.[i] !== false && c.complete?.[i] !== false; });
  const noun = TYPE_WORDS[u.propertyType]!;
  const sold = c.month.map((m, i) => ({ m, i, n: c.sales_count[i] ?? 0 })).filter((x) => x.n > 0);
  const last = sold.at(-1)?.m;
  const asked = sold.filter((x) => inYears(x.m, y));
  if (asked.length === 0) {
    // the months asked the data holds with fewer than 5 sales each (no count kept): said so, never "outside the data"
    // (before, the range said was the months with 5 or more sales: 11215's 2023 read "outside" for its 25 sales)
    const range = dataMonths(data, t, c, asOf, where, noun);
    const thin = c.month.filter((m, i) => inYears(m, y) && c.sales_count[i] == null && range.holds(m));
    // a condo asked of a Connecticut town's months of the untyped 2022 file: said so, with what it records (town-file-gap.ts)
    const untyped = untypedFileYears(data.market, t, u.propertyType, noun, where, y.label, (m) => inYears(m, y));
    if (untyped) return { intent: 'trends', target: t, value: `no ${noun} figure in ${y.label}`, sentence: untyped, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
    return {
      intent: 'trends', target: t, value: `no sales in ${y.label}`,
      sentence: thin.length
        ? `I don't have a count or median of ${noun} sales for ${where} ${periodWhen(y.label)}: the data holds ${thin.length === 1 ? 'its month' : 'its months'} ${monthRuns(thin)}, but ${thin.length === 1 ? 'it' : 'each'} had fewer than 5 arm's-length ${noun} sales, and months with fewer than 5 sales are left out (the monthly series keeps no count or median for so few); ${range.words}`
        : `I don't have ${noun} ${u.asks.includes('sales_count') ? 'sales' : 'sale prices'} for ${where} ${periodWhen(y.label)}: ${range.words}, so ${y.label.replace(/^since /, '')}${y.to === null ? ' onward' : ''} ${periodVerb(y.label)} outside the data`,
      detail: [], source: null, confidence: 'low', primary: true, uncertain: null,
    };
  }
  const total = asked.reduce((s, x) => s + x.n, 0);
  const priced = asked.filter((x) => c.median_price[x.i] != null);
  const span = asked.length === 1 ? asked[0]!.m : `${asked[0]!.m} to ${asked.at(-1)!.m}`;
  const yearMonths = monthsAsked(y, last!);
  const fileGap = townFileGap(data.market, t, (m) => inYears(m, y), asked.map((x) => x.m));
  const partial = (asked.length < yearMonths ? ` (the data holds ${plural(asked.length, 'month')} of ${y.label.replace(/^since /, y.since ? 'the months since ' : 'the years since ')}, ${span})` : ` (${span})`) + fileGap;
  let range = '';
  const bits: string[] = [];
  if (priced.length) {
    // a month not recorded whole (a file starts or ends inside it: Denver's 2019-07) is no low or high of the range, as
    // the month's own answer calls it partial (month-facts.ts); the last month, if partial, is said to be
    const whole = priced.filter((x) => c.complete?.[x.i] !== false);
    const ranged = whole.length >= 2 ? whole : priced;
    const lo = ranged.reduce((a, b) => (c.median_price[b.i]! < c.median_price[a.i]! ? b : a));
    const hi = ranged.reduce((a, b) => (c.median_price[b.i]! > c.median_price[a.i]! ? b : a));
    const end = priced.at(-1)!;
    // partial where the files do not span the month (`covered` false); a month they span that its source recorded in
    // part (its total under half the months' around it) is said so
    const part = (x: { i: number }): string => (c.complete?.[x.i] !== false ? '' : c.covered?.[x.i] === false ? ', a partial month: not recorded whole' : ', a month its source recorded in part: under half its sales of the months around it in all');
    const out = ranged === whole ? priced.filter((x) => !whole.includes(x)) : [];
    const cut = out.filter((x) => c.covered?.[x.i] === false).map((x) => x.m), few = out.filter((x) => c.covered?.[x.i] !== false).map((x) => x.m);
    const left = [cut.length ? `partial months left out of that range: ${cut.join(', ')}` : '', few.length ? `months their source recorded in part left out of that range: ${few.join(', ')}` : ''].filter(Boolean).join('; ');
    if (priced.length > 1) range = `, monthly medians ${money(c.median_price[lo.i]!)} to ${money(c.median_price[hi.i]!)}`;
    bits.push(priced.length === 1
      ? `the month's median sale price was ${money(c.median_price[end.i]!)}`
      : `monthly median sale prices ran from ${money(c.median_price[lo.i]!)} (${lo.m}) to ${money(c.median_price[hi.i]!)} (${hi.m})${left ? ` (${left})` : ''}, ${money(c.median_price[end.i]!)} in the last of them, ${end.m} (${plural(end.n, 'sale')}${part(end)})`);
  }
  const each = monthByMonth(u.query, c, asked); // each month asked, up or down on the one before (month-by-month.ts)
  if (each) bits.push(each);
  // a month the files cover in part only (Denver's 2019-07) has its count but no median in the build: said, not dropped
  const partOnly = asked.filter((x) => c.covered?.[x.i] === false && c.median_price[x.i] == null && x.n >= 5).map((x) => `${x.m} (${plural(x.n, 'sale')})`);
  if (partOnly.length) bits.push(`${partOnly.join(', ')} ${partOnly.length === 1 ? 'is' : 'are'} recorded in part only (a source file starts or ends inside the month, or holds a sliver of its sales): counted, with no median`);
  // a change asked ("price trend since 2020"): the index from the first to the last month of the years with 20 sales
  const solid = asked.filter((x) => c.level[x.i] != null && (c.index_sample_count[x.i] ?? 0) >= CHANGE_MIN_SAMPLE && c.complete?.[x.i] !== false);
  if (!u.priceLevel && solid.length >= 2) bits.push(`the price index changed ${pct((Math.exp(c.level[solid.at(-1)!.i]! - c.level[solid[0]!.i]!) - 1) * 100)} from ${solid[0]!.m} to ${solid.at(-1)!.m}`);
  const thin = thinMonths(data, u, t, c, asked.map((x) => x.m), y);
  const whole = yearWhole(data, u, t, c, y, total, noun);
  if (whole) bits.unshift(whole.words); // the year's own median first, then the months'
  // a type holding other types (Connecticut's 2022 file: no residential subtype): said, low
  const note = mixedTypeNote(data, t, u.propertyType, asked.map((x) => x.m), total);
  return {
    // a count asked ranks the places by it; a price asked by the year's median (one year asked: yearWhole), else by the
    // middle of the monthly medians, said so (no median over the months together is kept), as zips are ranked by a
    // year's price (zip-years.ts)
    ...(u.asks.includes('sales_count') ? ranks(u, total, total.toLocaleString('en-US'), RANK.sales)
      : u.priceLevel && whole ? ranks(u, whole.median, `${money(whole.median)}, the median of its ${whole.year} sales together`, RANK.price)
      : u.priceLevel && priced.length ? ranks(u, midOf(priced.map((x) => c.median_price[x.i]!)), `${money(midOf(priced.map((x) => c.median_price[x.i]!)))}, the middle of its monthly medians`, RANK.price) : {}),
    ...(note ? { typeNote: note } : {}), intent: 'trends', target: t, value: `${plural(total, 'sale')} in ${y.label}${asked.length < yearMonths ? ` (${span} only)` : ''}${whole ? `${range}, median ${money(whole.median)} over the ${whole.year} sales together` : priced.length === 1 ? `, median ${money(c.median_price[priced[0]!.i]!)}` : range}${fileGap ? ` [no ${t.city} records in Connecticut's 2022 file]` : ''}`,
    sentence: `In ${where}, ${periodWhen(y.label)} there were ${plural(total, `arm's-length ${noun} sale`)}${partial}${thin}${note}${bits.length ? `; ${bits.join('; ')}` : ''}${whole ? '' : '; a median over all of those sales together is not kept'}${wholeCity(t)}`,
    detail: ['Monthly figures (a median needs 5 or more sales); the monthly series is GET /v1/market/trends.'],
    source: { ...src, citation: `${src.citation.replace(/, as of .*$/, '')}, ${span}, as of ${asOf}` }, confidence: note || total < 20 ? 'low' : total >= 50 ? 'high' : 'medium', primary: true, uncertain: null,
  };
}

/** The median of all of one calendar year's sales together (market.json `years`, year-medians-build.ts), where one year
 *  is asked and the monthly series starts at or before its January, so that the year's sales are the series' months'
 *  (those counted and those of months with fewer than 5 sales, which the counts leave out: said with how many, 1-4 as
 *  "fewer than 5", the minimum cohort). Null
 *  where the build keeps no year figures, the year has under 5 sales, or the series begins inside the year (the sales
 *  before its first month are no month of the answer: the median is not said, as before). */
function yearWhole(data: ResearchData, u: Understanding, t: Target, c: MonthlySeries, y: Years, total: number, noun: string): { words: string; median: number; year: number } | null {
  const year = wholeYearOf(y, c);
  if (year === null) return null;
  const f = yearFigure(data.market, t, u.propertyType, year);
  if (!f || f.median === null || f.sales < total) return null;
  const thin = f.sales - total;
  return {
    year, median: f.median,
    words: `the median sale price of all ${plural(f.sales, `arm's-length ${noun} sale`)} of ${year} the data holds, taken together, was ${money(f.median)}${thin ? ` (${salesSaid(thin, 'sale')} of them in months with fewer than 5 sales, which the monthly counts leave out)` : ''}`,
  };
}

/** The one calendar year asked ("in 2014"; "since 2015" when 2015 is the series' last year) when a market's monthly series
 *  starts at or before its January, so the year's sales are all of the series' months; else null (a span of months, a
 *  quarter, a season, several years, or a series beginning inside the year). */
export function wholeYearOf(y: Years, c: MonthlySeries): number | null {
  const last = c.month.at(-1)?.slice(0, 4);
  const year = !y.months && !y.since && !y.month && !y.last && (y.to === y.from || (y.to === null && String(y.from) === last)) ? y.from : null;
  return year === null || !c.month[0] || c.month[0] > `${year}-01` ? null : year;
}

/** A market's whole-year medians for the change between years compared (period-change.ts): the year's median of all
 *  its sales where yearWhole would say it (one calendar year, the series starting at or before its January), else null. */
export const yearMedianOf = (data: ResearchData, t: Target, type: string, c: MonthlySeries) => (y: Years): { median: number; sales: number } | null => {
  const year = wholeYearOf(y, c);
  const f = year === null ? null : yearFigure(data.market, t, type, year);
  return f && f.median !== null ? { median: f.median, sales: f.sales } : null;
};

/** The middle of figures (the mean of the middle two for an even count). */
function midOf(v: number[]): number {
  const s = [...v].sort((a, b) => a - b), h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** Months of the years asked, inside the data's span, with no count: the series keeps no count of a month with fewer
 *  than 5 sales (market.md "Minimum cohort 5"), so those sales are left out of the year's total. Said with how many sales
 *  such months hold in all when the research index's 24-month window holds every sale of the market (its 23- and
 *  24-month windows are equal: then the window's sales less the counted months' are those left out), and not said when
 *  that is 0; else "at most 4 each". */
function thinMonths(data: ResearchData, u: Understanding, t: Target, c: MonthlySeries, counted: string[], y: Years): string {
  const first = c.month.findIndex((_, i) => (c.sales_count[i] ?? 0) > 0);
  const lastYear = y.to ?? Number(c.month.at(-1)!.slice(0, 4));
  const empty = c.month.filter((m, i) => c.sales_count[i] == null && inYears(m, { ...y, to: lastYear }) && !counted.includes(m) && m <= c.month.at(-1)!);
  // months no file of the market's sources covers (New York City's 2022-04..2023-02, between its two files): no sales
  // in the data because none were taken, said so, never as thin months
  const uncovered = uncoveredMonths(data, t, empty);
  const outside = uncovered.length ? ` (${monthRuns(uncovered)} ${uncovered.length === 1 ? 'is' : 'are'} not covered by the source: no file of it holds ${uncovered.length === 1 ? 'that month' : 'those months'}, so the data has no sales there at all; ${spanWords(data, t)})` : '';
  const gaps = empty.filter((m) => !uncovered.includes(m));
  if (gaps.length === 0) return outside;
  const w24 = windowFigure(data.market, t, u.propertyType, 24), w23 = windowFigure(data.market, t, u.propertyType, 23);
  const all = c.sales_count.reduce<number>((a, n) => a + (n ?? 0), 0);
  const left = w24 && w23 && w24.sales === w23.sales && first >= 0 ? w24.sales - all : null;
  if (left !== null && left <= 0) return outside;
  const span = gaps.length === 1 ? gaps[0] : `${gaps.length} months, ${monthRuns(gaps)}`;
  return `${outside} (months with fewer than 5 sales are left out: ${span} ${left !== null ? `here, ${plural(left, 'sale')} over all such months of the data` : 'here, at most 4 sales each'})`;
}

/** Years compared ("2021 vs 2023"): each year's fact said in turn, as one fact of the place (the first's source and
 *  citation; no rank across places, each place's years are its own), then the change between them when given
 *  (period-change.ts). Before, the first year alone was answered, and then no change. */
export function joinYears(facts: Fact[], change: { sentence: string; value: string } | null = null): Fact {
  const conf = facts.some((f) => f.confidence === 'low') ? 'low' : facts.some((f) => f.confidence === 'medium') ? 'medium' : 'high';
  const { ranks: _r, ...first } = facts[0]!;
  const value = [...facts.map((f) => f.value), ...(change?.value ? [change.value] : [])].join('; ');
  return { ...first, value, sentence: [...facts.map((f) => f.sentence), ...(change ? [change.sentence] : [])].join('. '), source: facts.find((f) => f.source)?.source ?? null, confidence: conf };
}
