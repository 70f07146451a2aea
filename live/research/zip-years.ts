// Zips of a city, borough or county ranked by a year's (or a month's) sales count or median sale price ("Which NYC zip
// had the most sales in 2023?", "top 5 zips in Brooklyn by number of sales in 2022", "which Seattle zip had the highest
// median price in 2014"), from the same monthly figures the trends use (each zip's trends shard, GET /v1/market/trends:
// arm's-length sales, a month's count and median kept only with 5 or more sales, the minimum cohort). A count is the sum
// of the months of the year asked that keep one; a month under the cohort minimum keeps none and is said; one year's
// price is ranked by the median of each zip's sales of the year together (market.json `years`, year-medians-build.ts),
// a span of months (or a zip whose series begins inside the year) by the middle of its months' medians, said so. The
// months of the year the source covers are said (coverage.ts). Wording: warehouse/docs/research.md "Years".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, money, plural, type Fact } from './facts.ts';
import { TYPE_WORDS } from './sales-facts.ts';
import { middle } from './city-summary.ts';
import { monthRuns, spanWords, uncoveredMonths } from './coverage.ts';
import { inYears, wholeYearOf, type MonthlySeries } from './year-facts.ts';
import { yearFigure } from './market-window.ts';
import { twelveMonthsTo, type Years } from './years.ts';
import { ziplessCity } from './zipless.ts';
import { topAsked } from './asked.ts';
import { calendarCountWhy, zipWindowCountFact } from './zip-windows.ts';
import { periodWhen, resolveLast } from './periods.ts';

const ZIP_WORD = /\bzips?\b|\bzip ?codes?\b|\bpostal codes?\b/;
const RANK_WORD = /\b(most|fewest|least|top|highest|lowest|rank(ed|ing)?|bottom|busiest|more|fewer|which|what|cheap(est|er)?|priciest|(most|least) expensive)\b/;

/** What a question ranks the zips of a place by, for the year or month asked: 'count', 'median', or null. A count asked
 *  with no year ("top 5 zips in Sacramento by number of sales") ranks the 12 months to the zips' latest sale (a price
 *  with no year is ranked by the zips' window medians, city-summary.ts). */
export function zipYearRanking(u: Understanding, t: Target): 'count' | 'median' | null {
  const q = u.query.toLowerCase();
  if (u.years?.also || t.zip || !(t.city || t.area) || t.hood || !ZIP_WORD.test(q) || !RANK_WORD.test(q)) return null;
  if (u.asks.includes('sales_count')) return 'count';
  if (u.asks.includes('zip_price') && u.years) return 'median';
  return null;
}

/** No year asked: the 12 months to the latest month with a sale of any of the zips (null when none has one). */
async function lastTwelve(data: ResearchData, zips: string[], type: string): Promise<Years | null> {
  let last = '';
  for (const zip of zips) {
    const c = (await data.shard<{ series: MonthlySeries }>('trends', { zip, property_type: type }))?.series;
    const i = c ? c.sales_count.findLastIndex((n) => (n ?? 0) > 0) : -1;
    if (i >= 0 && c!.month[i]! > last) last = c!.month[i]!;
  }
  return last ? twelveMonthsTo(last) : null;
}

/** `year`: ranked by the median of all of that year's sales together (market.json `years`), else by the middle of its
 *  monthly medians (a month, a span, or a zip whose series begins inside the year) */
interface Row { zip: string; value: number; sales: number; months: string[]; thin: string[]; year?: number }

/** The ranking fact of the zips of `t` by `by` over the months of the year (or month) asked. */
export async function zipYearFact(data: ResearchData, u: Understanding, t: Target, by: 'count' | 'median'): Promise<Fact> {
  const type = u.propertyType, noun = TYPE_WORDS[type]!;
  const zips = t.area ? data.zipsOfCounty(t.area.county_fips) : data.zipsOfCity(t.city!, t.state);
  const where = areaName(t);
  // a city whose sales carry no zip code (Denver): said, never the city's total as if it were a ranking (zipless.ts)
  const zipless = t.city && !t.area ? ziplessCity(data, t.state, t.city, type) : null;
  if (zipless) return { intent: 'trends', target: t, value: null, sentence: `No zip of ${where} can be ranked: ${zipless}`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
  // no period asked: each zip's own window of the months asked, every sale pooled (zip-windows.ts)
  const typeNote = /single[- ]?family|sfr|condo|multi|duplex|land|commercial/.test(u.query.toLowerCase()) ? '' : ` (${noun} sales: name condos or multi-family for those)`;
  const pooled = !u.years && by === 'count' ? zipWindowCountFact(data, u, t, zips, where, noun, typeNote) : null;
  if (pooled) return pooled;
  // a month or a season with no year ("in january", "since january", "last spring"): its latest in the zips' data (periods.ts)
  const y = u.years && (u.years.lastMonth || u.years.last) ? resolveLast(u.years, (await lastTwelve(data, zips, type))?.months?.[1] ?? '0000-00') : u.years ?? await lastTwelve(data, zips, type);
  if (!y) return { intent: 'trends', target: t, value: null, sentence: `No zip of ${where} has ${noun} sales kept (a month's count or median is kept with 5 or more arm's-length sales)`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
  const rows: Row[] = [];
  let asOf = '', asked: string[] = [];
  const under: string[][] = [];
  const partOnly = new Set<string>(); // months of a zip counted with no median (recorded in part only: month-facts.ts)
  for (const zip of zips) {
    const s = await data.shard<{ as_of: string; series: MonthlySeries }>('trends', { zip, property_type: type });
    if (!s) continue;
    const c = s.series;
    const idx = c.month.map((m, i) => ({ m, i })).filter((x) => (y.month ? x.m === y.month : inYears(x.m, y)));
    if (idx.length > asked.length) asked = idx.map((x) => x.m);
    const kept = idx.filter((x) => (c.sales_count[x.i] ?? 0) > 0);
    const first = c.month.findIndex((_, i) => (c.sales_count[i] ?? 0) > 0);
    // a month inside the zip's data, of the year asked, with no count: fewer than 5 sales (or none) that month
    const thin = idx.filter((x) => x.i >= first && c.sales_count[x.i] == null).map((x) => x.m);
    if (kept.length === 0) { if (first >= 0 && thin.length) under.push(thin); continue; }
    if (s.as_of > asOf) asOf = s.as_of;
    // one year asked: the median of all of the zip's sales of it together, its thin and partial months' sales in it
    const year = by === 'median' ? wholeYearOf(y, c) : null;
    const whole = year !== null ? yearFigure(data.market, { zip, state: t.state }, type, year) : null;
    if (whole && whole.median !== null) { rows.push({ zip, value: whole.median, sales: whole.sales, months: kept.map((x) => x.m), thin: [], year: year! }); continue; }
    // a median ranks by the months with a median, and names their sales and months: a month recorded in part only
    // (King County's 2015-05) keeps a count with no median, so it is left out of both and said (review 20: "74 sales
    // over 5 months" beside a median of 4)
    const used = by === 'median' ? kept.filter((x) => c.median_price[x.i] != null) : kept;
    if (by === 'median') for (const x of kept) if (c.median_price[x.i] == null) partOnly.add(x.m);
    if (used.length === 0) continue;
    const sales = used.reduce((a, x) => a + c.sales_count[x.i]!, 0);
    const meds = used.map((x) => c.median_price[x.i]!).sort((a, b) => a - b);
    rows.push({ zip, value: by === 'count' ? sales : middle(meds), sales, months: used.map((x) => x.m), thin });
  }
  const yearWords = periodWhen(y.label); // "since September 2023" as it is (before, "from since September 2023")
  if (rows.length === 0) {
    return { intent: 'trends', target: t, value: null, sentence: `No zip of ${where} has ${noun} sales kept ${yearWords} (a month's count or median is kept with 5 or more arm's-length sales)`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
  }
  const q = u.query.toLowerCase();
  const low = by === 'count' ? /\b(fewest|least|lowest|bottom|fewer)\b/.test(q) : u.lowEnd;
  rows.sort((a, b) => (low ? a.value - b.value : b.value - a.value) || a.zip.localeCompare(b.zip));
  const n = Math.min(rows.length, topAsked(q) ?? 5);
  const shown = rows.slice(0, n);
  const city = (z: string): string => { const c = data.zips.get(z)?.city; return c && c !== t.city && c !== t.area?.name ? ` (${c})` : ''; };
  const fig = (r: Row): string => (by === 'count' ? plural(r.value, 'sale') : `${money(r.value)} (${plural(r.sales, 'sale')}${r.year ? ` of ${r.year} together` : ` over ${plural(r.months.length, 'month')}`})`);
  const end = by === 'count' ? (low ? 'fewest' : 'most') : low ? 'lowest' : 'highest';
  const yearly = rows.find((r) => r.year)?.year, monthly = rows.some((r) => !r.year);
  const measure = by === 'count' ? `arm's-length ${noun} sales` : y.month ? `median ${noun} sale price`
    : yearly ? `median ${noun} sale price of each zip's sales together${monthly ? ` (a zip whose data begins inside ${yearly}: the middle of its monthly medians, its months said)` : ''}`
    : `median ${noun} sale price (the middle of each zip's monthly medians: a median over a year's sales together is not kept)`;
  const list = shown.map((r, i) => `${i + 1}. zip ${r.zip}${city(r.zip)} ${fig(r)}`).join('; ');
  // the months of the year the source covers, and those no file of it holds
  const market = { zip: shown[0]!.zip, state: t.state };
  const out = uncoveredMonths(data, market, asked);
  const cover = out.length ? ` (${monthRuns(out)} ${out.length === 1 ? 'is' : 'are'} not covered by the source, so no zip has sales there; ${spanWords(data, market)})` : '';
  const covered = asked.filter((m) => !out.includes(m));
  const held = y.month ? '' : ` (the data holds ${plural(covered.length, 'month')} of ${y.label.replace(/ \(".*$/, '').replace(/^since /, 'the months since ')}${covered.length ? `, ${monthRuns(covered)}` : ''})`;
  // a month the source covers with no count of a zip: fewer than 5 sales there (the months no file holds are said above)
  for (const r of rows) r.thin = r.thin.filter((m) => !out.includes(m));
  const thinShown = shown.filter((r) => r.thin.length);
  const thinAll = rows.filter((r) => r.thin.length).length;
  const thin = thinShown.length
    ? `; months with fewer than 5 sales keep no ${by === 'count' ? 'count' : 'median'} (the trends' minimum cohort) and are left out: ${thinShown.map((r) => `zip ${r.zip} ${monthRuns(r.thin)}`).join('; ')}${thinAll > thinShown.length ? ` (${plural(thinAll, 'zip')} of the ${rows.length} have such months)` : ''}`
    : thinAll ? `; ${plural(thinAll, 'zip')} of the ${rows.length} (none of those listed) have months with fewer than 5 sales, which keep no figure and are left out` : '';
  // zips with sales in the data but no month of those asked with 5 or more, in a month the source covers: not ranked
  const unranked = under.filter((ms) => ms.some((m) => !out.includes(m))).length;
  const none = unranked ? `; ${plural(unranked, 'more zip')} had sales in the data but fewer than 5 in each month asked the source covers, so ${unranked === 1 ? 'it keeps' : 'they keep'} no figure and ${unranked === 1 ? 'is' : 'are'} not ranked` : '';
  // a count left short by those months: why the calendar period's every sale cannot be counted (zip-windows.ts)
  const why = by === 'count' && thinAll && !y.month ? calendarCountWhy(covered, asOf) : '';
  const part = partOnly.size ? `; ${monthRuns([...partOnly].sort())} ${partOnly.size === 1 ? 'is' : 'are'} recorded in part only (a source file starts or ends inside the month, or holds a sliver of its sales): counted, with no median, so ${partOnly.size === 1 ? 'its' : 'their'} sales are not among those given` : '';
  return {
    intent: 'trends', target: t, value: `zip ${shown[0]!.zip} ${fig(shown[0]!)}`,
    sentence: `In ${where}, by ${measure} ${yearWords}${held}${cover}${typeNote}, the ${end} of ${plural(rows.length, 'zip')} with a figure: ${list}${thin}${part}${none}${why}`,
    detail: ['Each zip\'s monthly figures are GET /v1/market/trends?zip=...; a month keeps a count and median with 5 or more arm\'s-length sales.'],
    source: { type: 'trends', category: 'market', citation: `reii warehouse: price trends per zip of ${where}, ${type}, ${y.month ?? y.label}, as of ${asOf}` },
    confidence: thinShown.length || shown[0]!.sales < 20 ? 'low' : 'medium', primary: true, uncertain: null,
  };
}
