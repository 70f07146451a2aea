// Understanding a research question (pure, no I/O): which intents (topics) it asks about, by phrase rules, with the
// places it names (places.ts), whether it compares or ranks places, and the property type and months it asks for.
// Rules: warehouse/docs/research.md.
import { findCounty, readCounties } from './county-place.ts';
import { EVERY_BOROUGH_READ } from './place-aliases.ts';
import { outsideTheCity } from './state-rest.ts'; import { PRICE_JUDGED, statePriceJudged } from './state-price-words.ts';
import { findPlaces, type Context, type Gazetteer, type Target } from './places.ts';
import { editDistance } from '../places/names.ts';
import { EACH_MONTH, parseMonths, parseYears, SERIES_MONTHS, WINDOWS_KEPT, type Window, type Years } from './years.ts'; import { periodFollowUp } from './year-ago.ts';
import { parsePropertyType, typeReadAs } from './type-words.ts';
import { evictionCounts, NOT_RECORDED, unrecordedParts, WHOLESALE_LAW } from './not-recorded.ts';
import { fromSpanish, isSpanish, SPANISH_ONLY, SPANISH_READ } from './spanish.ts';
import { parseQuarter } from './quarters.ts'; import { carriedPeriod, periodOnly } from './context-period.ts'; import { parseCategory } from './categories.ts'; import { heatRead } from './heat-words.ts';
import { readPeriods } from './period-read.ts'; import { followUpPeriod } from './follow-up-period.ts';
import { askedFigures, asksDistress, DISTRESS_ASKED, FORECLOSURE_LAW, HOW_FAST, NOT_SALES, readDirection, featureGap, HOME_AGE, SALES_BAND, SALES_BESIDE, SALES_COMPARED, ZIP_RANK, type Asked } from './asked.ts';
export type { Asked } from './asked.ts';

export type Intent =
  | 'eviction_notice' | 'eviction_timeline' | 'just_cause' | 'security_deposit' | 'foreclosure' | 'tax_sale'
  | 'redemption' | 'surplus' | 'rent_control' | 'adverse_possession' | 'comps' | 'trends' | 'rehab' | 'investor' | 'location'
  | 'legal_risk' | 'landlord_friendliness' | 'county';

/** The market topics, kept per zip or city, never per state: "prices in New York" is then New York City's market. */
const MARKET_INTENTS: ReadonlySet<Intent> = new Set(['comps', 'trends', 'rehab', 'investor', 'location']);

/** The legal topics a city or county may have its own record on (overlays): a county named is then the place. */
const LOCAL_LEGAL: ReadonlySet<Intent> = new Set(['rent_control', 'just_cause', 'eviction_notice', 'eviction_timeline']);

export const LEGAL_INTENTS: ReadonlySet<Intent> = new Set(['eviction_notice', 'eviction_timeline', 'just_cause', 'security_deposit',
  'foreclosure', 'tax_sale', 'redemption', 'surplus', 'rent_control', 'adverse_possession', 'legal_risk', 'landlord_friendliness']);

export interface Understanding {
  intents: Intent[];
  targets: Target[];
  comparison: boolean;
  /** "which states have the longest ..." with no place named; 'value': "which states ... after 7 years" (threshold);
   *  'category': "which states are tax deed states", "judicial foreclosure states" (category) */
  ranking: 'max' | 'min' | 'none' | 'value' | 'category' | null;
  /** the figure a 'value' ranking asks about: a number, its unit and whether it is exact, at most or at least */
  threshold: Threshold | null;
  /** the recorded kinds a 'category' ranking lists ("which states are tax deed states": ['deed']) */
  category: string[] | null;
  propertyType: 'sfr' | 'multi' | 'condo' | 'land' | 'commercial';
  months: number | null;
  /** a span of 25 to 60 months asked ("over the last 36 months", "over 3 years"): the price index change is given over
   *  it (the monthly series reaches 60 months); counts and medians over one window are kept for 3 to 24 months only */
  span: number | null;
  /** calendar years asked ("in 2022", "since 2020", "from 2019 to 2021"): answered from those years' months, or said to
   *  be outside the data; `to` null: "since" (to the data's end) */
  years: Years | null;
  /** places named that we do not cover (a territory, an unknown zip or city) */
  unknown: string[];
  /** readings worth telling the user (ambiguous "Washington"), in deep answers */
  notes: string[];
  /** a city chosen among namesakes with no state said ("Ontario" as Ontario, CA): said in every answer */
  readAs: string[];
  /** parts of the question the data cannot answer (said in the answer; confidence at most medium) */
  gaps: string[];
  /** a price level is asked (a median, average or typical sale price; "home prices"; how much homes cost), not price
   *  per sqft and not a change: the trends intent answers with its latest solid month's median sale price first */
  priceLevel: boolean;
  /** a topic no source records (property tax rates, rents, schools, crime): said plainly, never a near-miss record */
  notRecorded: string | null;
  /** the low end is asked for ("cheapest zips", "lowest risk"): a city summary details its lowest zip, not its highest */
  lowEnd: boolean;
  /** the end of a figure a comparison asks for, read once from its words (asked.ts readDirection): 'low'
   *  ("cheapest", "fewer", "more affordable"), 'high' ("most expensive", "more", "highest"), null (neither, or both);
   *  every compared figure's rank reads it (ranks.ts), null ranking the high end */
  direction: 'high' | 'low' | null;
  /** figures asked by name (see Asked) */
  asks: Asked[];
  /** the question with place names taken out (for full-text retrieval) */
  topicText: string;
  /** the question as asked (a distress question reads the words around a city: place-prefer.ts) */
  query: string;
}

export interface Threshold { value: number; unit: 'years' | 'months' | 'days' | 'pct'; op: 'eq' | 'le' | 'ge' | 'lt' | 'gt' }

/** "7 years", "within 30 days", "at least 12 months", "18% or more": the first number with a unit, and its bound. */
export function parseThreshold(q: string): Threshold | null {
  const m = /(\d+(?:\.\d+)?)\s*(%|percent\b|per cent\b|years?\b|yrs?\b|months?\b|days?\b)/i.exec(q);
  if (!m) return null;
  const w = m[2]!.toLowerCase();
  const unit = w.startsWith('y') ? 'years' : w.startsWith('m') ? 'months' : w.startsWith('d') ? 'days' : 'pct';
  const before = q.slice(Math.max(0, m.index - 24), m.index).toLowerCase();
  const after = q.slice(m.index + m[0].length, m.index + m[0].length + 16).toLowerCase();
  // "under", "less than", "over", "more than" are strict; "within", "up to", "at most", "or less", "at least", "or more" are not
  const op = /\b(within|up to|at most|no more than|max(imum)?( of)?)\s*$/.test(before) || /^\s*(or less|or fewer|or under|or shorter|or lower)\b/.test(after) ? 'le'
    : /\b(at least|no less than|min(imum)?( of)?)\s*$/.test(before) || /^\s*(or more|or longer|or higher|or greater|plus)\b/.test(after) ? 'ge'
      : /\b(under|less than|fewer than|shorter than|lower than|below)\s*$/.test(before) ? 'lt'
        : /\b(over|more than|longer than|greater than|higher than|above)\s*$/.test(before) ? 'gt' : 'eq';
  return { value: Number(m[1]), unit, op };
}

/** Finds the intents of a question (lowercased text). */
export function detectIntents(text: string): Intent[] {
  const q = text.toLowerCase();
  const found = new Set<Intent>();
  const evict = /\bevict|pay[- ]or[- ]quit|notice to (quit|vacate|pay)|\bunlawful detainer|\bforcible (entry|detainer)|\bpossession of (the )?(unit|property|premises)/.test(q);
  const notice = /\bnotice\b|pay[- ]or[- ]quit|pay or vacate|\bquit\b|non-?payment|late rent|unpaid rent|\bcure\b/.test(q);
  const timeline = /how long|how many (days|weeks|months)|timeline|how fast|how quick|duration|time ?frame|length of|take to|takes? (to )?(get|remove)|process take|from (notice|filing) to/.test(q);
  if (/just[- ]cause|good[- ]cause|no[- ]fault|for[- ]cause evict|without (a )?(cause|reason)|no[- ]cause|for no reason/.test(q)) found.add('just_cause');
  if (evict || (notice && /rent|tenant|landlord/.test(q))) {
    if (notice && !(/\beviction (process|timeline)\b/.test(q) && !/\bnotice\b/.test(q))) found.add('eviction_notice');
    if (timeline && !/how many days('|’)? notice|days of notice|notice period|notice (required|requirement)/.test(q)) found.add('eviction_timeline');
    if (!notice && !timeline && !found.has('just_cause')) { found.add('eviction_notice'); found.add('eviction_timeline'); }
  }
  if (/\bdeposits?\b/.test(q)) found.add('security_deposit');
  const taxCue = /\btax(es)?[- ](lien|deed|sale|certificate|foreclos|auction)|lien (or|vs\.?|versus) deed|deed (or|vs\.?|versus) lien|\blien state|\bdeed state|\b(tax )?lien (interest|rate)|tax lien|tax deed|bid[- ]down|surplus (proceeds|equity|funds)|tyler v|over-?bid|excess proceeds/.test(q);
  if (taxCue || (/interest rate|penalty rate/.test(q) && /\blien|\bdeed|\btax/.test(q))) found.add('tax_sale');
  if (/surplus|excess proceeds|tyler v|over-?bid|equity theft/.test(q)) {
    found.add('surplus');
    if (!/lien or|or lien|deed or|or deed|interest|rate|redemption|redeem/.test(q)) found.delete('tax_sale');
  }
  if (/\bredeem|\bredemption/.test(q)) {
    found.add('redemption');
    if (!/lien|deed|interest|rate|surplus|return/.test(q)) found.delete('tax_sale');
  }
  if (/foreclos|power of sale|trustee('s)? sale|judicial (or|vs\.?|versus) non|non-?judicial/.test(q) && !(taxCue && !/mortgage|judicial/.test(q))) {
    if (!DISTRESS_ASKED.test(q) || FORECLOSURE_LAW.test(q)) found.add('foreclosure');
  }
  if (/rent[- ](control|stabiliz|regulat|cap|increase|hike|ceiling|freeze)|caps? on rent|(raise|increase|hike) (the )?rents?|rent (can|may) (i|a landlord) (raise|increase)|preempt|statewide cap|annual (rent )?(cap|increase)|rent-stabilized/.test(q)) found.add('rent_control');
  if (/adverse possession|squatt|color of title|hostile possession|adversely possess/.test(q)) found.add('adverse_possession');
  if (/\bcomps?\b|comparable|\b(cheaper|pricier|more expensive|less expensive)\b|how much (is|does|do|are|would) (a |an )?(\d+[- ]?(bed(room)?|br|bd)s? )?(homes?|houses?|condos?)\b|\b(homes?|houses?|condos?|property|properties) (sale )?prices\b|sales? (counts?|volume)|how many (\w+ ){0,3}(homes|houses|properties|condos|sales)\b|number of (\w+ )?(home |house )?sales|price per (sq|square)|\$ ?\/ ?sq|ppsf|per square f|(median|average|typical) (sale |sales |home |house |condo )?(price|value)|home (prices|values)|house (prices|values)|sale prices|selling (for|price)|sold for|days on market|\bdom\b|list[- ](price[- ])?to[- ]sale|sale[- ](price[- ])?to[- ]list|over asking|under asking|what (do|are) (homes|houses|condos|properties) (sell|go|selling)|\b(homes?|houses?|condos?|properties|property) (sell|sold|selling|go|went|going) for\b|property values|home values|price trends?|how much (do|are|does) (homes|houses|a house|a home|condos)|\b(cheap|cheapest|cheaper|affordable|least expensive|expensive|priciest|pricey)\b.{0,25}\b(zips?|zip ?codes?|neighbou?rhoods?|areas?|parts)\b/.test(q) || TYPED_PRICE.test(q) || ZIP_RANK.test(q) || SALES_COMPARED.test(q) || SALES_BAND.test(q) || (HOW_FAST.test(q) && !evict)) found.add('comps');
  // "how many distressed properties": the pipeline's count, not a sales count (comps only with another price word)
  if (found.has('comps') && NOT_SALES.test(q) && !/\bcomps?\b|comparable|price|per (sq|square)|sold for|days on market|\bvalues?\b/.test(q)) found.delete('comps');
  // price over time: the trends index (a comps figure only when price per sqft or comps are asked too)
  if (/price (trends?|index|change|growth|history|appreciation)|(?<!\b(rent|rental|population|job|jobs|income|employment|wage) )\bgrowth\b|prices? (going|rising|falling|dropping|increas|decreas|up\b|down\b|grew|fell|rose|changed?|over time|trend|rise\b|fall\b|drop\b|climb|jump|declin|grow\b|go (up|down)\b)|apprecia|depreciat|year[- ]over[- ]year|\byoy\b|market (trend|direction)|how (have|did|are) (home |house )?(prices|values)|(home|house|property) values? (going|rising|falling|trend|change)|\b(prices|values)\b[^.?!]{0,40}\b(changed?|gone (up|down)|risen|fallen|dropped|grown)\b(?! hands)/.test(q) || (GONE_UP.test(q) && !/\brents?\b|\btax/.test(q))) {
    found.add('trends');
    if (!/\bcomps?\b|comparable|per (sq|square)|ppsf|\$ ?\/ ?sq/.test(q)) found.delete('comps');
  }
  if (/rehab|renovat|remodel|building permits?|renovation permits?|permit (activity|volume|counts?|data)|permits? (issued|filed|pulled)|(?<!\brent(al|als|ing)? )\bpermits? (in|for|of) (zip )?\d{5}\b|momentum|construction activity|fix[- ]and[- ]flip activity|improvement activity|\bdemolitions\b|\btear[- ]?downs\b/.test(q)) found.add('rehab');
  if (/\binvestors?\b.{0,40}\b(buy|bought|purchas|share|activ|flip|demand)|\b(buy|bought|purchas|share|activ)\w*\b.{0,40}\binvestors?\b|investor (activity|purchase|share|buying|overview|rate|demand|presence|market)|investors? (are |is )?(buying|active|purchas)|\bflip(s|ping|pers|ped)?\b|flip (velocity|margin)|distress(ed)? (pipeline|properties|inventory|deals|count)|pre-?foreclosure|\bllcs?\b|corporate (buyers|owners|investors)|institutional (buyers|investors)|(percent|share|how many) of .{0,30}\bbuyers\b|tax[- ]delinquen|investor purchase|cash buyers|how many investors|share of (sales|purchases) (to|by) investors/.test(q) || (/wholesal/.test(q) && !WHOLESALE_LAW.test(q))) found.add('investor');
  if (asksDistress(q)) found.add('investor');
  if (/\b(what|which|in what) count(y|ies)\b|\bcounty (is|are|of|for)\b.{0,30}\b(in|located)\b|\bcounty (is|of) \d{5}/.test(q)) found.add('county');
  if (/flood|superfund|hazardous|environmental|contaminat|toxic|\bepa\b|\bnpl\b|brownfield|pollut|fema|natural hazard/.test(q)) found.add('location');
  if (/legal risk|legal[- ]risk score|risk score|legal (climate|environment|landscape)|(legally|legal) risk(y|ier|iest)|market legal|investor actions/.test(q)) found.add('legal_risk');
  if (/landlord[- ]friendl|tenant[- ]friendl|friendl(y|iest|ier) (to|for) (landlords|tenants|investors)|pro[- ]landlord|pro[- ]tenant|landlord (profile|climate|score)|friendliness|favou?rable (to|for) landlords|best states? for landlords|\b(better|best|good|worse|worst|easier|easiest|harder|hardest|tougher|toughest)\b.{0,25}\bfor (landlords|tenants|renters)\b|\blandlord[- ](tenant )?(laws?|rules|regulations)\b/.test(q)) found.add('landlord_friendliness');
  // "texas vs florida for landlords", "is ohio good for a landlord": nothing else asked, the places' landlord
  // friendliness (before, full-text search answered with the deposit-cap record, which shares the word "landlord")
  if (found.size === 0 && /\bfor (a |the )?(landlords?|rental (property )?owners|owners of rentals)\b|\blandlords?\b.{0,20}\b(better|best|worse|worst|friendlier|easier|harder)\b/.test(q)) found.add('landlord_friendliness');
  // a lone "investor" word only when nothing else was asked
  if (found.size === 0 && /\binvestors?\b/.test(q) && /\bactivity|overview|market|buy|trends?\b|stats|statistics|data|numbers/.test(q)) found.add('investor');
  return [...found];
}

/** a change asked of a place or its prices ("has denver gone up in the last 2 years", "did Denver home prices go up") */
const GONE_UP = /\b(has|have|did|do|does|is|are|will)\b[^.?!]{0,40}\b(gone|go|went|going|moved|move) (up|down)\b|\b(has|have)\b[^.?!]{0,40}\b(risen|fallen|appreciated)\b|\b(zips?|zip ?codes?|neighbou?rhoods?|areas)\b[^.?!]{0,40}\b(falling|rising|declining|dropping|climbing|fell|rose|appreciating)\b/;
/** a price named with its property type: "single-family sale price", "single family home prices", "SFR price", "condo values" */
const TYPED_PRICE = /\b(single[- ]?family|sfrs?|sfhs?|condos?|condominiums?|town ?ho(use|me)s?|multi[- ]?family|duplex(es)?)( homes?| houses?| residences?)?( sale| sales| home| house)? (prices?|values?)\b/;
const PRICE_LEVEL = /\b(cheaper|pricier|more expensive|less expensive)\b|how much (is|does|do|are|would) (a |an )?(\d+[- ]?(bed(room)?|br|bd)s? )?(homes?|houses?|condos?)\b|\b(homes?|houses?|condos?|property|properties) (sale )?prices\b|(median|average|typical) (sale |sales |home |house |condo )?(price|value)|home (prices|values)|house (prices|values)|sale prices|selling price|\b(sell|sold|selling|go|went|going) for\b|property values|how much (do|are|does|is) (homes|houses|a house|a home|condos|a condo)( cost)?/;
/** what only the comps answer has: price per sqft, days on market, list-to-sale */
const COMPS_CUES = /\bcomps?\b|comparable|per (sq|square)|\$ ?\/ ?sq|ppsf|per square f|days on market|\bdom\b|list[- ](price[- ])?to[- ]sale|sale[- ](price[- ])?to[- ]list|over asking|under asking/;
/** A licence, registration or permit to rent out a home, either word order (licensing.ts answers it). */
export const LICENSING = /\b(licen[cs]e[sd]?|licensing|regist(er|ered|ering|ration|ry)|permits?|certificates?|inspections?)\b[^.?!]{0,40}\b(landlords?|rent(al|als|ing)?|lease|leasing|tenants?)\b|\b(landlords?|rent(al|als|ing)?|lease|leasing|tenants?)\b[^.?!]{0,40}\b(licen[cs]e[sd]?|licensing|regist(er|ered|ering|ration|ry))\b/i;
/** Places ranked by price ("which is cheapest", "the most expensive of"): with two or more places, a price comparison. */
const PRICE_RANK = /\b(cheap|cheapest|cheaper|affordable|inexpensive|least expensive|less expensive|most expensive|more expensive|expensive|priciest|pricier|pricey|costliest|costlier)\b/;
/** The low end of a figure asked for: a city summary then details its lowest zip. */
const LOW_END = /\b(cheap|cheapest|cheaper|affordable|inexpensive|least expensive|lowest|least|safest|fewest)\b/;

/** A market asked about as a whole: answered with its median sale price and change, and its investor activity. */
const MARKET_OVERVIEW = /\btell me about\b|\b(overview|summary|snapshot) of\b|^\s*(compare|how about|what about)\b|\b(housing|real estate|property|home|homes|house|condo) market\b|\bhow('?s| is| are)( the)?( [\w.'-]+){0,3} (market|things)\b|\bmarket (doing|like|looking|trending)\b|^\s*([\w.'-]+ ){1,3}(housing |real estate )?market\s*[?.!]?\s*$|\bmarket (overview|conditions|summary|snapshot|update|outlook)\b|\bgood (time|place|market|city) (to|for) (buy|invest)|\b(good|bad|smart|sound|wise|safe) (real estate |property )?investments?\b|\bworth (buying|investing)\b|\bshould (i|we) (buy|invest)\b|\b(best|top|good|great)\b[^?]{0,40}\bfor (real estate |property |rental )?(investors?|investing|investments?)\b/;
/** Home or sales words that make a question naming a zip or city a market question. */
const HOME_WORDS = /\b(homes?|houses?|median|medain|pirce|expensive|affordable|pricey|overpriced|(?:avg|average|typical) sales?|single[- ]family|condos?|co-?ops|townho(use|me)s?|properties|real estate|prices?|values?|multi[- ]?family|duplex(es)?|triplex(es)?|fourplex(es)?|[234][- ]?plex(es)?)\b|(?<!accessory )\bapartments\b|\b(commercial|industrial|retail|office|land|lot|multi[- ]?family|apartment|condo|home|house) (sales|prices?|values?)\b/;
const YEARLESS: Partial<Record<Intent, string>> = { comps: 'price per sqft', rehab: 'rehab momentum', investor: 'investor activity' };

/** Parses a question and its context into intents and places. */
export function understand(query: string, context: Context = {}, gaz: Gazetteer): Understanding {
  // a Spanish question: its common words read as English, said (spanish.ts)
  const es = fromSpanish(query), q = es.text;
  const { targets, unknown, notes, readAs, topicText } = findPlaces(q, context, gaz);
  if (es.read.length) readAs.unshift(SPANISH_READ(es.read));
  const pq = followUpPeriod(q, context, targets, readAs); // a follow-up's period relative to the context's, written out

  const intents = detectIntents(q);
  const lower = q.toLowerCase();
  // permits asked with no topic ("nashville permits", "Davidson County TN permits"): a place's building permits, below
  const permits = intents.length === 0 && /(?<!\brent(al|als|ing)? )\bpermits?\b/.test(lower) && !LICENSING.test(lower);
  // a per-zip market topic of a county ("which zip in King County has the highest price per sqft"): the county's zips
  // (any topic when the question names no other place: "foreclosures in allegheny county" is Pennsylvania's)
  readCounties(q, gaz, targets, targets.length === 0 || permits || intents.some((i) => i === 'comps' || i === 'rehab' || i === 'location' || i === 'trends' || i === 'investor'));
  // a county named for a local legal topic ("rent control in Montgomery County MD"): the county, whose own records lead
  // (legal-facts.ts); the state's rules still answer for it
  if (intents.some((i) => LOCAL_LEGAL.has(i)) && targets.length <= 1 && targets.every((t) => !t.city && !t.zip && !t.area)) {
    const county = findCounty(q, gaz, targets.map((t) => t.state));
    if (county?.area && !county.city && (targets.length === 0 || targets[0]!.state === county.state)) targets.splice(0, targets.length, county);
  }
  const notRecorded = intents.length === 0 ? NOT_RECORDED.find(([re]) => re.test(lower))?.[1] ?? (isSpanish(query) && !es.read.length ? SPANISH_ONLY : null) : null;
  // "how's the Seattle housing market?": its median sale price and change, and its investor activity
  const carried = notRecorded === null && !LICENSING.test(lower) ? carriedPeriod(pq, lower, topicText, context, targets, intents, readAs) : null; // "and in 98103?" {period: "2022"}: 2022's prices
  const overview = intents.length === 0 && notRecorded === null && MARKET_OVERVIEW.test(lower) && !periodOnly(q, lower, targets) && !carried; // "compare to 2021": its prices only
  if (overview) intents.push('trends', 'investor'); else if (notRecorded === null) heatRead(lower, targets.some((t) => t.zip || t.city || t.area), intents, readAs); // "is 37212 heating up" (heat-words.ts)
  let homeWords = false;
  // a place with only home or sales words ("homes in 95814", "Seattle prices over the last 2 years"): its sale prices
  // places compared by price ("which of brooklyn, queens and the bronx is cheapest"): their median sale prices too; a
  // place and a quarter only ("98103 in Q1 2015"): its sales of those months (quarters.ts); sales of a named period ("sales in
  // may of 2014 in seattle", "sales in queens between march and june 2022"): that period's, or a place's sales alone
  // ("Fairview sales", "sales in Seattle": before, a tax sale rule), a county's too ("King County sales 2015"); a follow-up
  // naming only a period (year-ago.ts)
  if (intents.length === 0 && (targets.some((t) => t.zip || t.city || t.area) || statePriceJudged(lower, targets)) && notRecorded === null && !LICENSING.test(lower) && (HOME_WORDS.test(lower) || PRICE_JUDGED.test(lower) || (parseQuarter(q) !== null && !permits) || (/\b(sales|sold)\b/.test(lower) && (parseYears(pq) !== null || parseMonths(pq).months !== null || EACH_MONTH.test(lower) || /^[\s?.!,]*(home |house |condo )?(sales|sold)( in| for| of)?[\s?.!,]*$/i.test(topicText))) || (targets.length >= 2 && PRICE_RANK.test(lower)) || carried !== null || periodFollowUp(lower, parseYears(pq) !== null, targets, readAs, context))) { intents.push('trends'); homeWords = true; }
  if (SALES_BESIDE.test(lower) && intents.length && !intents.some((i) => i === 'trends' || i === 'comps') && targets.some((t) => t.zip || t.city || t.area)) { intents.push('trends'); homeWords = true; } // "sales and foreclosures in X": both
  // "permits in chicago", "nashville permits": a city's building permits, read as its zips' rehab momentum as a zip's are
  // ("permits in 60614": detectIntents), summarised over its zips (city-summary.ts); a rental permit is licensing; a zip
  // of the context or named anywhere ("how many permits" with context {zip: 60614}) is that zip's (review 19 C19); a
  // county's ("Cook County permits") over its zips, as "building permits in Cook County" (review 20); none with a period: a place asked
  if ((intents.length === 0 || homeWords) && permits && notRecorded === null && (targets.some((t) => t.city || t.zip || t.area) || (targets.length === 0 && unknown.length === 0 && parseYears(pq) !== null))) intents.push('rehab');
  // "investors in denver": a place's investor overview (its investor share), not a full-text match of a lien rule
  if (intents.length === 0 && /\binvestors?\b/.test(lower) && targets.some((t) => t.zip || t.city) && notRecorded === null) intents.push('investor');
  const asks = askedFigures(lower);
  // a sale price asked with no per-sqft or comps word: a price level, the trends shard's median sale price; with a
  // change beside it ("lowest price but highest growth"), the price level and its change (asks 'change')
  const priceLevel = overview || homeWords || (intents.includes('comps') && (PRICE_LEVEL.test(lower) || TYPED_PRICE.test(lower) || ZIP_RANK.test(lower)) && !COMPS_CUES.test(lower))
    || (intents.includes('trends') && asks.includes('change') && !COMPS_CUES.test(lower));
  if (priceLevel && intents.includes('comps')) intents.splice(intents.indexOf('comps'), 1, ...(intents.includes('trends') ? [] : ['trends' as const]));
  // "New York State outside NYC": the build has no sales in the rest of the state, said (state-rest.ts); "prices in
  // New York": a market question reads the city, the market the build keeps (the state: "New York state", legal)
  if (intents.length && intents.every((i) => MARKET_INTENTS.has(i))) outsideTheCity(q, targets, unknown, gaz);
  const nyState = targets.findIndex((t) => t.state === 'NY' && !t.city && !t.zip && !t.area && t.from === 'query');
  if (nyState >= 0 && intents.length && intents.every((i) => MARKET_INTENTS.has(i)) && /\bnew york\b(?!\s+state\b)/.test(lower) && !/\bstate of new york\b/.test(lower)) {
    targets[nyState] = { state: 'NY', city: 'New York', from: 'query' };
    readAs.push('"New York" as New York City (New York, NY), whose market figures we keep; say "New York state" for the state');
  }
  // "flood risk in DC": the District is one city, Washington, DC, whose zips and market the market topics read
  const dc = targets.findIndex((t) => t.state === 'DC' && !t.city && !t.zip && !t.area);
  if (dc >= 0 && intents.length && intents.every((i) => MARKET_INTENTS.has(i)) && gaz.citiesByName.get('washington')?.some((c) => c.state === 'DC')) targets[dc] = { ...targets[dc]!, city: 'Washington' };
  const gaps: string[] = [];
  // a market question mixing in a topic no source records ("rents and the median sale price"): that part said missing
  if (intents.length && intents.every((i) => MARKET_INTENTS.has(i))) gaps.push(...unrecordedParts(lower));
  const evictions = evictionCounts(intents, lower); if (evictions) gaps.push(evictions); // not-recorded.ts
  if (intents.includes('redemption') && /foreclos|mortgage/i.test(q) && !/\btax/i.test(q)) {
    intents.splice(intents.indexOf('redemption'), 1);
    if (!intents.includes('foreclosure')) intents.push('foreclosure');
    gaps.push('We record redemption periods for tax sales only, not the right to redeem after a mortgage foreclosure');
  } else if (intents.includes('foreclosure') && /\bhow long\b|\btimelines?\b|\bhow (many|much) (days|weeks|months|time)\b|\bduration\b/i.test(q)) {
    gaps.push("We record whether a state's mortgage foreclosure goes through the courts, not how long it takes");
  }
  if (intents.includes('adverse_possession') && /squatt/i.test(q) && /\b(get|kick|throw|remove|removing|evict\w*)\b.{0,25}\bout\b|\bremov|\bevict/i.test(q)) {
    gaps.push('We record how long a squatter must hold a property to claim it by adverse possession, not how long removing a squatter takes');
  }
  // the notice recorded is the one to pay or quit: another ground's notice is said missing, not answered with it
  if (intents.includes('eviction_notice') && /\b(lease|rule|contract) (violation|breach)|\bviolat\w* (of )?(the |a )?(lease|rules?)|\bbreach|\bnon-?compliance|\bholdover|\bno[- ]fault|\bmonth[- ]to[- ]month|\bterminat\w* (a |the )?(tenancy|lease)|\bend (a |the )?(tenancy|lease)|\bnon-?renew/i.test(q) && !/\bnon-?payment|\bunpaid|\bpay (the )?rent|\brent (is )?(late|unpaid|not paid)/i.test(q)) {
    gaps.push('We record the notice to pay rent or move out (nonpayment), not the notice for a lease violation or for ending a tenancy');
  }
  if (intents.includes('security_deposit') && /\b(return|refund|give back|get (it |my deposit )?back|deduct|itemi[sz]|interest on)/i.test(q)) {
    gaps.push('We record the cap on security deposits, not the rules for returning them (deadlines, deductions, interest)');
  }
  // "which staets", "what sates": the word after which/what within one edit of "state(s)" is read as it
  const rq = q.replace(/\b(which|what)\s+([a-z]{4,7})\b/gi, (m, w: string, word: string) =>
    (word.toLowerCase() !== 'states' && word.toLowerCase() !== 'state' && Math.min(editDistance(word.toLowerCase(), 'states', 1), editDistance(word.toLowerCase(), 'state', 1)) <= 1 && !/^(stats?|stat[eu]s?)$/i.test(word) ? `${w} states` : m));
  const comparison = targets.length >= 2 || /\bcompare|comparison|\bversus\b|\bvs\.?\b|difference between|differ\b|side by side/i.test(q);
  let ranking: Understanding['ranking'] = null;
  let threshold: Threshold | null = null;
  let category: string[] | null = null;
  if (targets.length === 0 && /\b(which|what) states?\b|\bstates? (with|have|has|that|where)\b|\bwhere (is|are|do|does)\b|\brank|\blist (of )?(the |all )?(us )?states\b|\b(deed|lien|hybrid|judicial|foreclosure|sale) states\b|\b(best|worst|top)\b.{0,30}\bstates?\b|\b(most|least) [\w-]+( [\w-]+)? states?\b|\b(highest|lowest|longest|shortest|maximum|minimum|biggest|largest|smallest|strictest)\b.{0,50}\bstates?\b|\b(landlord|tenant|renter)[- ]friendly states\b/i.test(rq)) {
    threshold = parseThreshold(q);
    if (/\b(no|without)\b|\bdon'?t (have|require)|\bdo not (have|require)/i.test(q)) { ranking = 'none'; threshold = null; }
    else if (threshold) ranking = 'value';
    else if (!/\bleast (landlord|tenant|renter)[- ]friendly\b/i.test(q) && /longest|highest|most|maximum|biggest|largest|strictest|slowest|greatest|top|\bbest\b|\b(landlord|tenant|renter)[- ]friendly states\b/i.test(q)) ranking = 'max'; // "landlord-friendly states": the friendliest
    else if (/shortest|lowest|least|minimum|smallest|fastest|quickest|fewest|\bworst\b/i.test(q)) ranking = 'min';
    else if ((category = parseCategory(q.toLowerCase(), intents))) ranking = 'category';
    // landlord friendliness is ranked by its landlord score: the best (most friendly) for tenants is its lowest
    if (intents.includes('landlord_friendliness') && (ranking === 'max' || ranking === 'min') && /\b(tenants?|renters?)\b/i.test(q) && !/\blandlords?\b/i.test(q)) ranking = ranking === 'max' ? 'min' : 'max';
  }

  const lowEnd = LOW_END.test(lower);
  const direction = readDirection(lower);
  // the notice before a rent increase: a rent topic, never the nonpayment eviction notice (unless an eviction is asked)
  if (asks.includes('increase_notice') && !/\bevict|pay or quit|non-?payment|late rent|unpaid rent/.test(lower)) {
    for (const i of ['eviction_notice', 'eviction_timeline'] as const) if (intents.includes(i)) intents.splice(intents.indexOf(i), 1);
    if (!intents.includes('rent_control')) intents.push('rent_control');
  }
  // foreclosures of a state ("foreclosures in Texas"): filings are counted per city, so the state's foreclosure law too
  if (asks.includes('distress') && /foreclos/.test(lower) && !intents.includes('foreclosure') && targets.length && targets.every((t) => !t.city && !t.zip && !t.area)) intents.push('foreclosure');
  // how many sold: the count of the window's sales (the trends intent answers it), not a price per sqft
  if (asks.includes('sales_count') && intents.includes('comps') && !COMPS_CUES.test(lower)) intents.splice(intents.indexOf('comps'), 1, ...(intents.includes('trends') ? [] : ['trends' as const]));
  if (asks.includes('bedrooms') && (intents.includes('comps') || intents.includes('trends'))) gaps.push('We do not break sale prices down by bedroom count: the figure is for all sales of the type');
  // a permit count asked: counted from the permit records (permit-counts.ts), or said not kept by an index without them
  // a mean (average) price asked: the medians kept answer, said so
  if (asks.includes('mean') && (priceLevel || intents.includes('comps') || intents.includes('trends'))) readAs.push(`"${/\b(mean|average|avg)\b/.exec(lower)?.[1] ?? 'average'}" as the median: no mean (average) price is kept, the figures below are medians`);
  const years = carried ?? readPeriods(pq.replace(HOME_AGE, ' '), context, readAs, gaps, targets, intents.some((i) => MARKET_INTENTS.has(i))); // a follow-up's period beside the context's; words not read: said
  const feature = featureGap(lower);
  if (feature && intents.some((i) => i === 'trends' || i === 'comps')) gaps.push(feature);
  readAs.push(...typeReadAs(lower, parsePropertyType(q)));
  // a window said of a market question only ("after 2 months of unpaid rent" is a legal rule's, no market window)
  const market = intents.some((i) => MARKET_INTENTS.has(i));
  const win: Window = years ? { months: null, span: null, text: null } : parseMonths(pq.replace(HOME_AGE, " "), market ? readAs : []);
  if (win.span && market) readAs.push(intents.includes('trends') ? `"${win.text!.trim()}" as the price index change over the ${win.span} months (the monthly series holds ${SERIES_MONTHS}); ${WINDOWS_KEPT.replace(/, the monthly price series.*$/, '')} only` : `"${win.text!.trim()}" without its window: ${WINDOWS_KEPT}, and each figure below names its own`);
  // a year asked of a topic kept for its latest months only: said, never answered silently with the latest figures
  // days on market: redfin.ts; a count of permits or filings: permit-periods.ts, distress-periods.ts say it where not counted
  if (years && intents.includes('rehab') && /\bpermits?\b/.test(lower) && !asks.includes('permit_count')) asks.push('permit_count');
  const latestOnly = intents.filter((i) => (i === 'comps' && !(asks.includes('dom') && targets.every((t) => t.zip))) || (i === 'rehab' && !asks.includes('permit_count')) || (i === 'investor' && !asks.includes('distress')));
  if (years && latestOnly.length) gaps.push(`We keep ${latestOnly.map((i) => YEARLESS[i]).join(' and ')} for the latest months of each source only, not for ${years.label}: the figures given are the latest`);
  // the boroughs ranked by price with no period named: one window for all, the 12 months to their last sale (review 20:
  // each borough's latest month, of different periods, and the first alone named)
  const boroughs = priceLevel && !years && win.months === null && !win.span && readAs.includes(EVERY_BOROUGH_READ);
  if (boroughs) readAs.push('no period named, so each borough over the 12 months to its last sale');
  return { asks, intents, targets, comparison, ranking, threshold, category, propertyType: parsePropertyType(q), months: boroughs ? 12 : win.months, span: win.span, years, unknown, notes, readAs, gaps, priceLevel, notRecorded, lowEnd, direction, topicText, query: q };
}
