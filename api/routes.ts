// Every endpoint in one table: method, path, plan group, parameters (which drive validation and the
// OpenAPI document), caching, and how the answer is found: a shard path (api/shard-replies.ts), a filtered shard or a
// live module.
import { HttpError } from './errors.ts';
import type { Reply, Route } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import type { LiveAnswer, LiveModule } from '../warehouse/live.ts';
import autocomplete from '../live/autocomplete/endpoint.ts';
import location from '../live/location/endpoint.ts';
import { buildHasSuperfund, superfundNotLoaded } from '../live/location/superfund-loaded.ts';
import places from '../live/places/endpoint.ts';
import property from '../live/property/endpoint.ts'; // issue 22
import { PROPERTY_ID_RE } from '../live/property/layout.ts'; // issue 22
import research from '../live/research/endpoint.ts';
import valuation from '../live/valuation/endpoint.ts';
import valuationScorecard from '../live/valuation/scorecard.ts'; // issue 24
import { CATEGORIES, CONDITIONS, TIERS, UNCOVERED_CODES, type ParamSpec } from './params.ts';
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';
import { WEBHOOK_ROUTES } from './webhooks/routes.ts'; // issue 10
import { EXPORT_ROUTES } from './export/routes.ts'; // issue 10
import { checkTrendsMarket, TRENDS_QUERY, trendsAnswer } from './market-trends.ts'; // issue 23
import { ALL_SUBCATEGORIES, checkRegulationsQuery, regulationsAnswer } from './regulations-lookup.ts';
import { canonicalCity, cityShard, noInvestorSource, noMarketSales, salesSourceCovers, shard, zipOutsideCoverage } from './shard-replies.ts';
import { marketCityShard } from './city-zip-sales.ts';
import { rehabReply } from './rehab-not-found.ts';

const CACHE = {
  shard: 'private, max-age=21600',
  legal: 'private, max-age=86400',
  coverage: 'public, max-age=21600, stale-while-revalidate=3600',
  live: 'no-store',
  autocomplete: 'private, max-age=3600',
} as const;

const p = {
  zip: (required: boolean, description = '5-digit US ZIP code'): ParamSpec => ({ name: 'zip', type: 'zip', required, description: `${description}; a ZIP+4 (98103-1234) is read as its 5 digits` }),
  state: (required = true): ParamSpec => ({ name: 'state', type: 'state', required, description: '2-letter uppercase state code' }),
  city: (required = true): ParamSpec => ({ name: 'city', type: 'string', required, min: 1, max: 100, description: 'City name, URL-encoded' }),
  months: (dflt: number): ParamSpec => ({ name: 'months', type: 'integer', min: 3, max: 24, default: dflt, description: `Lookback months, 3-24, default ${dflt}` }),
};

function uncovered(state: unknown): void {
  if (typeof state === 'string' && UNCOVERED_CODES.has(state)) throw new HttpError('no_data', `${state} is not covered: the service covers the 50 states and DC`);
}

/** The live endpoints the routes below answer from, in the order the server loads them per build. */
export const LIVE_MODULES: readonly LiveModule<never>[] = [places, location, valuation, valuationScorecard, autocomplete, research, property];

/** The answer of a live module to input the route already validated (its body, query or point). */
async function live(build: LoadedBuild, mod: LiveModule<never>, input: unknown): Promise<Reply> {
  const inst = build.live.get(mod);
  if (!inst) throw new HttpError('no_data', `${mod.name} data is not available in build ${build.buildId}`);
  const answer = (await inst.handle(input as never)) as LiveAnswer;
  // a time-out (504) says when to retry, as api-standards §4.3 asks of 503 and 504
  if (!answer.ok) throw new HttpError(answer.code, answer.message, { errors: answer.errors, ...(answer.code === 'upstream_timeout' ? { headers: { 'Retry-After': '1' } } : {}) });
  return { kind: 'json', body: answer.body };
}

export const ROUTES: readonly Route[] = [
  {
    method: 'GET', path: '/v1/regulations/lookup', group: 'regulations', cacheControl: CACHE.legal, response: 'RegulationList',
    summary: 'Active regulations for a state, most specific first (city, county, state), at most 100',
    query: [
      p.state(),
      { name: 'category', type: 'enum', enum: CATEGORIES, description: 'Regulation category' },
      { name: 'subcategory', type: 'string', min: 1, max: 80, enum: ALL_SUBCATEGORIES, description: 'Subcategory within the category (see warehouse/regulations/SCHEMA.md); an unknown one, or one of another category, is a 422 that lists the allowed values' },
      { name: 'jurisdiction_level', type: 'enum', enum: ['state', 'county', 'city', 'zip'], description: 'state, county, city or zip' },
      { name: 'county_fips', type: 'county_fips', description: '5-digit county FIPS' },
      { ...p.city(false), description: 'City name, URL-encoded, case-insensitive. A known city gets its state\'s records, its own by whole name and the county ones that may apply to it; an unknown name matches a record\'s city from the start of a word, and one that matches none is a 404 naming the closest cities (warehouse/docs/legal.md)' },
    ],
    check: checkRegulationsQuery,
    resolve(v, build) {
      uncovered(v['state']);
      // the city as the place resolver names it (Census names, aliases), for the records' city names and its profile
      return regulationsAnswer(build, v, typeof v['city'] === 'string' ? canonicalCity(build, v['state'], v['city']) : null);
    },
  },
  {
    method: 'GET', path: '/v1/coverage/summary', group: 'public', cacheControl: CACHE.coverage, response: 'CoverageSummary',
    summary: 'Aggregate counts of addresses, regulations and geographic coverage (no key needed)',
    resolve: () => shard('coverage', {}, 'Coverage summary missing from this build'),
  },
  {
    method: 'POST', path: '/v1/valuation/estimate', group: 'valuation', cacheControl: CACHE.live, response: 'ValuationEstimate',
    summary: 'Automated valuation with an 80% interval calibrated on a back-test',
    body: [
      p.zip(true),
      { name: 'address', type: 'string', required: true, min: 1, max: 200, description: 'Street address; a full address ("2251 League St, Philadelphia, Pennsylvania 19146", or without commas) is read without its city, state and zip' },
      { name: 'sqft', type: 'number', min: 100, max: 50000, description: 'Living area in sqft (100-50,000); improves accuracy' },
      // additive (review 6 #16): sent, they override the record's beds and baths as sqft does (facts[] source 'request')
      { name: 'beds', type: 'integer', min: 0, max: 50, description: "Bedrooms (0-50); overrides the record's, like sqft" },
      { name: 'baths', type: 'number', min: 0, max: 50, description: "Bathrooms (0-50, halves allowed); overrides the record's, like sqft" },
      { name: 'condition', type: 'enum', enum: CONDITIONS, default: 'good', defaultByHandler: true, description: 'excellent, good, fair or poor; default good' },
    ],
    resolve: (v, build) => live(build, valuation, v),
  },
  { // issue 24
    method: 'GET', path: '/v1/valuation/scorecard', group: 'valuation', cacheControl: CACHE.shard, response: 'ValuationScorecard',
    summary: "The valuation back-test's scorecard: accuracy and 80% interval coverage per source and confidence tier, PRD and PRB by price tier",
    resolve: (_v, build) => live(build, valuationScorecard, {}),
  },
  {
    method: 'POST', path: '/v1/research/query', group: 'research', cacheControl: CACHE.live, response: 'ResearchAnswer',
    summary: 'Natural-language question answered from the data, with cited sources',
    body: [
      { name: 'query', type: 'string', required: true, min: 1, truncateAt: 2000, description: 'Natural-language question (cut at 2,000 characters)' },
      {
        name: 'context', type: 'object', description: 'Optional zip, city, state and period context',
        properties: [
          { name: 'zip', type: 'zip', description: 'ZIP context: 5 digits, or a ZIP+4 (98103-1234), read as its 5 digits' },
          { name: 'city', type: 'string', min: 1, max: 100, description: 'City context' },
          { name: 'state', type: 'state', description: '2-letter state context' },
          { name: 'period', type: 'string', min: 1, max: 60, description: 'The period the earlier answer was about ("2022", "March 2022", "Q1 2022", "March to June 2022"): a follow-up comparing another period with it ("compare to 2021", "and compared with last year") gives both, side by side with the change; a follow-up naming a place and no period of its own ("and in 98103?", "what about Queens") takes it' },
        ],
      },
      { name: 'depth', type: 'enum', enum: ['quick', 'deep'], default: 'quick', description: 'quick (concise) or deep (complete, full citations); default quick' },
    ],
    resolve: (v, build) => live(build, research, v),
  },
  {
    method: 'GET', path: '/v1/market/rehab-score', group: 'market', cacheControl: CACHE.shard, response: 'RehabScore',
    summary: 'Rehab momentum score for a zip',
    query: [p.zip(true), p.months(6)],
    resolve: (v, build) => rehabReply(build, String(v['zip']), Number(v['months'])),
  },
  {
    method: 'GET', path: '/v1/market/investor-overview', group: 'market', cacheControl: CACHE.shard, response: 'InvestorOverview',
    summary: 'Investor activity for a city',
    query: [p.city(), p.state(), p.months(12)],
    resolve(v, build) {
      uncovered(v['state']);
      // a city the build knows (hint '') with no investor shard has no sale or filing: why, as the trends say it
      return marketCityShard(build, 'investor', { state: v['state'], city: v['city'], months: v['months'] }, (city, hint) =>
        (hint === '' ? noMarketSales(build, { state: v['state'], city }, `${city}, ${String(v['state'])}`, 'investor data', noInvestorSource) : `No investor data for ${city}, ${String(v['state'])}${hint}`));
    },
  },
  {
    method: 'GET', path: '/v1/market/comps', group: 'market', cacheControl: CACHE.shard, response: 'CompsSummary',
    summary: 'Comparable-sales aggregates for a zip',
    query: [p.zip(true), p.months(6), { name: 'property_type', type: 'enum', enum: PROPERTY_TYPES, default: 'sfr', description: 'sfr, multi, condo, land or commercial; default sfr' }],
    resolve: (v, build) => shard('comps', { zip: v['zip'], property_type: v['property_type'], months: v['months'] },
      salesSourceCovers(build, { zip: v['zip'] }) ? `No ${String(v['property_type'])} sales for zip ${String(v['zip'])} in the last ${String(v['months'])} months`
        : noMarketSales(build, { zip: v['zip'] }, `zip ${String(v['zip'])}`, `${String(v['property_type'])} sales to compare`)),
  },
  {
    method: 'GET', path: '/v1/market/trends', group: 'market', cacheControl: CACHE.shard, response: 'MarketTrends', // issue 23
    summary: 'Monthly sales, medians and a price index (repeat sales or median) for a zip or a city', query: TRENDS_QUERY, check: checkTrendsMarket,
    paramRules: { oneOf: [['zip'], ['city', 'state']] },
    resolve(v, build) {
      const type = String(v['property_type']), zip = v['zip'];
      if (zip !== undefined) {
        return trendsAnswer(build, shard('trends', { zip, property_type: type },
          salesSourceCovers(build, { zip }) ? `No ${type} sales for zip ${String(zip)}` : noMarketSales(build, { zip }, `zip ${String(zip)}`, `${type} sales`)), v['months']);
      }
      uncovered(v['state']);
      // a city the build knows (hint '') that no sales source covers says so; an unknown name keeps its hint
      return trendsAnswer(build, marketCityShard(build, 'trends', { state: v['state'], city: v['city'], property_type: type }, (city, hint) =>
        (hint === '' && !salesSourceCovers(build, { state: v['state'], city }) ? noMarketSales(build, { state: v['state'], city }, `${city}, ${String(v['state'])}`, `${type} sales`)
          : `No ${type} sales for ${city}, ${String(v['state'])}${hint}`)), v['months']);
    },
  },
  {
    method: 'GET', path: '/v1/geo/states', group: 'geo', cacheControl: CACHE.legal, response: 'StateList',
    summary: 'The 50 states compared: landlord friendliness, foreclosure and tax sale mechanics',
    resolve: () => shard('geo-states', {}, 'State comparison missing from this build'),
  },
  {
    method: 'GET', path: '/v1/geo/lookup', group: 'geo', cacheControl: CACHE.shard, response: 'CityLookup',
    summary: 'A city: FIPS, county, metro area, tier, zip codes and legal flags',
    query: [p.city(), p.state()],
    resolve(v, build) {
      uncovered(v['state']);
      const { city } = canonicalCity(build, v['state'], v['city'], true);
      return shard('geo-lookup', { state: v['state'], city }, `No city named ${city} in ${String(v['state'])}`);
    },
  },
  {
    method: 'GET', path: '/v1/geo/markets', group: 'geo', cacheControl: CACHE.shard, response: 'MarketList',
    summary: 'Markets in a state, by tier',
    query: [p.state(), { name: 'tier', type: 'enum', enum: TIERS, description: 'primary, secondary, tertiary or rural' },
      { name: 'investor_active', type: 'boolean', description: 'When true, only markets with active platform users' }],
    resolve(v) {
      uncovered(v['state']);
      return shard('geo-markets', { state: v['state'], tier: v['tier'] ?? 'all', investor_active: v['investor_active'] === true ? 'true' : null },
        `No markets for ${String(v['state'])}`);
    },
  },
  {
    method: 'GET', path: '/v1/location/risk', group: 'location', cacheControl: CACHE.shard, response: 'LocationRisk',
    summary: 'Flood zone, Superfund proximity and environmental risk for a zip or a point',
    query: [
      p.zip(false, '5-digit US ZIP code (or give lat and lng)'),
      { name: 'lat', type: 'number', min: -90, max: 90, description: 'Latitude, with lng' },
      { name: 'lng', type: 'number', min: -180, max: 180, description: 'Longitude, with lat' },
    ],
    paramRules: { together: [['lat', 'lng']], oneOf: [['zip'], ['lat', 'lng']] },
    check(v) {
      const hasLat = v['lat'] !== undefined;
      const hasLng = v['lng'] !== undefined;
      if (v['zip'] === undefined && !hasLat && !hasLng) return [{ field: 'zip', code: 'required', message: 'give zip, or lat and lng' }];
      if (hasLat !== hasLng) return [{ field: hasLat ? 'lng' : 'lat', code: 'required', message: 'lat and lng go together' }];
      // A zip and a point may disagree (the point in another zip): which one was meant is not ours to guess.
      if (v['zip'] !== undefined && hasLat) return [{ field: 'zip', code: 'conflict', message: 'give zip, or lat and lng, not both' }];
      return [];
    },
    resolve(v, build) {
      if (v['zip'] !== undefined) {
        if (!buildHasSuperfund(build.dir)) throw new HttpError('no_data', superfundNotLoaded(`zip ${String(v['zip'])}`));
        return shard('location-zip', { zip: v['zip'] }, zipOutsideCoverage(String(v['zip'])));
      }
      return live(build, location, { lat: v['lat'], lng: v['lng'] });
    },
  },
  {
    // issue 22: the property record (warehouse/docs/property.md)
    method: 'GET', path: '/v1/property', group: 'property', cacheControl: CACHE.shard, response: 'PropertyRecord',
    summary: 'One property: facts, sales newest first, permits, distress filings, owner type; ?include=lineage cites the source row of every field',
    query: [
      { name: 'property_id', type: 'string', min: 1, max: 64, pattern: PROPERTY_ID_RE.source, description: 'The 16-hex property_id (autocomplete results carry it); or give address and zip, or parcel_id and state' },
      { name: 'address', type: 'string', min: 1, max: 200, description: 'Street address, with zip; a city, state and zip after it are left out' },
      p.zip(false, '5-digit US ZIP code, with address'),
      { name: 'parcel_id', type: 'string', min: 1, max: 64, description: "The source's parcel id (King County id, NYC BBL, Philadelphia OPA account, Denver schedule number), with state" },
      p.state(false),
      { name: 'include', type: 'enum', enum: ['lineage'], description: 'lineage: the source, file, line, vintage and build of every field, and the losing values' },
    ],
    paramRules: { oneOf: [['property_id'], ['address'], ['parcel_id']], requires: { address: ['zip'], parcel_id: ['state'] } },
    check(v) {
      const id = v['property_id'];
      if (id !== undefined) {
        // well-formed parameters that conflict: 422, as every conflict (README "Errors"; review 15 #13)
        if (v['address'] !== undefined || v['parcel_id'] !== undefined) return [{ field: 'property_id', code: 'conflict', message: 'give property_id alone, or address and zip, or parcel_id and state' }];
        return typeof id === 'string' && PROPERTY_ID_RE.test(id) ? [] : [{ field: 'property_id', code: 'format', message: 'property_id must be 16 lower-case hex digits' }];
      }
      if (v['address'] !== undefined) {
        if (v['parcel_id'] !== undefined) return [{ field: 'parcel_id', code: 'conflict', message: 'give address and zip, or parcel_id and state, not both' }];
        return v['zip'] === undefined ? [{ field: 'zip', code: 'required', message: 'zip is required with address' }] : [];
      }
      if (v['parcel_id'] !== undefined) return v['state'] === undefined ? [{ field: 'state', code: 'required', message: 'state is required with parcel_id' }] : [];
      return [{ field: 'property_id', code: 'required', message: 'give property_id, or address and zip, or parcel_id and state' }];
    },
    resolve(v, build) {
      uncovered(v['state']);
      return live(build, property, v);
    },
  },
  {
    method: 'GET', path: '/v1/address/autocomplete', group: 'address', cacheControl: CACHE.autocomplete, response: 'AutocompleteResults',
    summary: 'Property-aware address autocomplete with beds, baths and sqft',
    query: [
      { name: 'q', type: 'string', required: true, min: 3, max: 200, description: 'Partial address, at least 3 characters' },
      { name: 'limit', type: 'integer', min: 1, max: 10, default: 5, description: 'Max results, 1-10, default 5' },
      p.state(false),
    ],
    // The spec echoes `query` as sent: the module gets the raw q (it normalises for matching itself).
    resolve(v, build, caller) {
      uncovered(v['state']); // PR, GU...: a 404 as on every route with a state (review 15: it answered [])
      return live(build, autocomplete, { ...v, q: caller.query.get('q') ?? v['q'] });
    },
  },
  {
    method: 'GET', path: '/v1/legal/market-legal-risk', group: 'legal', cacheControl: CACHE.legal, response: 'MarketLegalRisk',
    summary: 'Legal risk score for a market, with a plain-English summary and investor actions',
    query: [p.state(), p.city()],
    resolve(v, build) {
      uncovered(v['state']);
      return cityShard(build, 'legal-market-risk', { state: v['state'], city: v['city'] }, (city, hint) => `No legal risk data for ${city}, ${String(v['state'])}${hint}`);
    },
  },
  {
    method: 'GET', path: '/v1/legal/landlord-profile', group: 'legal', cacheControl: CACHE.legal, response: 'LandlordProfile',
    summary: 'Landlord friendliness, eviction timeline, adverse possession and rent control for a state or city',
    query: [p.state(), p.city(false)],
    resolve(v, build) {
      uncovered(v['state']);
      if (v['city'] === undefined) return shard('legal-landlord', { state: v['state'], city: null }, `No landlord profile for ${String(v['state'])}`);
      return cityShard(build, 'legal-landlord', { state: v['state'], city: v['city'] }, (city, hint) => `No landlord profile for ${city}, ${String(v['state'])}${hint}`);
    },
  },
  {
    method: 'GET', path: '/v1/legal/tax-sale', group: 'legal', cacheControl: CACHE.legal, response: 'TaxSale',
    summary: 'Tax lien versus deed mechanics for a state: rate, basis, redemption, sale process',
    query: [p.state()],
    resolve(v) {
      uncovered(v['state']);
      return shard('legal-tax-sale', { state: v['state'] }, `No tax sale data for ${String(v['state'])}`);
    },
  },
  // ---- issue 10: webhooks (pro) and bulk export (scale), defined in api/webhooks/routes.ts and api/export/routes.ts
  ...WEBHOOK_ROUTES,
  ...EXPORT_ROUTES,
];
