// Topics no source records (pure, no imports): a question of one of them alone is answered with what is recorded
// instead of a near-miss record (intent.ts notRecorded, retrieve.ts); one mixed into a market question is said missing
// with the rest answered (a gap). Rules: warehouse/docs/research.md "Intents".

/** Whether wholesaling (assigning a purchase contract) is legal or needs a licence: a legal question, never the
 *  investor activity figures "wholesal" otherwise asks (intent.ts). */
export const WHOLESALE_LAW = /\bwholesal\w*\b[^.?!]{0,60}\b(legal|illegal|lawful|unlawful|laws?|licen[cs]\w*|allowed|permitted|regulat\w*|rules?)\b|\b(legal|illegal|lawful|unlawful|laws?|licen[cs]\w*|allowed|permitted|regulat\w*|rules?)\b[^.?!]{0,60}\bwholesal/;

/** Owners counted for a place: absentee, out-of-state, owner-occupied, owned by companies or banks, who owns the most. */
export const OWNERS_ASKED = /\babsentee\b|\bout[- ]of[- ](state|town|area)[- ](owners?|landlords?)\b|\b(non[- ])?owner[- ]occup\w*|\b(owned|held) by (an? |the )?(llcs?|corporations?|compan(y|ies)|investors?|banks?|landlords?|absentee|out[- ]of[- ]state)\b|\b(corporate|corporation|corporately|llc|bank|investor|company|institutional|absentee)[- ]owned\b|\bwho owns\b|\b(largest|biggest|top) (land ?lords?|owners?)\b|\bowner(ship)? (types?|names?|mailing|concentration)\b|\bmailing address(es)?\b/;

/** A sales-to-assessment ratio asked ("sales ratio", "assessed value to sale price", "selling above assessed value"),
 *  never the list-to-sale ratio ("list-to-sale ratio", "sale price to list price ratio"). */
export const ASSESSMENT_RATIO = /(?<!\bto[- ])\bsales?[- ]ratios?\b|\b(sales?|sale price)[- ]to[- ]assess\w*|\bassess(ed|ment)[- ](values?[- ])?(to[- ](the )?sales?[- ](prices?[- ]|amounts?[- ])?)?ratios?\b|\bassessed values? (to|vs\.?|versus|against|and) (the )?sales? (prices?|amounts?)\b|\b(above|below|over|under|at|near|versus|vs\.?) (the |their |its )?assess(ed|ment)s?( values?)?\b|\bassessment (levels?|accuracy|uniformity)\b/;

/** What an owners question is told (h71ask); with a place asked, the place is named in it (ownersSay). */
export const OWNERS_SAY = 'We keep no counts of owners for a city or zip whose sources name no owners (absentee or out-of-state owners, owner-occupied homes, homes owned by LLCs, companies or banks, who owns the most): owners are counted only where a source names them (Philadelphia\'s OPA sample and Denver\'s deeds: ask "absentee owners in Philadelphia"), and read per property by GET /v1/property (the owner type, and for Philadelphia whether the owner\'s mailing address is away from the property, absentee_owner); what research counts everywhere is who buys: the share of a city\'s sales bought by companies (ask a city\'s "investor activity")';

/** A not-recorded answer of a place: the owners one names it ("absentee owners in seattle": "for Seattle, WA, whose
 *  sources name no owners"), h72ask; the others are said as they stand. */
export function placedSay(say: string, place: string | null): string {
  return say === OWNERS_SAY && place ? say.replace('for a city or zip whose sources name no owners (', `for ${place}, whose sources name no owners (`) : say;
}

/** Topics no source records, with what the answer says instead of a near-miss record. */
export const NOT_RECORDED: [RegExp, string][] = [
  // review: "is wholesaling legal in Illinois" answered "investor activity is reported per city"; legal-facts.csv and
  // the regulation records hold no wholesaling or real estate licence rule
  [WHOLESALE_LAW, 'We record no rule on real estate wholesaling (assigning or double-closing a purchase contract) or on real estate licences, in any state: none of the state legal facts or regulation records we hold addresses wholesaling'],
  // h71ask: "philly absentee owners", "owner occupied homes philadelphia", "corporate owned homes philly" read no topic or
  // a sale price; owners are kept per property (live/property), never counted for a place
  [OWNERS_ASKED, OWNERS_SAY],
  // h71ask: "hartford ct sales ratio", "assessment ratio in philadelphia" read no topic; "assessed value to sale price" read
  // as property tax, though the sales of Connecticut and Philadelphia record an assessed value
  [ASSESSMENT_RATIO, 'We keep no sales-to-assessment ratio for a town or city: the assessed value recorded with Connecticut\'s sales (its OPM file\'s Sales Ratio is assessed value / sale amount) and Philadelphia\'s (the OPA market value) is used only to set aside a sale whose ratio is an extreme outlier of its file, never summarised; the sale prices themselves are given (ask a place\'s "median sale price")'],
  [/property tax(es)?\b|\btax (rates?|bills?|assessments?)\b|\bmill(age)? rates?\b|\bhomestead exemption|\bassessed values?\b/,
    'We record tax sale rules (lien or deed, interest rate, redemption period), not property tax rates, bills, assessments or exemptions'],
  [/\bhow much (in )?rent\b|\brent (can|could|would|should) (i|we|you) (get|charge|ask)|\brents?\b.{0,20}\b(price|level|average|median|how much|prices|yield|growth)|\b(average|median|typical) rents?\b|rental (yield|income|rates?|prices?|market|demand)|\bcap rates?\b|\brent[- ]to[- ](price|value)|\bfor rent(als?)?\b|\bcash flow/,
    'We record sales, not rents: no rent levels, rental yields or cap rates'],
  [/\bschools?\b|\bcrime\b|\bsafe(ty)?\b|\bwalkab/, 'We record no school, crime or neighbourhood-amenity data'],
  [/\bhoas?\b|\bhomeowners'? association|\b(condo|co-?op|maintenance|association) (fees?|dues)\b|\bcommon charges\b/, 'We record no HOA, condo or co-op fees or dues'],
  [/\b(real estate |realty |property |deed |land )?transfer tax(es)?\b|\bdocumentary stamp|\bdeed stamps?\b|\bstamp duty\b|\bmansion tax\b/, 'We record no real estate transfer tax (deed, realty or documentary stamp tax) rates'],
  [/\bauction (sale )?prices?\b|\bsheriff'?s? sale prices?\b|\b(foreclosure|lien|tax) (sale|auction) prices?\b|\bsold at auction for\b/, 'We count foreclosure and lien filings, not the prices they sell for at auction or sheriff sale'],
  [/\b(vacancy|vacancies|(?<!owner[- ])occupancy|(?<!owner[- ])occupied|absorption) (rates?|levels?|figures?|percent(age)?)\b|\bhow many (\w+ )?(homes|houses|units|apartments|rentals) (are )?(vacant|empty|occupied)\b/, 'We record no vacancy or occupancy rates (no rental or housing-unit counts)'],
  // h75ask: "home insurance cost in sacramento" answered Sacramento's median sale price, "insurance rates in denver" a
  // bare "no data"; no source holds an insurance premium (a zip's FEMA flood zone is held, never what cover costs)
  [/\b(home|homeowners?'?|hazard|property|house|landlord|rental|flood) insurance\b(?! rate maps?)|\binsurance (costs?|rates?(?! maps?)|premiums?|quotes?|prices?)\b/,
    'We record no insurance premiums or costs (homeowners, landlord or flood insurance); for flood, a zip\'s FEMA flood zone and environmental risk score are held (ask "flood zone" of a zip code)'],
  // h75ask: "job growth in nashville" got a bare "no data"; the Census population is held, jobs are not (an income is
  // said by kinds.ts KIND_FIRST)
  [/\bjob (growth|markets?|numbers?|losses|gains|creation|reports?)\b|\bnumber of jobs\b|\b(un)?employment\b|\bwages?\b|\bsalar(y|ies)\b/,
    'We record no jobs, employment or wage figures; a place\'s population is held (the Census ACS estimate: ask its "population")'],
  [/\bmortgage rates?\b|\binterest rates? (on|for) (a |my )?(mortgage|home loan)s?\b|\b30[- ]year fixed\b/, 'We record no mortgage or loan interest rates'],
];

/** The topics no source records that a market question mixes in ("HOA fee ... and the median condo price", "rents and
 *  the median sale price"): each said (a gap) with the rest answered, never dropped silently. */
export function unrecordedParts(lower: string): string[] {
  const says = NOT_RECORDED.filter(([re]) => re.test(lower)).map(([, say], i) => (i ? `${say.charAt(0).toLowerCase()}${say.slice(1)}` : say));
  return says.length ? [`${says.join('; ')}: ${says.length > 1 ? 'those parts' : 'that part'} of the question ${says.length > 1 ? 'are' : 'is'} not answered`] : [];
}

/** Evictions counted for a place ("how many evictions in philadelphia", "eviction filings", "eviction rate seattle"):
 *  no source of the build records an eviction case, so a legal answer of the state's eviction rules says so first
 *  (h77ask: those questions answered the rules alone, as if they were the count asked). */
const EVICTION_COUNTS = /\bhow many evictions\b|\bnumber of evictions\b|\beviction (filings?|rates?|counts?|cases|numbers|statistics|stats|data|records)\b|\bevictions? (filed|per (year|month|capita))\b/;
export const evictionCounts = (intents: readonly string[], lower: string): string | null =>
  intents.some((i) => i === 'eviction_notice' || i === 'eviction_timeline') && EVICTION_COUNTS.test(lower)
    ? 'We record no eviction filings or cases for any place (no court records are loaded), so no count or rate of evictions is given; what is recorded is each state\'s eviction rules'
    : null;
