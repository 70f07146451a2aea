// The figures a research question asks for by name (pure, no imports but year-ago.ts): days on market, a flip margin or
// count, the distressed pipeline, permit counts, sales counts, bedrooms, LLC buyers, a city's zips by price, the
// list-to-sale ratio, the notice before a rent increase; and the distress words and the direction of a comparison
// (low or high end) intent.ts reads. Rules:
// warehouse/docs/research.md "Intents".
import { YEAR_AGO } from './year-ago.ts';
import { HEAT } from './heat-words.ts';

/** A figure asked by name that a topic's usual answer may not lead with (or may not have): each is answered or said
 *  to be missing. dom: days on market; flip_margin: the flip margin; distress: the distressed (foreclosure, lien) count;
 *  permit_count: renovation permit counts; sales_count: how many homes sold; bedrooms: a price by bedroom count;
 *  zip_price: a city's zips ranked by sale price ("cheapest zip in Seattle"); list_ratio: the list-to-sale ratio;
 *  increase_notice: the notice a landlord must give before raising the rent (never the nonpayment notice); flips: how
 *  many flips (none recorded is said); flip_share: the share of sales that were flips (not kept: said); price_band: how
 *  many sold above or below a price (not kept: said); mean: a mean (average) asked (the medians kept are said to be);
 *  change: a price change asked beside a price level ("lowest price but highest growth"): both given, each ranked. */
export type Asked = 'dom' | 'flip_margin' | 'flips' | 'flip_share' | 'price_band' | 'mean' | 'distress' | 'permit_count' | 'sales_count' | 'bedrooms' | 'llc' | 'zip_price' | 'list_ratio' | 'increase_notice' | 'change';

/** a count of foreclosure, lien or distress filings (or suits: "lien foreclosure suits in Louisville", review 26): the
 *  distressed pipeline of the investor overview, not the law; one filing had or open ("properties in Pittsburgh have
 *  an open foreclosure filing", "open foreclosures": h67ask2, before the law and no sales) */
export const DISTRESS_COUNT = /foreclosure (pipeline|counts?|filings|cases|suits|inventory|activity|numbers?|rate)|\blien (filings|suits)\b|how many (\w+ ){0,2}(foreclosures|liens|lien cases|distressed|tax (lien |deed )?sales)|number of (\w+ )?(foreclosures|liens|distressed)|\bforeclosures (are|were|filed|in (the )?(last|past))\b|\b(open|active|pending|recent|new) (foreclosure|lien) (filing|case|suit)s?\b|\b(open|active|pending) foreclosures?\b|\b(have|has|with|had) (an? |any )?(open |active |pending )?foreclosure (filing|case|suit)s?\b|how many [^.?!]{0,40}\b(are|is|were|currently|now) in (pre-?)?foreclosure\b/;
/** properties in distress asked about (foreclosures as events, pre-foreclosures, tax-delinquent or distressed
 *  properties, filings; tax liens of a year, "tax liens in Louisville in 2012", or tax lien filings): the distressed
 *  pipeline or a period's filings, never a ranking of another figure nor, alone, the foreclosure law */
export const DISTRESS_ASKED = new RegExp(`${DISTRESS_COUNT.source}|pre-?foreclosures?\\b|\\bdistress(ed)?\\b|\\bforeclosures\\b|\\bforeclosed (homes|houses|properties)\\b|tax[- ]delinquen|\\bforeclosure (listings|properties|homes|houses)\\b|\\btax (liens|(lien )?sales)\\b(?=.*(?<![\\d$#])\\b(19|20)\\d{2}\\b)|\\btax lien (filings|cases)\\b`);
/** the foreclosure law asked about (with distress words too, "foreclosure process and filings"): the process record */
export const FORECLOSURE_LAW = /judicial|\btype\b|process|\blaws?\b|rules?\b|statut|power of sale|how (do|does) (a )?foreclosures? work|redeem|redemption/;
/** Distressed properties asked about (lower-cased text); "how do foreclosures work" is the law alone. */
export const asksDistress = (q: string): boolean => DISTRESS_ASKED.test(q) && !(FORECLOSURE_LAW.test(q) && !DISTRESS_COUNT.test(q) && !/distress|pre-?foreclosure|delinquen/.test(q));
/** "how many distressed properties", "how many properties in Pittsburgh have an open foreclosure filing": a count of
 *  filings, not of sales */
export const NOT_SALES = /how many [^.?!]{0,30}\b(distress|foreclos|delinquen|liens?\b|tax (lien |deed )?sales\b)|how many (\w+ ){0,3}(properties|homes|houses|parcels)\b(?![^.?!]{0,40}\b(sold|sales?|sell)\b)[^.?!]{0,40}\b(have|has|had|with|in|under)\b[^.?!]{0,20}\b(foreclos|liens?\b|delinquen|distress)/;
/** A city's zips ranked by price ("cheapest zip codes in Seattle", "which zip in Brooklyn is most expensive"): their
 *  median sale prices over a window (with a per-sqft or comps word, their prices per sqft) */
export const ZIP_RANK = new RegExp(String.raw`\b(cheap|cheapest|cheaper|affordable|least expensive|expensive|priciest|pricier|pricey|(lowest|highest)[- ]priced)\b.{0,25}\b(zips?|zip ?codes?)\b|\b(zips?|zip ?codes?)\b.{0,40}\b(cheapest|least expensive|most expensive|priciest|most affordable|(lowest|highest)[- ]priced|(highest|lowest) (median |average |typical )?(sale |home |house )?prices?)\b`
  // zips ranked "by" a price ("top 5 zips in Queens by median price in 2023", "rank the zips by price"), not by its
  // change ("by price growth": zip-changes.ts)
  + String.raw`|\b(zips?|zip ?codes?)\b.{0,40}\bby (the )?(median |average |typical )?(sale |sales |home |house )?prices?\b(?!\s+(growth|changes?|increases?|appreciation|gains?|trends?|rises?|declines?|drops?))`);
/** A mean (average) price asked ("average home price", "mean sale price", "prices on average"), not the verb "mean". */
export const MEAN = /\b(mean|average|avg)\.?\s+((sale|sales|home|homes|house|condo|single[- ]family|property|selling|purchase|list|listing)\s+){0,2}(prices?|values?|costs?|per\s+(sq|square))\b|\b(prices?|values?|costs?)\s+(on )?average\b|\b(average|avg)\.?\s+sales?\b(?!\s+(counts?|volume|per|a))/;
/** The list-to-sale (sale-to-list) ratio asked by name. */
const LIST_RATIO = /list[- ](price[- ])?to[- ]sale|sale[- ](price[- ])?to[- ]list|over asking|under asking|(above|below|over|under) (the )?(asking|list) price/;

/** The notice before a rent increase ("how much notice to raise rent", "rent increase notice"). */
const INCREASE_NOTICE = /\bnotice\b[^.?!]{0,40}\b(rais\w*|increas\w*|hik\w*)\b[^.?!]{0,12}\brents?\b|\brent (increase|hike|raise)s?\b[^.?!]{0,30}\bnotice\b|\bnotice (of|for|before) (a |an )?rent (increase|hike|raise)/;

/** Home sales asked beside another market topic ("sales and foreclosures in pittsburgh", "permits and home sales"):
 *  the sales are a topic of their own, never dropped for the other (a tax, sheriff or foreclosure sale is no such word). */
export const SALES_BESIDE = /(?<!\b(tax|sheriff|foreclosure|short|deed|lien|auction)\s)\b(home |house |condo |property )?(sales|prices)\s*(and|&|,|\+|plus)\s*(\w+\s+)?(foreclos\w*|permits?|liens?|distress\w*|flood\w*|superfund|investors?|investor activity|flips?|flipping|rehab\w*)\b|\b(foreclos\w*|permits?|liens?|distress\w*|flood\w*|superfund|investors?|investor activity|flips?|flipping|rehab\w*)\s*(and|&|,|\+|plus)\s*(home |house |condo |property )?(sales|prices)\b/;

/** Places compared by how many sold ("which has more sales, 98103 or 98117", "the most home sales", "sold fewer
 *  homes"): a sales count, not a price ("higher sales prices") */
export const SALES_COMPARED = /\b(more|most|fewer|fewest|less|least|higher|highest|lower|lowest|greater|greatest|biggest|largest|smallest)\s+(\w+\s+){0,2}sales\b(?!\s*(prices?|values?|to)\b)|\bsold (the )?(more|most|fewer|fewest) (\w+ )?(homes|houses|properties|condos)\b|\b(zips?|zip ?codes?|boroughs?|cities|towns|neighbou?rhoods)\b.{0,40}\bby (the )?(number of |count of )?(\w+ )?sales\b(?!\s*(prices?|values?)\b)|\b(busiest|quietest|most active)\s+(\w+\s+)?(neighbou?rhoods|zips|zip ?codes)\b/;

/** The low end of a figure compared ("cheapest", "fewer", "less expensive", "more affordable"): multi-word phrases
 *  first, so "more affordable" is not read again as "more". */
const DIRECTION_LOW = /\b(least expensive|less expensive|most affordable|more affordable|cheap|cheapest|cheaper|affordable|inexpensive|lowest|lower|least|less|fewest|fewer|smallest|smaller|safest|safer)\b/g;
/** The high end of a figure compared ("most expensive", "more sales", "highest"). */
const DIRECTION_HIGH = /\b(highest|higher|most|more|largest|larger|biggest|bigger|greatest|greater|expensive|pricier|priciest|pricey|dearest|costliest|costlier|riskiest|riskier)\b/;
/** The end a comparison asks for: one of low or high words only, else null. */
export function readDirection(lower: string): 'high' | 'low' | null {
  const low = new RegExp(DIRECTION_LOW.source).test(lower);
  const high = DIRECTION_HIGH.test(lower.replace(DIRECTION_LOW, ' '));
  return low === high ? null : low ? 'low' : 'high';
}
/** The parts of a question each figure's own direction is read from ("lowest price | but highest growth"). */
const CLAUSES = /\b(?:and|but|while|whereas|yet|though|although|with|plus)\b|[,;:]/;
/** Days on market's own direction words: the fastest is the lowest ("which sells faster"), the slowest the highest. */
const SPEED_LOW = /\b(fastest|quickest|faster|quicker|most quickly|shortest|shorter)\b/;
const SPEED_HIGH = /\b(slowest|slower|longest|longer)\b/;
/** The end asked of one figure, whose words are `figure` ("cheap|expensive|price" for a sale price): the question's one
 *  direction (readDirection) when it has one; with both low and high words ("lowest price but highest growth"), the
 *  direction of the parts naming the figure, 'both' when they ask both ends ("cheapest and most expensive zips"); null
 *  when neither. `speed`: days on market, read first from speed words (fastest: the lowest). */
export function figureDirection(lower: string, figure: RegExp, speed = false): 'high' | 'low' | 'both' | null {
  if (speed && SPEED_LOW.test(lower) !== SPEED_HIGH.test(lower)) return SPEED_LOW.test(lower) ? 'low' : 'high';
  const whole = readDirection(lower);
  const low = new RegExp(DIRECTION_LOW.source).test(lower);
  if (whole !== null || !low) return whole;
  const dirs = new Set(lower.split(CLAUSES).filter((c) => figure.test(c)).map(readDirection).filter((d) => d !== null));
  return dirs.size === 2 ? 'both' : dirs.size === 1 ? [...dirs][0]! : null;
}
/** A price change asked ("growth", "appreciation", "price change", "rising") beside a price level ("lowest price",
 *  "cheapest", "median price"): both are answered, each ranked by its own direction. */
const CHANGE_ASKED = /(?<!\b(rent|rental|population|job|jobs|income|employment|wage) )\bgrowth\b|apprecia\w*|\bprice (change|gain|increase|growth)s?\b|\b(rising|risen|gains?|gaining)\b|\bgone up\b/;
const PRICE_ASKED = /\b(lowest|highest|lower|higher|low|high|median|average|typical)\s+((sale|sales|home|house)\s+)?prices?\b|\b(cheap|cheapest|cheaper|affordable|inexpensive|least expensive|less expensive|most expensive|more expensive|expensive|priciest|pricier)\b/;

/** How fast homes sell ("how fast are homes selling", "how long do houses take to sell"): days on market. */
export const HOW_FAST = /how (long|fast|quickly) (do |are |is |does )?(homes|houses|properties|condos|a (home|house)) (take to |taking to )?(sell|selling|sold)\b|\b(sells?|selling|sold)( the)? (fastest|quickest|slowest|most quickly|faster|quicker|slower)\b|\b(fastest|quickest|slowest|faster|slower)[- ](selling|sales?|to sell)\b/;

/** Places ranked by how fast homes sell ("which zip sells fastest", "where do homes sell the quickest"): by days on
 *  market, the fastest its lowest; never by another figure where there is none. */
export const SPEED_RANK = /\b(fastest|quickest|slowest|faster|quicker|slower|most quickly)\b/;

/** Sales above or below a price asked with no "how many" ("sales over $1 million in Greenwich in 2023"): a count of
 *  sales in a price band, which is not kept (said), answered with the count and median of all the sales. */
export const SALES_BAND = /\bsales?\s+(?:of\s+)?(?:over|above|under|below|more than|less than|greater than)\s*\$\s*\d/;
/** How many sold above or below a price is not kept: said first wherever a count or price of sales answers such a
 *  question, whatever the window (sales-facts.ts bandNote). */
/** Homes asked by a price bound ("homes under 300k in 98118", "houses below $500,000"; "for sale" asks listings, said
 *  not kept): no figure is kept by price, so the answer says so before the sales' median (before, the median alone, as
 *  if it were the homes asked). */
const HOMES_PRICED = /\b(homes?|houses?|properties|condos?|townhomes?|townhouses?)\s+(sold\s+|selling\s+)?(priced\s+)?(under|below|less than|over|above|more than)\s*\$?\s*\d/;
/** The same with a few words between ("3 bed homes in 98103 under 500k": h77ask, the bound was dropped unsaid), the
 *  bound then a price by its form ($, k, m, million, a number of 5 digits or more, or with thousands' commas). */
const HOMES_THEN_PRICE = /\b(homes?|houses?|properties|condos?|townhomes?|townhouses?)\b(?:\s+(?!and\b|or\b|vs\b)[\w,'-]+){1,4}?\s+(under|below|less than|over|above|more than)\s*(?:\$\s*\d|\d[\d.]*\s*(?:k|m|mm|million|thousand)\b|\d{5,}\b|\d{1,3}(?:,\d{3})+\b)/;
export const BAND_NOT_KEPT = 'How many sold above or below a price is not kept, only the count and median of all the sales';

/** A home's feature asked as a filter ("waterfront homes in King County", "homes with a pool"): no figure is kept by
 *  feature (King County's file records waterfront, but no sales figure is filtered by it), so the answer says its
 *  figures are of all the sales of the type, never as if filtered. */
const FEATURE = /\b(water[- ]?front|lake[- ]?front|ocean[- ]?front|beach[- ]?front|river[- ]?front|bay[- ]?front|water[- ]?views?|ocean[- ]?views?|lake[- ]?views?|(?:with|has|have|having) (?:a |an )?(?:swimming )?(?:pool|view|garage|basement|yard|porch|fireplace)s?|new[- ]construction|newly built|fixer[- ]uppers?|gated)\b/;
/** A home's age asked ("homes over 50 years old", "built before 1950"): a feature, never a window of time (h78ask). */
export const HOME_AGE = /\b(?:over|more than|older than|at least|under|less than|newer than)\s+\d+\s+(?:years?|yrs?)\s+old\b|\b\d+\+?\s+(?:years?|yrs?)\s+old\b|\bbuilt (?:before|after|prior to) (?:19|20)\d{2}\b/;
export function featureGap(lower: string): string | null {
  const m = FEATURE.exec(lower) ?? HOME_AGE.exec(lower);
  return m ? `"${m[0]}" is not a filter the service applies: no sale count or price is kept by a home's features (waterfront, view, pool, garage, age), so the figures given are of all the sales of the type, filtered by no feature` : null;
}

/** Permits asked by a kind of work ("renovation permits in 60614") or over a window of months ("building permits in
 *  chicago last quarter", "in the last 3 months"): their count (h67ask: before, the rehab score, which counts none of
 *  them as asked); "permits in 60614" alone is still the rehab score (research.md "Permit counts"). */
/** Demolitions named as things counted, not as a kind of permit ("demolition permits" reads the permit words above). */
const DEMOLISHED = /\bdemolitions\b|\btear[- ]?downs\b/;
const PERMIT_COUNT_WORDS = /\b(renovation|remodel(ing)?|alteration|addition|repair|demolition)s? permits?\b|\b(last|past|previous) (quarter|three months|\d{1,2} months|(two|three|four|five|six|nine|twelve) months)\b|\bq[1-4]\b|\bquarter\b/;

/** The figures a question asks for by name (Asked). */
export function askedFigures(q: string): Asked[] {
  const out: Asked[] = [];
  if (new RegExp(`days on market|\\bdom\\b|time on market|${HOW_FAST.source}`).test(q)) out.push('dom');
  if (/flip (margin|profit|return|spread)|margins? on flips|flipp(ing|ers?) (margin|profit|return)/.test(q)) out.push('flip_margin');
  if (/\b(how many|number of|count of|any) (\w+ )?flips\b|\bflips? (count|volume)\b|\bflips? (are|were) (there|recorded|done)/.test(q)) out.push('flips');
  if (asksDistress(q)) out.push('distress');
  // permits with a count word, or with a period ("permits in 37206 in 2023", "permits issued last year"), or of new
  // construction (review 31: "new construction permits in 37206" got the rehab score, which counts none): their count
  // demolitions or teardowns asked with no "permits" word ("demolitions in nashville 2023", h68ask: Nashville's rehab
  // score, which counts none, answered): the demolition permits counted
  if (DEMOLISHED.test(q) || /\bpermits?\b/.test(q) && (/\b(most|fewest|how many|number of|count)\b|\b(issued|pulled|filed)\b/.test(q) || /(?<![\d$#])\b(19|20)\d{2}\b(?!\s*(sq|square))|'\d{2}\b|\b(last|this|past) year\b/.test(q) || /\bnew[- ](construction|build\w*|homes?|houses?)\b[^.?!]{0,20}\bpermits?\b|\bconstruction permits?\b/.test(q) || PERMIT_COUNT_WORDS.test(q))) out.push('permit_count');
  if ((/how many (\w+ ){0,3}(homes|houses|properties|condos|sales)\b/.test(q) && !NOT_SALES.test(q)) || SALES_BAND.test(q) || /number of (\w+ )?(home |house )?sales|sales? (counts?|volume)/.test(q) || SALES_COMPARED.test(q)) out.push('sales_count');
  if (/\bllcs?\b|corporate (buyers|owners)/.test(q)) out.push('llc');
  if (/\b(share|percent(age)?|proportion|fraction|%) of (\w+ ){0,3}(sales|homes|purchases|transactions|deals)\b[^.?!]{0,30}\bflip|\bflip (share|rate|percentage)\b|\bflips? as a (share|percent)/.test(q)) out.push('flip_share');
  if (/\b(over|above|more than|greater than|under|below|less than)\s*\$?\s*\d[\d,.]*\s*(k|m|mm|million|thousand)?\b|\$\s*\d[\d,.]*\s*(k|m|million)?\s*(or more|or less|and up|plus)\b/.test(q) && (out.includes('sales_count') || /\bhow many\b|\bnumber of\b/.test(q) || HOMES_PRICED.test(q) || HOMES_THEN_PRICE.test(q))) out.push('price_band');
  if (MEAN.test(q)) out.push('mean');
  if (/\d+[- ]?(bed(room)?s?|br|bd)\b|\b(one|two|three|four|five)[- ]bed(room)?s?\b/.test(q)) out.push('bedrooms');
  if (ZIP_RANK.test(q)) out.push('zip_price');
  if (LIST_RATIO.test(q)) out.push('list_ratio');
  if (INCREASE_NOTICE.test(q)) out.push('increase_notice');
  // a year back compared with ("compared to a year ago", "vs last year"): the 12-month change beside the level (year-ago.ts)
  if ((CHANGE_ASKED.test(q) && PRICE_ASKED.test(q)) || YEAR_AGO.test(q) || HEAT.test(q)) out.push('change');
  return out;
}

const WORD_N: Record<string, number> = { three: 3, five: 5, ten: 10 };
/** The number of places a list asks for ("top 5 zips", "top ten"), or null. */
export function topAsked(query: string): number | null {
  // "5 cheapest zips" as "top 5" (h78ask: before, 3 named)
  const m = /\btop (\d{1,2}|three|five|ten)\b|\b(\d{1,2}|three|five|ten) (?:cheapest|priciest|most expensive|least expensive|lowest[- ]priced|highest[- ]priced|best|worst|hottest)\b/.exec(query.toLowerCase());
  const k = m?.[1] ?? m?.[2];
  return k ? WORD_N[k] ?? Number(k) : null;
}
