// JSON Schemas (2020-12, as OpenAPI 3.1 uses) of every response, with the spec's exact field names.
// The OpenAPI document references them and the contract tests check shard bodies against them.
// Over 300 lines: one catalogue of every response's schema, read as one table by the OpenAPI document, the typed
// client generator and the contract tests (the webhook and export schemas, which stand apart, have their own files).
import { WEBHOOK_SCHEMAS } from './webhooks/schemas.ts'; // issue 10
import { EXPORT_SCHEMAS } from './export/schemas.ts'; // issue 10
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const nullable = (t: string): Schema => ({ type: [t, 'null'] });
const enumOf = (...values: string[]): Schema => ({ type: 'string', enum: values });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required, additionalProperties: false });
const CONF = enumOf('low', 'medium', 'high');
/** The window a market answer's `months` asked and the part of it its records cover (warehouse/docs/market.md
 *  "Coverage of a window", review 9 #3). */
const WINDOW_COVERAGE = (records: string): Schema => ({ ...obj({
  window_start: { ...str, description: 'First day of the window asked (the day after window_end minus months)' },
  window_end: { ...str, description: 'Last day of the window (as_of for the investor overview)' },
  window_days: num,
  records_start: { ...nullable('string'), description: `First day of the window ${records} cover (each source file's span: its first to last record; in comps, only the months the file holds a quarter of its source's busiest month in; null when none)` },
  records_end: { ...nullable('string'), description: `Last day of the window ${records} cover` },
  records_days: { ...num, description: `Days of the window ${records} cover (a gap between files is not covered); below window_days the note says so` },
}), description: `The window asked and the part of it ${records} cover (warehouse/docs/market.md "Coverage of a window")` });
/** A rehab measure's own window (permits_window, sales_window): WINDOW_COVERAGE of one kind of records, or null. */
const KIND_WINDOW = (kind: string, what: string): Schema => {
  const w = WINDOW_COVERAGE(`the zip's ${kind} records`);
  return { ...w, type: ['object', 'null'], description: `Additive: the window ${what}, and the part of it those records cover; it ends before as_of where that kind's records end before the other kind's, and equals coverage where the zip has records of this kind only. Null where no ${kind} source counts in the zip (warehouse/docs/market.md mart_rehab "Window")` };
};
const TIER = enumOf('primary', 'secondary', 'tertiary', 'rural');
/** Additive (review 18): the source of a market answer's records, not required (absent in builds before
 *  live/research/sales-cover.json, and where no source of a kind the answer counts records one in the market). */
const sourced = (s: Schema): Schema => ({ ...s, properties: { ...(s['properties'] as Schema), source: { ...obj({
  id: { ...str, description: "The source's id in the build's manifest (king_county, nyc, connecticut...; several joined by '+')" },
  name: { ...str, description: "The source's title in the manifest (e.g. 'King County WA house sales 2014-2015')" },
  vintage: { ...nullable('string'), description: "The period the source's files hold, as the manifest says it (e.g. '2014-05..2015-05'); the operator's canonical source: the months of its files of the kinds of record the answer counts" },
  kinds: { type: 'array', description: "Rehab score and investor overview: each kind of record the answer counts (sales, permits, distress) with its source's id and vintage (mart_answer_source)",
    items: obj({ kind: enumOf('sales', 'permits', 'distress'), id: str, vintage: nullable('string') }) },
}, ['id', 'name', 'vintage']), description: "Additive: the sources the answer's records come from: comps and the trends, the market's sales source (mart_market_source); the rehab score and the investor overview, the sources of the kinds of record each counts (its sales and permits; its sales and filings: mart_answer_source) (pipelines/shards/comps.sql, rehab.sql, investor.sql, trends.sql; warehouse/docs/market.md \"The source of a market answer\")" } } });

export const RegulationRecord = obj({
  id: str, jurisdiction_level: enumOf('state', 'county', 'city', 'zip'), state_code: str, county_fips: nullable('string'), city: nullable('string'),
  category: str, subcategory: str, title: str, summary: str, structured_data: nullable('object'), source_citation: nullable('string'),
  source_url: nullable('string'), effective_date: nullable('string'), status: enumOf('active', 'pending', 'expired'),
  verified_at: nullable('string'), last_reviewed_at: nullable('string'),
});

const CATEGORY_KEYS = ['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure', 'rent_control', 'tax_deed_lien'];

/** Tax sale figures of geo states and lookup: the same values as /v1/legal/tax-sale, whose uncertain_fields say which are unverified. */
const TAX_RATE = { ...nullable('number'), description: 'Maximum statutory tax lien return, percent (null: no single statutory number, or a deed state); read it with rate_basis: in some states it is a penalty or premium, not an annual rate. Some values are unverified or conflicting in our sources: GET /v1/legal/tax-sale?state=XX lists them in uncertain_fields (interest_rate_pct) with the rate_basis.' };
const TAX_REDEMPTION = { ...nullable('number'), description: 'Months the owner can redeem after a tax sale (null: none recorded). Some values are unverified or conflicting in our sources: GET /v1/legal/tax-sale?state=XX lists them in uncertain_fields (redemption_period_months).' };
/** Beyond the spec: how to read interest_rate_pct (legal-facts.md caution 2: not every maximum is an annual rate). */
const TAX_RATE_BASIS = { ...nullable('string'), description: 'How to read interest_rate_pct, as GET /v1/legal/tax-sale gives it: an annual rate ("annual interest, bid down at auction"), a rate per month, or a penalty or premium that is not annual (Illinois "penalty per 6-month period, bid down", Indiana "one-time penalty: 10% if redeemed within 6 months, 15% after"). Null for deed states.' };

const StateSummary = obj({
  state_code: str, state_name: str, landlord_friendliness_score: num, landlord_friendliness_label: str,
  foreclosure_type: enumOf('judicial', 'non-judicial', 'hybrid'), lien_or_deed: enumOf('lien', 'deed', 'hybrid'),
  interest_rate_pct: TAX_RATE, redemption_period_months: TAX_REDEMPTION, rate_basis: TAX_RATE_BASIS,
});

const MarketListElement = obj({ city_name: str, county_name: str, market_tier: TIER, is_investor_active: bool, has_city_rent_control: bool });

const AddressMatch = obj({
  address: str, city: str, state: str, zip: str,
  zip_imputed: { ...bool, description: "The zip is no source's: the property record's zip guessed from the ZCTA centroids of the address's town nearest its point (a Connecticut sale without a recorded zip); false: a recorded zip, or '' when none is known" },
  county: str, lat: num, lng: num,
  location_source: { ...enumOf('address', 'zip_centroid'), description: "Where lat and lng come from: the address's own point in a source, or (NYC, Philadelphia parcels without coordinates) the centroid of its zip" },
  beds: nullable('number'), baths: nullable('number'), sqft: nullable('number'),
  property_id: nullable('string'), // issue 22: GET /v1/property?property_id=
});

// issue 22: the property record (warehouse/docs/property.md)
const CITATION = { source: str, table: str, file: nullable('string'), line: nullable('number'), record_date: nullable('string'), vintage: nullable('string') };
const IMPUTED = { type: ['string', 'null'], enum: ['nearest_zcta_centroid', 'zip_city', 'zip_state', 'source_constant', null],
  description: "How a value the cited row does not record was filled: 'nearest_zcta_centroid' (a zip guessed from the ZCTA centroids nearest the row's point; a Connecticut sale's zip), 'zip_city' / 'zip_state' (the city or state of the row's zip: a King County sale has no city column), 'source_constant' (the source's adapter writes it on every row of files with no such column: NYC's 'New York', Philadelphia's 'PA', King County's property type 'sfr'; or where the file leaves the column empty: Sacramento's 'CA', Nashville's 'TN'). Null: the value was read from the cited file and line (for a value taken from another file's row, that file and line: Denver's beds from the residential file, a canonical sale's address from parcels.csv)" };
const FIELD_LINEAGE = obj({ value: {}, ...CITATION, imputed: IMPUTED, losing_values: { type: 'array', items: obj({ value: {}, ...CITATION, imputed: IMPUTED }) } });
const PropertyRecord = obj({
  property_id: str, parcel_id: nullable('string'), address: nullable('string'), unit: nullable('string'), city: nullable('string'),
  state: nullable('string'), zip: nullable('string'), county: nullable('string'), lat: nullable('number'), lng: nullable('number'),
  // 'coop': New York City's co-op apartments, a type of the records only (no market figure covers co-ops: market.md "Co-ops")
  property_type: { type: ['string', 'null'], enum: [...PROPERTY_TYPES, 'coop', null] }, beds: nullable('number'), baths: nullable('number'),
  sqft: nullable('number'), lot_sqft: nullable('number'), year_built: nullable('number'),
  owner_type: { type: ['string', 'null'], enum: ['individual', 'corporate', 'trust', 'bank', 'government', 'nonprofit', null] }, absentee_owner: nullable('boolean'),
  source: str,
  sales: { type: 'array', items: obj({
    date: str, price: num, price_per_sqft: { ...nullable('number'), description: "price / sqft; null when either is missing, on a nominal deed, and on a portfolio sale (portfolio: the deed's one price covers several parcels)" }, buyer: nullable('string'), seller: nullable('string'),
    arms_length: nullable('boolean'), portfolio: bool, investor_buyer: nullable('boolean'), flip_leg: bool,
  }) },
  permits: { type: 'array', items: obj({ date: str, type: str, description: nullable('string'), valuation: nullable('number') }) },
  distress: { type: 'array', items: obj({ date: str, kind: str, amount: nullable('number'),
    docket_type: { ...nullable('string'), description: "The source's own type of the case's last docket row (Allegheny); null when the source has no docket" },
    status: { type: ['string', 'null'], enum: ['active', 'closed', null], description: "closed: the case was discontinued, dismissed, satisfied, terminated or sold at sheriff or commissioner sale (outcome), so it is no active distress signal after status_date; active: open as of the record's as_of by what its source records (Louisville's file records sales only: a case dismissed or redeemed without a sale reads active); null: the source does not say" },
    outcome: { ...nullable('string'), description: 'A closed case: discontinued, dismissed, satisfied, terminated, sheriff_sale or commissioner_sale' },
    status_date: { ...nullable('string'), description: 'The date the case closed: the closing docket row (Allegheny), the commissioner sale (Louisville)' },
    sale_date: { ...nullable('string'), description: "The foreclosure auction (commissioner) sale's date where the source records one (Louisville); the sale is not listed in sales (no market sale)" },
    sale_price: { ...nullable('number'), description: "That auction sale's price; null when the source gives none" } }) },
  links: obj({ comps: nullable('string'), location_risk: nullable('string') }),
  as_of: str,
  other_property_ids: { type: 'array', items: str, description: "Only when the address asked names several properties (NYC: two lots at one street line): the others, newest sale first; the one answering has the newest sale (warehouse/docs/property.md)" },
  notes: { type: 'array', items: str, description: "Only when the address asked names a city (or NYC borough) the property is not in: the record answers by the zip, and the note names both (a zip or a state that contradicts is a 404; warehouse/docs/property.md \"A place typed with the address\")" },
  lineage: obj({
    build_id: str, rule: str,
    fields: { type: 'object', additionalProperties: FIELD_LINEAGE },
    sales: { type: 'array', items: obj({ sale_id: str, ...CITATION }) },
    permits: { type: 'array', items: obj({ permit_id: str, ...CITATION }) },
    distress: { type: 'array', items: obj({ distress_id: str, ...CITATION }) },
  }),
}, ['property_id', 'parcel_id', 'address', 'unit', 'city', 'state', 'zip', 'county', 'lat', 'lng', 'property_type', 'beds', 'baths', 'sqft',
  'lot_sqft', 'year_built', 'owner_type', 'absentee_owner', 'source', 'sales', 'permits', 'distress', 'links', 'as_of']);

const LEGAL_COMMON = { disclaimer: str, last_reviewed_at: str };

export const SCHEMAS: Record<string, Schema> = {
  RegulationList: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/RegulationRecord' } },
  RegulationRecord,
  CoverageSummary: obj({
    addresses: num, regulations: num,
    regulations_by_category: obj(Object.fromEntries(CATEGORY_KEYS.map((k) => [k, num]))),
    states: num, cities: num, zips: num, counties: num, data_points: num, last_refreshed: nullable('string'),
    meta: obj({ cached: bool }),
  }),
  ValuationEstimate: obj({
    address: str, zip: str, city: str, state: str, estimated_value: num, value_low: num, value_high: num,
    price_per_sqft: nullable('number'), confidence: CONF, comp_count: num, as_of: str,
    data_age_note: { ...nullable('string'), description: "Null, or how old the comps' source is at the build's data date when over 12 months: the estimate values the house at the source's latest sale (as_of is the newest comp), and confidence is at most medium over 12 months, low over 36" },
    // issue 24 (additive): the subject as matched, the estimator that answered, the comps used
    subject: obj({
      matched: bool, property_id: nullable('string'), matched_on: { type: ['string', 'null'], enum: ['sale', 'parcel', null] }, mode: enumOf('record', 'request', 'typical'),
      facts: { type: 'array', items: obj({ name: str, value: { type: ['number', 'string'] }, source: enumOf('record', 'request', 'zip_typical', 'default') }) },
    }),
    notes: { type: 'array', items: str, description: 'Additive: comps mostly of another kind than the subject (confidence one step lower), a typed city, state or zip contradicting the zip, why confidence is below the tier of the interval (warehouse/docs/valuation.md "The answer")' },
    blend: { type: ['object', 'null'], additionalProperties: false, required: ['comps_value', 'comps_weight', 'hedonic_value', 'hedonic_weight', 'trees_value', 'trees_weight', 'stacked_value', 'stacked_weight'],
      properties: { comps_value: num, comps_weight: num, hedonic_value: nullable('number'), hedonic_weight: num, trees_value: nullable('number'), trees_weight: num, stacked_value: nullable('number'), stacked_weight: num }, description: 'Additive: a blended estimate\'s parts; estimated_value = exp(sum of weight x ln value) before rounding, a null value lending its weight to the comps; stacked_value is the comps estimate corrected by the trees fitted on its own error. Null: comps alone' },
    model: str,
    comps: {
      type: 'array', items: obj({
        property_id: nullable('string'), address: nullable('string'), zip: str, sale_date: str, price: num, sqft: num, distance_km: nullable('number'),
        similarity: num, time_adjustment_pct: num, feature_adjustment_pct: num, adjusted_price: num, weight: num,
        kept: { ...bool, description: 'Additive: false for a comp of the 15 the outlier trim gave no weight (weight 0, not in comp_count); listed because the confidence tier\'s dispersion was measured over it' },
        weight_before_trim: { ...num, description: 'Additive: its share of the weights before the outlier trim: the weights of confidence_basis.dispersion' },
      }),
    },
    confidence_basis: {
      ...obj({ tier: CONF, comps: num, effective_comps: num, dispersion: num, median_age_months: num, median_distance_km: nullable('number'), valuation_date: str }),
      description: 'Additive: what the confidence tier was read from (warehouse/docs/valuation.md "Confidence"): the count, effective count (1 / sum of weight squared), median age in months before valuation_date and median distance of the comps used (kept), and the dispersion of every comp listed, before the trim (weighted median absolute deviation of ln adjusted_price, weights weight_before_trim); tier is the rule\'s (the interval\'s), confidence may be lower (notes say why)',
    },
    time_index: {
      ...obj({
        basis: str, valuation_month: str, last_levelled_month: nullable('string'),
        levels: { type: 'array', items: obj({ month: str, level: num }) },
      }),
      description: 'The levels of the market index the comps\' time_adjustment_pct read (100 at valuation_month; a comp sold in month m is adjusted by 100 / level - 1): the valuation\'s own hedonic index, not the trends index (warehouse/docs/valuation.md "The answer")',
    },
  }),
  ValuationScorecard: obj({ // issue 24: live/valuation/scorecard.ts
    build_id: str, method: str,
    sources: { type: 'array', items: obj({ source: str, model: str, test_start: str, test_sales: { ...num, description: 'Test-slice sales valued as recorded subjects' }, test_slice_sales: { ...num, description: 'Additive: residential sales in the test slice, valued or not' } }, ['source', 'model', 'test_start', 'test_sales']) },
    accuracy: {
      type: 'array', items: obj({
        source: str, subject: enumOf('record', 'request', 'typical'), confidence: enumOf('all', 'low', 'medium', 'high'), n: num, mdape: num, ppe10: num, ppe20: num,
        coverage_80: nullable('number'), median_width: nullable('number'),
      }),
    },
    fairness: {
      type: 'array', items: obj({
        source: str, price_tier: enumOf('all', 'q1', 'q2', 'q3', 'q4'), price_low: num, price_high: num, n: num, median_ratio: num, prd: num, prb: nullable('number'), prd_ok: bool, prb_ok: nullable('boolean'),
      }),
    },
    accepted: obj({ coverage_80: { type: 'array', items: num }, prd: { type: 'array', items: num }, prb: { type: 'array', items: num } }),
    unvalued: { type: 'array', description: 'Additive: the sales sources with arm\'s-length residential sales that are not valued, and why (a market whose sales record no living area)', items: obj({ source: str, sales: num, with_sqft: num, reason: str }) },
  }, ['build_id', 'method', 'sources', 'accuracy', 'fairness', 'accepted']),
  ResearchAnswer: obj({
    answer: str,
    sources: { type: 'array', items: { type: 'object', properties: { type: str, category: str, citation: str }, required: ['type', 'category', 'citation'] } },
    confidence: CONF, depth: enumOf('quick', 'deep'), processing_ms: num,
  }),
  RehabScore: sourced(obj({
    zip_code: str, city: str, state: str, rehab_momentum_score: num, label: enumOf('Cold', 'Warming', 'Active', 'Hot', 'Very Hot'),
    trend: enumOf('up', 'flat', 'down'), trend_pct: num,
    trend_end: { ...str, description: "The day (YYYY-MM-DD) trend's two 30-day windows end on: the earlier of the last day of the zip's sources' records (any market's, so it can fall after the zip's own last record: a quiet zip's days after it count as days without events) and the last day those sources are complete through (a week holding at least 3/4 of the average week of the 8 weeks before); a file's late-recorded last weeks are left out" },
    confidence: { ...CONF, description: "The lower of the count band of the events the score is computed from (the window's residential rehab permits when a permit component is computed, plus its arm's-length sales when the rehab resale share is: low under 20, medium 20-49, high 50+; low when no permit component) and the coverage of each computed measure's own window (permits_window, and sales_window when the resale share is computed): high needs the records to cover 90% of the window's days, medium 50%" },
    as_of: str,
    coverage: WINDOW_COVERAGE("the zip's permit and sales records"),
    permits_window: KIND_WINDOW('permit', "the permit components (permit intensity and value) are counted over: the months to the last day of the permit records of the zip's permit sources"),
    sales_window: KIND_WINDOW('sales', "the rehab resale share is counted over: the months to the last day of the arm's-length sales of the zip's sales sources"),
    counts: { ...obj({
      rehab_permits: { ...nullable('integer'), description: 'The residential rehab permits in permits_window (the permit components count them); null where no permit source counts in the zip' },
      sales: { ...nullable('integer'), description: "The residential (sfr, condo, multi) arm's-length sales in sales_window (a land or commercial sale counts in no rehab figure); null where no sales source counts in the zip" },
      rehab_resales: { ...nullable('integer'), description: 'Of those sales, the renovated resales and quick resales at a gain (the rehab resale share is rehab_resales / sales); null where the share is not computed (fewer than 5 sales, or records that cannot show a resale)' },
      trend_last_30d: { type: 'integer', description: 'The rehab events (residential rehab permits and rehab resales) trend counts in the 30 days to trend_end' },
      trend_prior_30d: { type: 'integer', description: 'The rehab events trend counts in the 30 days before those; trend_pct = 100 x (trend_last_30d - trend_prior_30d) / max(trend_prior_30d, 1), so under 5 one event moves it widely (the note says so)' },
    }), description: 'Additive: the events the score rests on, each counted over its own window (warehouse/docs/market.md mart_rehab)' },
    note: { ...nullable('string'), description: "First, when the records cover less than the window: 'records cover <from> to <to> only, <d> of the <w> days asked'; then, when the zip's permit and sales records end on different days (one canonical folder's permits.csv and sales.csv): 'the zip's permit and sales records end apart (permits <day>, sales <day>): permits are counted over <from> to <to> (<d> of its <w> days covered) and sales over <from> to <to> (<d> of its <w> days covered)'; then, when the window has 1-4 arm's-length sales of a zip whose records can show resales: 'fewer than 5 residential arm's-length sales in the window: no rehab resale share (minimum cohort 5)' (the share is left out of the score); then, when the zip is under 95% inside the area its permit source covers: 'the permit source covers <area> only, which holds <p>% <basis>: permit rates are over that share of its housing units', where a county's basis is 'of the zip's residential addresses (HUD-USPS 2023 Q1)' (Nashville: Davidson County, TN) and a city's 'of the zip's land (Census 2020 ZCTA-place relationship; homes taken as spread evenly over it)' (Chicago: the City of Chicago, IL); then, when no permit component is computed, why ('no building permit source covers this zip: no renovation permit data', the permit source covering under half of the zip, or no housing unit count) and 'the score is the rehab resale share alone (<r> of the window's <n> residential arm's-length sales are renovated resales or quick resales at a gain)'; then, for Nashville: that its permits are a snapshot of applications (Date_Entered), not issued permits; last, when trend rests on fewer than 5 events in the 30 days before (and any in either): 'the trend rests on few events: <last> rehab events in the 30 days to <trend_end> against <prior> in the 30 days before (fewer than 5 before, so one event more or less moves trend_pct widely)'; clauses separated by '; '; else null" },
  })),
  InvestorOverview: sourced(obj({
    city: str, state: str, investor_purchase_rate_pct: nullable('number'), flip_velocity_days: nullable('number'), gross_flip_margin_pct: nullable('number'),
    distressed_pipeline_count: { ...nullable('number'), description: 'Properties with an open pre-foreclosure, tax-delinquent or lien filing filed in the window (the last <months> months to distress_as_of): the filings of the window, not the whole active stock; null where no distress source covers the city' }, platform_active_deals: num, market_tier: TIER,
    confidence: { ...CONF, description: "The lower of the record count band (known-buyer sales + distress filings: low under 20, medium 20-49, high 50+) and the window's coverage: high needs the records to cover 90% of the window's days, medium 50%" },
    as_of: str,
    distress_as_of: { ...nullable('string'), description: "Additive: the last day (YYYY-MM-DD) of distressed_pipeline_count's window, the latest filing of the distress sources covering the city; before as_of where the city's sales run past its filings (one canonical folder's sales.csv and distress.csv); null where no distress source covers the city" },
    distressed_without_parcel: { ...nullable('number'), description: "Additive: of distressed_pipeline_count, the filings that name neither a parcel nor an address (Allegheny County docket rows without a pin), each counted as a property of its own since it cannot be matched to another: distressed_pipeline_count - distressed_without_parcel properties are identified by their parcel id or address; null where no distress source covers the city" },
    coverage: WINDOW_COVERAGE('the city\'s sales records (a city of filings only: its filing records)'),
    note: { ...nullable('string'), description: "First, when the records cover less than the window: 'records cover <from> to <to> only, <d> of the <w> days asked'; then why each null figure is null, one clause per cause separated by '; ': no sale for value in the window; sales records without buyer names (no investor purchase rate, and so no flip); no investor flip with its resale in the window (no flip velocity or margin); no distress source covering the city (no distressed pipeline count), or, where one covers it, that distressed_pipeline_count counts the properties with an open filing filed in the last <months> months (to distress_as_of), not every filing still open, and, where the city has sales and the filing records cover less of that window, 'the filing records cover <from> to <to> only, <d> of that window's <w> days', and, where some of them are filings naming no parcel or address, '<k> of its <n> are filings that name no parcel or address, each counted as a property of its own (<n-k> identified properties)'; last, where flip_velocity_days is given, that it is the median days from an investor's purchase deed to the resale deed, not to a re-listing as the spec defines it (no source records listing dates). Null when every figure is present and no distress source covers the city" },
  })),
  CompsSummary: sourced(obj({
    zip_code: str, city: str, state: str, property_type: enumOf(...PROPERTY_TYPES),
    sample_count: nullable('number'),
    price_per_sqft: obj({ p25: nullable('number'), median: nullable('number'), p75: nullable('number') }),
    days_on_market: obj({
      median: nullable('number'),
      source: { type: ['string', 'null'], enum: ['sales', 'redfin', null], description: "Where median comes from: 'sales', the window's comps that record a list date (5 or more); 'redfin', the Redfin zip tracker's median days on market of a 90-day period inside the window, of this type or all residential, with 5 or more homes sold (see redfin and note); null with median" },
      redfin: { type: ['object', 'null'], description: "The Redfin zip tracker period median comes from, when source is 'redfin' (data provided by Redfin)", properties: {
        property_type: { type: 'string', description: "Redfin's type of the row: All Residential, Single Family Residential, Townhouse, Condo/Co-op or Multi-Family (2-4 Unit)" },
        period_start: str, period_end: str, homes_sold: num }, required: ['property_type', 'period_start', 'period_end', 'homes_sold'], additionalProperties: false },
    }),
    list_to_sale_ratio: { ...nullable('number'), description: "The median sale price / list price of the window's comps that record a list price (5 or more), else null: Redfin's sale-to-list is an average and is not used" },
    confidence: { ...CONF, description: "The lower of the comps count band (low 5-19, medium 20-49, high 50+) and the window's coverage: high needs the sales records to cover 90% of the window's days, medium 50% (coverage.records_days of coverage.window_days)" },
    as_of: str,
    coverage: WINDOW_COVERAGE("the zip's sales records"),
    note: { ...nullable('string'), description: "First, when the sales records cover less than the window: 'sales records cover <from> to <to> only, <d> of the <w> days asked'; then why each null figure is null, one clause per cause separated by '; ': price_per_sqft and sample_count when the window has no sale of the type, sales none of which records a living area (e.g. Connecticut, whose records carry none; a count below 5 is given as 'fewer than 5'), or 1-4 comps (the minimum cohort); days_on_market.median and list_to_sale_ratio when fewer than 5 comps record list data and, for days on market, no Redfin zip snapshot stands for the window (its 90 days inside the window, its type this one or all residential, 5 or more homes sold; residential types only); last, when days on market is Redfin's, its type, 90 days and homes sold. Null when the window is covered and every figure is present from the sales" },
  })),
  // issue 23: GET /v1/market/trends (api/market-trends.ts)
  MarketTrends: sourced(obj({
    zip_code: nullable('string'), city: str, state: nullable('string'), property_type: enumOf(...PROPERTY_TYPES), months: num,
    method: enumOf('repeat_sales', 'median'), pair_count: num, base_month: { ...nullable('string'), description: 'The month the price index is 100 at: the first complete month of the window with 20+ sales, else the first complete one with an index; null when no month of the window is complete' },
    series: { type: 'array', items: obj({
      month: str, sales_count: nullable('number'), median_price: nullable('number'), median_price_per_sqft: nullable('number'),
      median_days_on_market: nullable('number'), investor_purchase_share_pct: nullable('number'),
      price_index: nullable('number'), price_index_low: nullable('number'), price_index_high: nullable('number'),
      sample_count: { ...nullable('number'), description: "The month's sales in the index (its pair ends for repeat_sales); null where sales_count is null (a month of fewer than 5 sales, the minimum cohort, or a month the market's source files do not cover: before the first file, after the last, or in a gap between two, NYC's 2022-04..2023-02): no count of 1-4 sales, and not 0" },
      confidence: CONF,
      complete: { ...bool, description: "Whether the sources cover the whole month: false for a month a file of the market's sales starts or ends inside, a month where those files hold under a quarter of their source's busiest month (a thin extract), or a month with under half the sales of the months around it (low confidence)" },
      untyped_count: { ...nullable('number'), description: "Sales of the month counted as this type whose source records no residential subtype (Connecticut's 2022 file: single-family, condo and 2-4 family alike); above 0, the month's figures are all residential sales (low confidence). Null where sales_count is null (fewer than 5 sales: no count of them)" },
    }) },
    summary: obj({
      change_3m_pct: nullable('number'), change_12m_pct: nullable('number'), change_24m_pct: nullable('number'),
      change_end_month: { ...nullable('string'), description: 'The month (YYYY-MM) every change_*_pct ends on: the latest complete month with 20+ sales, often before as_of; each change starts 3, 12 or 24 months before it. Null (and every change null, change_note says why) when no month of the window asked qualifies' },
      direction_30d: { type: ['string', 'null'], enum: ['up', 'flat', 'down', null] }, direction_30d_pct: nullable('number'),
      direction_30d_end: { ...nullable('string'), description: "The day (YYYY-MM-DD) direction_30d's two 30-day windows end on: the earlier of the last day of the market's sources' records (any market's, so it can fall after this answer's as_of, the market's own last sale: a quiet market's days after its last sale count as days without events) and the last day those sources are complete through (a week holding at least 3/4 of the average week of the 8 weeks before); a file's late-recorded last weeks are left out" },
      direction_30d_measure: { ...enumOf('rehab_events'), description: 'What direction_30d counts: rehab permits and renovated resales in the 30 days to direction_30d_end against the 30 days before (the rehab score trend), not prices' },
      direction_30d_note: { ...nullable('string'), description: "Why direction_30d and direction_30d_pct are null: the market's records could show no rehab event at all (no building permit recorded, no repeat sale, no renovation year), so 0 events against 0 is no flat trend. Null when they are given (flat 0 then means the sources could show events and showed none)" },
      change_note: { ...nullable('string'), description: "Why a change_*_pct is null although both its months are complete with 20+ sales: one month's sales come from a file that records no residential subtype (every residential sale, condos and 2-4 family included) and the other's are of the type only, so the two medians are not like for like; or why every change is null: the latest complete month with 20+ sales ends before the window asked (that month and the months that reach it are named); or why one is null because the month it compares with change_end_month is not covered by the source files (the covered months of the 60 are named), has fewer than 20 sales in its index sample or no level, is not complete, or is before the 60 months; or that no month of the 60 is complete with 20 sales; or, first, that the market's sales source records no sale of the type at all (data_note). Every null change is named. Null when none is null" },
    }),
    index_note: { ...nullable('string'), description: "Why price_index is null for some months with sales: their sales are of another subtype mix than base_month's (a file that records no residential subtype against sales of the type only). Null otherwise" },
    data_note: { ...nullable('string'), description: "Said first when the market's sales sources record no sale of the property type asked anywhere (Denver's and Sacramento's files hold no land sale, King County's house file counts every sale as single-family): the source named, the types it does record, and that the empty months are for want of any record, not fewer than 5 sales. Then, when the market's sales come from a sample or partial extract of their source (the research answer's words): counts, medians and the index describe that extract only; and, for an extract whose files cannot show part of the arm's-length rule, which tests its sales cannot be put to and what stands in (Connecticut's 2022 extract: no Non Use Code, the sale-to-assessment ratio test). Parts joined by '; '. Null when neither applies" },
    month_note: { ...nullable('string'), description: "Names the months of the window with sales that the source files cover in part only (a file starts or ends inside the month: Denver's 2019-07, 9 days; or the files hold under a quarter of their source's busiest month: a thin extract): their sales_count counts the sales recorded, and their medians, investor share and price index are null, since a part-month's figures are not comparable with whole months' (complete is false; no change is computed from them). Null otherwise" },
    as_of: str,
  })),
  StateList: obj({ count: num, states: { type: 'array', items: StateSummary } }),
  CityLookup: obj({
    state_code: str, state_name: str, city_name: str, county_name: str, fips_code: str, metro_area: str, market_tier: TIER,
    zip_codes: { type: 'array', items: str }, has_city_rent_control: bool, has_city_eviction_protections: bool, is_investor_active: bool,
    landlord_risk: obj({ friendliness_score: num, label: str }), tax_type: enumOf('lien', 'deed', 'hybrid'),
    interest_rate_pct: TAX_RATE, redemption_period_months: TAX_REDEMPTION, rate_basis: TAX_RATE_BASIS,
    part_counties: { type: ['array', 'null'], items: obj({ county_name: str, fips_code: str }), description: 'Additive: every county of a city made of parts that are each a county (New York: its five boroughs, Bronx, Kings, New York, Queens and Richmond County), where county_name and fips_code name only the one holding most of its people; null for other cities (absent in builds before it)' },
  }, ['state_code', 'state_name', 'city_name', 'county_name', 'fips_code', 'metro_area', 'market_tier', 'zip_codes', 'has_city_rent_control',
    'has_city_eviction_protections', 'is_investor_active', 'landlord_risk', 'tax_type', 'interest_rate_pct', 'redemption_period_months', 'rate_basis']),
  MarketList: obj({ state_code: str, count: num, markets: { type: 'array', items: MarketListElement } }),
  LocationRisk: obj({
    zip_code: str, city: str, state: str, flood_zone: str, flood_risk_label: enumOf('Minimal', 'Low', 'Moderate', 'High', 'Very High'),
    flood_risk_notes: str, superfund_nearby: bool, superfund_count_1mi: num, environmental_risk_score: num, confidence: CONF, as_of: str,
    superfund_basis: { ...str, description: 'What superfund_nearby and superfund_count_1mi count: EPA National Priorities List sites, final and proposed, within 1 mile; deleted NPL sites and active SEMS sites not on the NPL are not counted' },
    sems_non_npl_count_1mi: { ...nullable('number'), description: 'Active EPA SEMS sites not on the NPL (removal and emergency sites, with coordinates in the 2021 extract) within 1 mile of the point: not counted in superfund_count_1mi. Null in a zip answer (counted for a lat/lng point only)' },
    flood_map_loaded: { ...bool, description: "Additive: whether a loaded FEMA flood map determines flood_zone. False where none does (no map of this build reaches the zip or point, or one covers too little of the zip): flood_zone is then D, undetermined, and flood_risk_label (the spec's enum has no 'unknown') states no assessed risk; see flood_risk_notes (warehouse/docs/location.md \"Zone D\")" },
  }),
  PropertyRecord, // issue 22
  AutocompleteResults: obj({
    query: str, results: { type: 'array', maxItems: 10, items: AddressMatch },
    complete: { ...bool, description: 'false when the time budget cut the search short (the any-order or one-typo matching did not run): fewer or no results may then not mean there is no such address' },
  }),
  MarketLegalRisk: obj({
    state: str, city: str, legal_risk_score: num, legal_risk_label: str, plain_english_summary: str,
    investor_actions: { type: 'array', items: str }, ...LEGAL_COMMON,
  }),
  // The two legal endpoints the spec leaves open (DESIGN.md "Legal endpoints"); fields: warehouse/docs/legal.md.
  LandlordProfile: {
    type: 'object',
    required: ['state', 'landlord_friendliness_score', 'landlord_friendliness_label', 'disclaimer', 'last_reviewed_at'],
    properties: {
      state: str, state_name: str, city: nullable('string'), landlord_friendliness_score: num, landlord_friendliness_label: str,
      landlord_friendliness_scope: { ...enumOf('state'), description: 'Whose score landlord_friendliness_score is: always the state\'s, from state law alone (a city\'s profile too); local ordinances are not scored (warehouse/docs/legal.md "Landlord friendliness")' },
      landlord_friendliness_note: { ...str, description: 'Says that the score is the state\'s and names the local ordinances it does not count (the city\'s own, county ones that may apply; on a state profile, the places with recorded ordinances), from landlord_friendliness_uncounted' },
      landlord_friendliness_uncounted: {
        type: 'array',
        description: 'The local ordinances the score does not count, the list landlord_friendliness_note names them from: a city\'s own (for a part of a city such as a New York City borough, its city\'s), else the county ones that may apply to it; on a state profile, every local ordinance recorded in the state, each with its place. Empty when none is recorded (warehouse/docs/legal.md "Landlord friendliness")',
        items: obj({
          id: { ...str, description: 'The regulation record\'s id (GET /v1/regulations/lookup)' },
          jurisdiction_level: enumOf('city', 'county'),
          jurisdiction_name: { ...str, description: 'The place the ordinance is of: the city (New York for a borough), or the county ("Los Angeles County")' },
          category: str, title: str,
        }),
      },
      friendliness_components: obj({
        nonpayment_notice: num, eviction_timeline: num, security_deposit: num, rent_control_preemption: num, statewide_rent_cap: num, just_cause: num,
      }),
      eviction: obj({
        nonpayment_notice_days: nullable('number'), notice_day_type: { type: ['string', 'null'], enum: ['calendar', 'business', 'judicial', null] },
        notice_required: nullable('boolean'), timeline_min_days: nullable('number'), timeline_max_days: nullable('number'),
        just_cause_required: bool, just_cause_after_months: nullable('number'), notice_citation: nullable('string'), just_cause_citation: nullable('string'),
      }),
      security_deposit: obj({ has_statutory_cap: nullable('boolean'), limit_months: nullable('number'), citation: nullable('string') }),
      adverse_possession: obj({ years: nullable('number'), color_of_title_years: nullable('number'), taxes_required: nullable('boolean'), citation: nullable('string') }),
      squatter_risk: enumOf('Low', 'Moderate', 'High'), squatter_risk_notes: str,
      rent_control: obj({
        state_preemption: { type: ['string', 'null'], enum: ['yes', 'no', 'partial', null] }, preemption_citation: nullable('string'),
        statewide_cap: nullable('boolean'), statewide_cap_cpi_plus_pct: nullable('number'), statewide_cap_max_pct: nullable('number'),
        statewide_cap_new_construction_exempt_years: nullable('number'), statewide_cap_citation: nullable('string'),
        has_city_rent_control: bool, has_city_eviction_protections: bool, county_rent_control_may_apply: bool, county_eviction_protections_may_apply: bool,
        local_overlays: {
          type: 'array',
          items: obj({
            id: str, jurisdiction_level: enumOf('city', 'county', 'zip'), category: str, title: str, rent_control: bool, eviction_protections: bool,
            annual_cap_pct: nullable('number'), cap_formula: nullable('string'), source_citation: nullable('string'), uncertain: bool,
          }),
        },
      }),
      summary: str, uncertain_topics: { type: 'array', items: str }, ...LEGAL_COMMON,
    },
  },
  TaxSale: {
    type: 'object',
    required: ['state', 'lien_or_deed', 'interest_rate_pct', 'redemption_period_months', 'disclaimer', 'last_reviewed_at'],
    properties: {
      state: str, state_name: str, lien_or_deed: enumOf('lien', 'deed', 'hybrid'), interest_rate_pct: nullable('number'), rate_basis: nullable('string'),
      redemption_period_months: nullable('number'), sale_process_summary: str,
      surplus_proceeds: obj({ surplus_equity_protected: nullable('boolean'), state_procedure_reviewed: nullable('boolean'), summary: nullable('string'), citation: nullable('string') }),
      investor_actions: { type: 'array', items: str }, source_citation: nullable('string'), source_url: nullable('string'),
      uncertain_fields: { type: 'array', items: str }, ...LEGAL_COMMON,
    },
  },
  Health: obj({ status: str, build_id: nullable('string'), as_of: nullable('string'), limits: obj({ backend: enumOf('memory', 'redis'), status: enumOf('ok', 'degraded'), detail: nullable('string') }) }),
  Usage: obj({ plan: str, period_start: str, period_end: str, limit: nullable('number'), used: num, remaining: nullable('number'), per_minute_limit: nullable('number') }),
  Problem: {
    type: 'object', required: ['message'], additionalProperties: false,
    properties: { message: str, errors: { type: 'array', items: obj({ field: str, code: str, message: str }) } },
  },
  ...WEBHOOK_SCHEMAS, // issue 10
  ...EXPORT_SCHEMAS, // issue 10
};
