// The cities of a county ranked by a year's sales count or median sale price ("top 5 cities in King County by sales
// 2014", "which city in King County had the most sales in 2014"), from each city's own trends shard (the monthly series
// GET /v1/market/trends?city= serves: a month's count and median kept with 5 or more arm's-length sales), as the zips of a
// place are ranked (zip-years.ts: a count is the sum of the year's months that keep one, one year's price the median of
// the city's sales of it together, else the middle of the months' medians, said). Before (review 19), a county's count
// was refused as "kept per city or zip code", naming the cities.
// Wording: warehouse/docs/research.md "Years".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, money, plural, type Fact } from './facts.ts';
import { TYPE_WORDS } from './sales-facts.ts';
import { middle } from './city-summary.ts';
import { monthRuns, spanWords, uncoveredMonths } from './coverage.ts';
import { inYears, wholeYearOf, type MonthlySeries } from './year-facts.ts';
import { yearFigure } from './market-window.ts';
import { countySalesCities } from './county-market.ts';
import { topAsked } from './asked.ts';

const CITY_WORD = /\b(cities|city|towns?|municipalit(y|ies))\b/;
const RANK_WORD = /\b(most|fewest|least|top|highest|lowest|rank(ed|ing)?|bottom|busiest|which|cheap(est|er)?|priciest|(most|least) expensive)\b/;

/** What a question ranks the cities of a county by, for the year or month asked: 'count', 'median', or null. */
export function cityYearRanking(u: Understanding, t: Target): 'count' | 'median' | null {
  const q = u.query.toLowerCase();
  if (!u.years || u.years.also || !t.area || t.city || t.zip || t.hood || !CITY_WORD.test(q) || !RANK_WORD.test(q)) return null;
  if (u.asks.includes('sales_count')) return 'count';
  return u.priceLevel || /\bprices?\b/.test(q) ? 'median' : null;
}

/** `year`: ranked by the median of all of that year's sales together (market.json `years`), as zip-years.ts ranks zips */
interface Row { city: string; value: number; sales: number; months: number; year?: number }

/** The ranking fact of the cities of county `t` by `by` over the months of the year (or month) asked. */
export async function cityYearFact(data: ResearchData, u: Understanding, t: Target, by: 'count' | 'median'): Promise<Fact> {
  const y = u.years!, type = u.propertyType, noun = TYPE_WORDS[type]!;
  const where = areaName(t);
  const rows: Row[] = [];
  let asOf = '', asked: string[] = [];
  const partOnly = new Set<string>(); // months of a city counted with no median (recorded in part only)
  for (const city of countySalesCities(data, t)) {
    const s = await data.shard<{ as_of: string; series: MonthlySeries }>('trends', { state: t.state, city, property_type: type });
    if (!s) continue;
    const c = s.series;
    const idx = c.month.map((m, i) => ({ m, i })).filter((x) => (y.month ? x.m === y.month : inYears(x.m, y)));
    if (idx.length > asked.length) asked = idx.map((x) => x.m);
    const kept = idx.filter((x) => (c.sales_count[x.i] ?? 0) > 0);
    // one year asked: the median of all of the city's sales of it together
    const year = by === 'median' && kept.length ? wholeYearOf(y, c) : null;
    const whole = year !== null ? yearFigure(data.market, { city, state: t.state }, type, year) : null;
    if (whole && whole.median !== null) { if (s.as_of > asOf) asOf = s.as_of; rows.push({ city, value: whole.median, sales: whole.sales, months: kept.length, year: year! }); continue; }
    // a median ranks by the months with one and names their sales and months (a month recorded in part only counts
    // with no median: left out and said, as zip-years.ts does)
    const used = by === 'median' ? kept.filter((x) => c.median_price[x.i] != null) : kept;
    if (by === 'median') for (const x of kept) if (c.median_price[x.i] == null) partOnly.add(x.m);
    if (!used.length) continue;
    if (s.as_of > asOf) asOf = s.as_of;
    const sales = used.reduce((a, x) => a + c.sales_count[x.i]!, 0);
    const meds = used.map((x) => c.median_price[x.i]!).sort((a, b) => a - b);
    rows.push({ city, value: by === 'count' ? sales : middle(meds), sales, months: used.length });
  }
  const when = y.month || /^\d{4}$/.test(y.label) ? `in ${y.label}` : `from ${y.label}`;
  if (!rows.length) return { intent: 'trends', target: t, value: null, sentence: `No city of ${where} has ${noun} sales kept ${when} (a month's count or median is kept with 5 or more arm's-length sales)`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
  const low = by === 'count' ? /\b(fewest|least|lowest|bottom|fewer)\b/.test(u.query.toLowerCase()) : u.lowEnd;
  rows.sort((a, b) => (low ? a.value - b.value : b.value - a.value) || a.city.localeCompare(b.city));
  const shown = rows.slice(0, Math.min(rows.length, topAsked(u.query) ?? 5));
  const fig = (r: Row): string => (by === 'count' ? plural(r.value, 'sale') : `${money(r.value)} (${plural(r.sales, 'sale')}${r.year ? ` of ${r.year} together` : ` over ${plural(r.months, 'month')}`})`);
  const yearly = rows.find((r) => r.year)?.year, monthly = rows.some((r) => !r.year);
  const measure = by === 'count' ? `arm's-length ${noun} sales`
    : yearly ? `median ${noun} sale price of each city's sales together${monthly ? ` (a city whose data begins inside ${yearly}: the middle of its monthly medians, its months said)` : ''}`
    : `median ${noun} sale price (the middle of each city's monthly medians: a median over a year's sales together is not kept)`;
  const market = { city: shown[0]!.city, state: t.state };
  const out = uncoveredMonths(data, market, asked);
  const covered = asked.filter((m) => !out.includes(m));
  const held = y.month ? '' : ` (the data holds ${plural(covered.length, 'month')} of ${y.label}${covered.length ? `, ${monthRuns(covered)}` : ''}${out.length ? `; ${monthRuns(out)} ${out.length === 1 ? 'is' : 'are'} not covered by the source, ${spanWords(data, market)}` : ''})`;
  const end = by === 'count' ? (low ? 'fewest' : 'most') : low ? 'lowest' : 'highest';
  const part = partOnly.size ? `; ${monthRuns([...partOnly].sort())} ${partOnly.size === 1 ? 'is' : 'are'} recorded in part only (a source file starts or ends inside the month, or holds a sliver of its sales): counted, with no median, so ${partOnly.size === 1 ? 'its' : 'their'} sales are not among those given` : '';
  return {
    intent: 'trends', target: t, value: `${shown[0]!.city} ${fig(shown[0]!)}`,
    sentence: `In ${where}, by ${measure} ${when}${held}, the ${end} of ${rows.length} ${rows.length === 1 ? 'city' : 'cities'} with a figure (each city's own months of 5 or more sales; a month with fewer keeps no figure and is left out): ${shown.map((r, i) => `${i + 1}. ${r.city} ${fig(r)}`).join('; ')}${part}`,
    detail: ['Each city\'s monthly figures are GET /v1/market/trends?city=...; a month keeps a count and median with 5 or more arm\'s-length sales.'],
    source: { type: 'trends', category: 'market', citation: `reii warehouse: price trends per city of ${where}, ${type}, ${y.month ?? y.label}, as of ${asOf}` },
    confidence: shown[0]!.sales < 20 ? 'low' : 'medium', primary: true, uncertain: null,
  };
}
