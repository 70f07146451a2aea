// Sales facts the shards cannot give (POST /v1/research/query), from the research index's market windows
// (market-window.ts, written by build.ts): a median sale price over the months asked, how many homes sold, the note that
// a Connecticut town's "single-family" figure is all residential sales, a borough's own market or the whole city's (ownMarket,
// wholeCity), and the county of a zip or city (gazetteer).
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, minConf, missing, money, placeName, plural, type Confidence, type Fact, type Source } from './facts.ts';
import { cityZipFacts, ZIP_PRICE_TOPIC } from './city-summary.ts';
import { windowGap } from './window-gaps.ts';
import { allResidential, salesSaid, windowEndSaid, windowFigure, WINDOW_MIN_SALES, type WindowFigure } from './market-window.ts';
import { CHANGE_MIN_SAMPLE, isComplete, type LevelPoint } from '../../warehouse/price-index.ts';
import { comparable, mixWords, type Mix } from '../../warehouse/price-mix.ts';
import { RANK, ranks } from './ranks.ts';
import { notCoveredWords } from './month-cover.ts';
import { endedEarly, gapBack } from './change-reach.ts';
import { typelessSentence } from './typeless.ts';
import { placeNoSalesWhy } from './county-no-sales.ts';
import { untypedFileWindow } from './town-file-gap.ts';
import { windowPeriod } from './figure-period.ts';
import { BAND_NOT_KEPT, figureDirection, topAsked } from './asked.ts';

/** The words of a property type in an answer. */
export const TYPE_WORDS: Record<string, string> = { sfr: 'single-family', multi: 'multi-family', condo: 'condo', land: 'land', commercial: 'commercial' };
/** A borough asked about a city-level figure: the figure is the whole city's, and the answer says so. */
export const wholeCity = (t: Target): string => (t.area && !t.zip && !t.hood ? ` (the figure is for ${t.city}, ${t.state} as a whole: none is kept for ${t.area.name} alone)` : '');

/** A borough asked about a city-level figure: its own market where the build keeps one (New York City's boroughs are
 *  city markets of their own sales, int_market_city_parts, in the shards and in market.json's windows), else the whole
 *  city's, said so (wholeCity). `has`: whether the build keeps the figure for a city name ("Bronx" for "the Bronx"). */
export async function ownMarket(t: Target, has: (city: string) => unknown): Promise<Target> {
  if (!t.area || t.zip) return t;
  const own: Target = { state: t.state, city: t.area.name.replace(/^the /, ''), from: t.from };
  return (await has(own.city!)) ? own : t;
}

/** Places compared by price: the median ranks them (ranks.ts, compose.ts verdict). */
export const priceRank = (u: Understanding, price: number): Pick<Fact, 'ranks'> => ranks(u, price, money(price), RANK.price);

/** The confidence of a figure by its sales: 50+ high, CHANGE_MIN_SAMPLE (20)+ medium. */
export const byCount = (n: number): Confidence => (n >= 50 ? 'high' : n >= CHANGE_MIN_SAMPLE ? 'medium' : 'low');

/** `end`: the window's end as said (market-window.ts windowEndSaid: a month where its day would date a sale of 1-4). */
const windowSource = (where: string, type: string, w: WindowFigure, end = w.asOf): Source => ({
  type: 'sales', category: 'market', citation: `reii warehouse: arm's-length ${type} sales of ${where}, ${w.months} months to ${end}`,
});

/** The months (YYYY-MM) a window of `months` months to asOf touches, oldest first. */
export function windowMonths(asOf: string, months: number): string[] {
  const [y, m] = asOf.split('-').map(Number) as [number, number];
  const out: string[] = [];
  for (let i = months; i >= 0; i--) {
    const d = new Date(Date.UTC(y, m - 1 - i, 1));
    out.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

/** A figure whose type holds other types too: a Connecticut town's single-family figure over these months holds records
 *  of a file with no residential subtype. The clause that says so, with how many of the sales, or ''. (New York City's
 *  condo figures are condominiums only since F7: its co-op apartments are a type of the warehouse no figure covers,
 *  market.md "Co-ops".) */
export function mixedTypeNote(data: ResearchData, t: Target, type: string, months: string[], sales: number | null): string {
  if (type !== 'sfr' || t.zip || !t.city) return '';
  const n = months.reduce((s, m) => s + allResidential(data.market, t, m), 0);
  if (n === 0) return '';
  return typeNoteOf(n, sales);
}

function typeNoteOf(n: number, sales: number | null): string {
  const share = sales !== null && n >= sales ? 'all of these sales' : n < WINDOW_MIN_SALES ? `fewer than ${WINDOW_MIN_SALES} of these sales` : `${n.toLocaleString('en-US')} of these sales`;
  return ` (${share} come from Connecticut's 2022 sales file, which does not tell single-family homes from condos and 2-4 family houses: the figure is for all residential sales of those records)`;
}

/** mixedTypeNote of a window figure: its untyped sales counted by the window's own day bounds (market-window.ts), or by
 *  the whole months it touches in a build whose index does not count them. */
const windowTypeNote = (data: ResearchData, t: Target, type: string, w: WindowFigure): string =>
  w.untyped === undefined || type !== 'sfr' || t.zip || !t.city ? mixedTypeNote(data, t, type, windowMonths(w.asOf, w.months), w.sales)
    : w.untyped === 0 ? '' : typeNoteOf(w.untyped, w.sales);

/** The median sale price over the window asked (u.months), or null when the build holds no window figures. */
export function windowPriceFact(data: ResearchData, u: Understanding, t: Target, where: string, latest: string | null): Fact | null {
  if (!u.months) return null;
  const type = u.propertyType, noun = TYPE_WORDS[type]!;
  const w = windowFigure(data.market, t, type, u.months);
  if (!w) return null;
  const end = windowEndSaid(data.market, t, w.months, w.asOf);
  const src = windowSource(where, noun, w, end);
  const split = untypedFileWindow(data.market, t, type, noun, where, windowMonths(w.asOf, w.months), w.sales, `the ${w.months} months to ${w.asOf}`);
  if (split && 'sentence' in split) return missing('trends', t, split.sentence);
  const note = windowTypeNote(data, t, type, w) + (split?.note ?? '');
  // a zip's figure, as a city's zips are ranked by it (city-summary.ts ZIP_PRICE_TOPIC)
  const zip = t.zip ? { zip: { zip: t.zip, measure: w.median, group: null, months: w.months, asOf: w.asOf, sales: w.sales } } : {};
  if (w.median === null) {
    return {
      ...zip, intent: 'trends', target: t, value: `${salesSaid(w.sales, 'sale')} in ${w.months} months, too few for a median`,
      sentence: `In ${where}, ${w.sales === 0 ? `no arm's-length ${noun} sales` : `${w.sales < WINDOW_MIN_SALES ? '' : 'only '}${salesSaid(w.sales, `arm's-length ${noun} sale`)}`} fell in the ${w.months} months to ${end}${windowGap(data, t, windowMonths(w.asOf, w.months), w.asOf)}, too few for a median sale price (${WINDOW_MIN_SALES} needed)${latest ? `; ${latest}` : ''}${wholeCity(t)}`,
      detail: ['A median needs 5 or more sales; a sale of several properties on one deed, a nominal price or a duplicate record is left out.'],
      source: src, confidence: 'low', primary: true, uncertain: null,
    };
  }
  return {
    ...zip, ...priceRank(u, w.median), intent: 'trends', target: t, value: `${money(w.median)} (${plural(w.sales, 'sale')}, ${w.months} months to ${w.asOf})`, period: windowPeriod(data, t, w.months, w.asOf, windowMonths(w.asOf, w.months)), ...(note ? { typeNote: note } : {}),
    sentence: `In ${where}, the median of the ${plural(w.sales, `arm's-length ${noun} sale`)} in the ${w.months} months to ${w.asOf}${windowGap(data, t, windowMonths(w.asOf, w.months), w.asOf)} was ${money(w.median)}${note}${wholeCity(t)}`,
    detail: ['Every arm\'s-length sale of the window (a sale of several properties on one deed, a nominal price or a duplicate record is left out); the monthly series is GET /v1/market/trends.'],
    source: src, confidence: note ? 'low' : byCount(w.sales), primary: true, uncertain: null,
  };
}

/** A price compared by a direction word ("cheaper", "more expensive"). */
const PRICE_WORD = /\b(cheap|cheapest|cheaper|affordable|inexpensive|least expensive|less expensive|most expensive|more expensive|priciest|pricier|pricey|costliest|costlier)\b/i;

/** How many homes sold: the window's arm's-length sales of the type (the months asked, else 12), with their median. */
export function salesCountFact(data: ResearchData, u: Understanding, t: Target, where: string): Fact {
  const type = u.propertyType, noun = TYPE_WORDS[type]!;
  const months = u.months ?? 12;
  const w = windowFigure(data.market, t, type, months);
  // (a source with no property types: said, never "no condo sales", typeless.ts)
  if (!w) return missing('trends', t, data.market ? typelessSentence(data, t, type, noun, where) ?? `We have no ${noun} sales for ${where}${placeNoSalesWhy(data, t)}` : 'Sale counts are not part of this build');
  // a Connecticut town's condos over months of its 2022 file, which cannot tell them apart: never "0 condo sales"
  const split = untypedFileWindow(data.market, t, type, noun, where, windowMonths(w.asOf, w.months), w.sales, `the ${w.months} months to ${w.asOf}`);
  if (split && 'sentence' in split) return missing('trends', t, split.sentence);
  const note = windowTypeNote(data, t, type, w) + (split?.note ?? '');
  // a group of 1-4 sales: "fewer than 5", never ranked by, its window end said by its month where the day dates a sale
  const [small, end] = [w.sales > 0 && w.sales < WINDOW_MIN_SALES, windowEndSaid(data.market, t, w.months, w.asOf)];
  return {
    // a price compared with the counts ("is Fairfield or Milford cheaper? how many sales each"): the median ranks and
    // is shown with each count (before, "cheaper" was answered by the fewer sales)
    ...(PRICE_WORD.test(u.query) && w.median !== null ? priceRank(u, w.median) : small ? {} : ranks(u, w.sales, w.sales.toLocaleString('en-US'), RANK.sales)), intent: 'trends', target: t,
    value: `${salesSaid(w.sales, 'sale')}${PRICE_WORD.test(u.query) && w.median !== null ? `, median ${money(w.median)}` : ''} (${w.months} months to ${end})`, period: { ...windowPeriod(data, t, w.months, w.asOf, windowMonths(w.asOf, w.months)), asOf: end }, ...(note ? { typeNote: note } : {}),
    sentence: `${where.charAt(0).toUpperCase()}${where.slice(1)} had ${salesSaid(w.sales, `arm's-length ${noun} sale`)} in the ${w.months} months to ${end}${windowGap(data, t, windowMonths(w.asOf, w.months), w.asOf)}${w.median !== null ? `, at a median price of ${money(w.median)}` : ''}${otherTypes(data, u, t, w)}${note}${wholeCity(t)}`,
    detail: [`The window ends at the market's latest recorded sale (${end === w.asOf ? end : `in ${end}`}), not today; a sale of several properties on one deed, a nominal price or a duplicate record is not counted${small ? `; a count of 1-4 sales is said as "fewer than ${WINDOW_MIN_SALES}" (minimum cohort)` : ''}.`],
    source: windowSource(where, noun, w, end), confidence: note ? 'medium' : 'high', primary: true, uncertain: null,
  };
}

/** Sales of a zip with no living area recorded: why there is no price per sqft, and the sale price figure instead;
 *  null when the window holds 5 or more sales with an area (then the comps shard's "fewer than 5" is about them). */
export function noAreaFact(data: ResearchData, u: Understanding, t: Target, zip: string, where: string, months: number, primary: boolean): Fact | null {
  const type = u.propertyType, noun = TYPE_WORDS[type]!;
  const w = windowFigure(data.market, { zip, state: t.state }, type, months);
  if (!w || w.sales < WINDOW_MIN_SALES || w.withArea >= WINDOW_MIN_SALES) return null;
  // 1-4 with an area is said as "fewer than 5" (the minimum cohort: no count of 1-4 leaves the build)
  const area = w.withArea === 0 ? 'none of them has a living area in the source' : `fewer than ${WINDOW_MIN_SALES} of them have a living area in the source`;
  return {
    intent: 'comps', target: t, value: `no price per sqft (no living area); median ${money(w.median!)} (${plural(w.sales, 'sale')})`,
    sentence: `${where.charAt(0).toUpperCase()}${where.slice(1)} had ${plural(w.sales, `arm's-length ${noun} sale`)} in the ${months} months to ${w.asOf}${windowGap(data, { zip, state: t.state }, windowMonths(w.asOf, months), w.asOf)}, but ${area}, so there is no price per sqft; their median sale price was ${money(w.median!)}`,
    detail: ['Price per sqft needs 5 or more sales with a recorded living area (New York City records none for most condo and co-op units).'],
    source: windowSource(where, noun, w), confidence: 'medium', primary, uncertain: null,
    zip: { zip, measure: null, group: null, months, asOf: w.asOf },
  };
}

/** The county of a zip (its gazetteer county), or of a city (its geo-lookup shard), named from the geo-lookup shard. */
export async function countyFact(data: ResearchData, t: Target): Promise<Fact> {
  const fips = t.zip ? data.zips.get(t.zip)?.county_fips ?? null : (t.city ? data.cityInState(t.city, t.state)?.county_fips ?? null : null);
  const where = t.zip ? `Zip ${t.zip}${t.city ? ` (${t.city}, ${t.state})` : ''}` : t.city ? `${t.city}, ${t.state}` : null;
  if (!where) return missing('county', t, 'Name a zip code or a city to look up its county');
  const lookup = t.city ? await data.shard<{ county_name: string | null; fips_code: string | null }>('geo-lookup', { state: t.state, city: t.city }) : null;
  const name = lookup?.county_name && (fips === null || lookup.fips_code === fips) ? lookup.county_name : null;
  const code = fips ?? lookup?.fips_code ?? null;
  if (!name && !code) return missing('county', t, `We have no county for ${where}`);
  return {
    intent: 'county', target: t, value: name ?? `county FIPS ${code}`,
    sentence: `${where} is in ${name ? `${name}, ${data.stateName(t.state)}${code ? ` (county FIPS ${code})` : ''}` : `the county with FIPS code ${code}, ${data.stateName(t.state)} (our city table has no name for it)`}`,
    detail: [t.zip ? 'A zip code that crosses a county line is placed in the county with most of its addresses (HUD zip-county crosswalk).' : 'The county of the city\'s Census place.'],
    source: { type: 'geo', category: 'geography', citation: `reii warehouse: ${t.zip ? `zip ${t.zip}` : `${t.city}, ${t.state}`} county (Census geography)` },
    confidence: 'high', primary: true, uncertain: null,
  };
}

/** Price per sqft of a city with no zip comps (sales without a zip, as Denver's): the trends shard's latest complete
 *  month (its `complete` flag) with CHANGE_MIN_SAMPLE sales and a median price per sqft, as the price level reads it
 *  (market-facts.ts priceLevelFact); else its latest month with a figure, at low confidence and said to be so; or null.
 *  (Denver: 2019-07's 21 sales of a file ending 2019-07-09 were the answer, at $439 against May's $376.) */
export async function cityPpsfFact(data: ResearchData, u: Understanding, t: Target): Promise<Fact | null> {
  const s = await data.shard<{ as_of: string; series: { month: string[]; sales_count: (number | null)[]; median_price_per_sqft: (number | null)[]; complete?: boolean[] } }>('trends', { state: t.state, city: t.city!, property_type: u.propertyType });
  if (!s) return null;
  const c = s.series;
  const counts = c.sales_count.map((n) => n ?? 0);
  let at = -1;
  for (let i = c.month.length - 1; i >= 0 && at < 0; i--) if (c.median_price_per_sqft[i] != null && counts[i]! >= CHANGE_MIN_SAMPLE && (c.complete?.[i] ?? isComplete(counts, i))) at = i;
  const solid = at >= 0;
  for (let i = c.month.length - 1; i >= 0 && at < 0; i--) if (c.median_price_per_sqft[i] != null) at = i;
  if (at < 0) return null;
  const type = TYPE_WORDS[u.propertyType];
  const month = c.month[at]!;
  return {
    ...ranks(u, c.median_price_per_sqft[at]!, `${money(c.median_price_per_sqft[at]!)}/sqft`, RANK.ppsf), intent: 'comps', target: t, value: `${money(c.median_price_per_sqft[at]!)}/sqft (${month})`,
    sentence: `In ${t.city}, ${t.state}, the median ${type} sale price was ${money(c.median_price_per_sqft[at]!)} per sqft in ${month} (${plural(counts[at]!, 'sale')})${solid ? '' : ', the latest month with a figure but no complete month of 20 or more sales'}; no zip of the city has comparable sales, so this is the city-wide monthly figure${wholeCity(t)}`,
    detail: [solid
      ? `The latest complete month with ${CHANGE_MIN_SAMPLE} or more sales (a month the sources do not cover whole, as a file's last, is left out); the monthly series is GET /v1/market/trends.`
      : 'A monthly median needs 5 or more sales with a living area; the monthly series is GET /v1/market/trends.'],
    source: { type: 'trends', category: 'market', citation: `reii warehouse: price trend for ${t.city}, ${t.state}, ${u.propertyType}, as of ${s.as_of}` },
    confidence: solid ? byCount(counts[at]!) : 'low', primary: true, uncertain: null,
  };
}

/** A city's (or county's) zips ranked by price: each zip's median sale price over the window asked (12 months unless
 *  asked), from the research index's windows (city-summary.ts ZIP_PRICE_TOPIC), the cheapest first when asked. */
export async function zipPriceFacts(data: ResearchData, u: Understanding, t: Target): Promise<Fact[]> {
  const w = { ...u, months: u.months ?? 12 };
  // a city whose sales carry no zip (Denver): said, not blamed on the 5-sale minimum
  if (!t.area && t.city && data.market) {
    const city = windowFigure(data.market, t, u.propertyType, w.months);
    const zipped = data.zipsOfCity(t.city, t.state).some((z) => (windowFigure(data.market, { zip: z, state: t.state }, u.propertyType, 24)?.sales ?? 0) > 0);
    if (city && city.sales > 0 && !zipped) return [missing('trends', t, `I don't have a ranking of the zips of ${t.city}, ${t.state}: its ${salesSaid(city.sales, `arm's-length ${TYPE_WORDS[u.propertyType]} sale`)} in the ${w.months} months to ${windowEndSaid(data.market, t, w.months, city.asOf)} carry no zip code in the source, so no zip has a figure; the city-wide median sale price can be asked instead`)];
  }
  const make = async (zip: string, primary: boolean): Promise<Fact> => {
    const z: Target = { state: t.state, zip, ...(data.zips.get(zip)?.city ? { city: data.zips.get(zip)!.city } : {}), from: t.from };
    const where = placeName(data, z);
    return { ...windowPriceFact(data, w, z, where, null) ?? missing('trends', z, data.market ? `We have no sales for ${where}` : 'Sale counts are not part of this build'), primary };
  };
  // both ends asked ("cheapest and most expensive zips"): as many named at each end
  const both = figureDirection(u.query.toLowerCase(), RANK.price.figure) === 'both';
  const out = await cityZipFacts(data, t, make, ZIP_PRICE_TOPIC(TYPE_WORDS[u.propertyType]!, u.lowEnd, both), u.targets.length > 1, u.lowEnd, topAsked(u.query));
  // zips mailed as the city with sales in the window that its geo lookup does not list (Sacramento's 95842 ...): not
  // ranked, said with their sales (review 20: 17 of Sacramento's 26 zips ranked, the rest left out unsaid)
  if (t.city && !t.area && !t.hood && out[0] && !out[0].zip && out[0].source) {
    const listed = new Set(data.zipsOfCity(t.city, t.state)), lc = t.city.toLowerCase();
    const outside = [...data.zips].filter(([z, p]) => p.state === t.state && p.city.toLowerCase() === lc && !listed.has(z))
      .map(([z]) => ({ z, n: windowFigure(data.market, { zip: z, state: t.state }, u.propertyType, w.months)?.sales ?? 0 }))
      .filter((x) => x.n > 0).sort((a, b) => b.n - a.n || a.z.localeCompare(b.z));
    if (outside.length) out[0].sentence += `; ${plural(outside.length, 'more zip')} mailed as ${t.city} (${outside.map((x) => `${x.z} ${salesSaid(x.n, 'sale')}`).join(', ')}) ${outside.length === 1 ? 'is' : 'are'} not among the zips of its geo lookup (the Census place's), so ${outside.length === 1 ? 'it is' : 'they are'} not ranked`;
  }
  return out;
}

/** Price per sqft of a city none of whose window's sales has a living area (Connecticut's files record none): said
 *  for the city, with the window's median sale price, rather than one zip's "fewer than 5"; null when some have one. */
export function cityNoAreaFact(data: ResearchData, u: Understanding, t: Target, months: number): Fact | null {
  if (!t.city || t.area) return null;
  const w = windowFigure(data.market, t, u.propertyType, months);
  if (!w || w.sales < WINDOW_MIN_SALES || w.withArea > 0) return null;
  const where = `${t.city}, ${t.state}`, noun = TYPE_WORDS[u.propertyType]!;
  return {
    intent: 'comps', target: t, value: `no price per sqft (no living area); median ${money(w.median!)} (${plural(w.sales, 'sale')})`,
    sentence: `${where} had ${plural(w.sales, `arm's-length ${noun} sale`)} in the ${months} months to ${w.asOf}${windowGap(data, t, windowMonths(w.asOf, months), w.asOf)}, but none of them has a living area in the source, so no zip of the city has a price per sqft; their median sale price was ${money(w.median!)}`,
    detail: ['Price per sqft needs 5 or more sales with a recorded living area.'],
    source: windowSource(where, noun, w), confidence: 'medium', primary: true, uncertain: null,
  };
}

/** Why a zip has no list-to-sale ratio (the comps' rule, warehouse/docs/market.md "Days on market / list-to-sale"):
 *  too few of its sales carry a list price, and Redfin's zip snapshots give an average sale-to-list, not the median the
 *  ratio is, so they never stand in for it. */
export const NO_RATIO = "too few of the sales records carry a list price (the Redfin zip snapshots give an average sale-to-list, not a median, and are not used for it)";

/** The list-to-sale ratio asked of a city: the facts of its zips that have one lead; with none, that it is not
 *  available there leads, and the city's comparable-sales facts follow as support. */
export function listRatioFacts(t: Target, facts: Fact[]): Fact[] {
  const rated = facts.filter((f) => f.zip?.ratio != null);
  if (rated.length === 0) return [missing('comps', t, `The list-to-sale ratio is not available for ${areaName(t)}: ${NO_RATIO}`), ...facts.map((f) => ({ ...f, primary: false }))];
  return [...rated.map((f) => ({ ...f, primary: true })), ...facts.filter((f) => !rated.includes(f)).map((f) => ({ ...f, primary: false }))];
}

/** Why a change has no start month `first` (changePct's rules, in its order): the series does not reach back that far,
 *  the month is not covered by the source files (`covered`, month-cover.ts: never "0 sales" for it), the month had too few sales, its sales are of another subtype mix than the end month's (`mix`, price-mix.ts), its
 *  sources do not cover all of it (the trends shard's `complete`), or its source recorded it in part (`complete` false
 *  in a covered month: under half of the source's sales of the months around it, price-index.ts partialMonths). */
export function noChangeReason(months: readonly string[], points: readonly LevelPoint[], first: number, complete?: readonly boolean[], mix?: readonly Mix[], last?: number, covered?: readonly boolean[]): string {
  // the window starts before the series' first month: the data's own first sales are said when they are later than it
  // (Seattle's 2014-05, not the 60-month series' 2010-06); else the series' start
  const firstSale = points.findIndex((p) => p.n > 0);
  if (first < 0) return firstSale > 0 ? `${endedEarly(months, points, last, complete)}the data does not reach back that far (its first sales are in ${months[firstSale]})${gapBack(months, points, first, last, covered, complete)}` : `the series does not reach back that far (it starts in ${months[0]})`;
  const n = points[first]!.n;
  // no sale at or before the start month: the data begins later
  if (points.slice(0, first + 1).every((p) => !p.n)) return `${endedEarly(months, points, last, complete)}the data does not reach back that far (its first sales are in ${months[points.findIndex((p) => p.n > 0)] ?? months.at(-1)})${gapBack(months, points, first, last, covered, complete)}`;
  // a month the files do not cover (NYC's 2022-04..2023-02, Connecticut's 2021) has no count of sales (review 16:
  // Queens' "2023-02 had 0 sales", New Canaan's "2021-09 had 0 sales")
  if (covered?.[first] === false && (n < CHANGE_MIN_SAMPLE || points[first]!.level == null)) return notCoveredWords(months, covered, first, n);
  if (n < CHANGE_MIN_SAMPLE || points[first]!.level == null) return `${months[first]} had ${plural(n, 'sale')}, fewer than ${CHANGE_MIN_SAMPLE}`;
  if (last !== undefined && mix && complete?.[first] !== false && !comparable(mix, first, last)) return mixWords({ month: months[first]!, n, mix: mix[first]! }, { month: months[last]!, n: points[last]!.n, mix: mix[last]! });
  if (complete?.[first] === false && covered?.[first] === false) return `${months[first]} is not covered whole by its sources (a file starts or ends inside it), so the month is taken as incompletely recorded`;
  return `${months[first]} had ${plural(n, 'sale')}, but its source recorded under half as many sales in all that month as in the months around it, so the month is taken as incompletely recorded (a file's first or last months often are)`;
}

/** How many sold above or below a price asked (asked.ts price_band): not kept, said before each figure of the sales
 *  that answers (a window's, a year's, a month's, a county's zips'), at most medium. One rule for every window: before,
 *  the year path answered "57 arm's-length single-family sales" for "sales above $2 million in Manhattan in 2023". */
export function bandNote(f: Fact): Fact {
  if (!f.primary || f.source === null || f.sentence.startsWith(BAND_NOT_KEPT)) return f;
  const s = f.sentence.startsWith('In ') ? `in ${f.sentence.slice(3)}` : f.sentence;
  return { ...f, sentence: `${BAND_NOT_KEPT}: ${s}`, confidence: minConf(f.confidence, 'medium') };
}

/** "How many homes sold" with no type named: the single-family count leads, and the window's condo and multi-family
 *  sales are said with it, and all residential sales together (before, "How many homes sold in Brooklyn last year?"
 *  gave its 1,683 single-family sales alone, as if they were every home sold). */
function otherTypes(data: ResearchData, u: Understanding, t: Target, w: WindowFigure): string {
  if (u.propertyType !== 'sfr' || /single[- ]family|\bsfr\b|\bhouses?\b|\bdetached\b|townho|row ?house/i.test(u.query)) return '';
  const more = (['condo', 'multi'] as const).map((type) => ({ type, f: windowFigure(data.market, t, type, w.months) })).filter((x) => x.f && x.f.asOf === w.asOf && x.f.sales > 0);
  if (!more.length) return '';
  // (a total beside a group of 1-4 would give that group's count away: said only when every part may be)
  const all = w.sales + more.reduce((a, x) => a + x.f!.sales, 0);
  const total = [w.sales, ...more.map((x) => x.f!.sales)].every((n) => n === 0 || n >= WINDOW_MIN_SALES) ? `, ${plural(all, 'residential sale')} in all` : '';
  return ` (single-family only: ${more.map((x) => salesSaid(x.f!.sales, `${TYPE_WORDS[x.type]} sale`)).join(' and ')} too${total})`;
}
