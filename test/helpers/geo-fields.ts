// The spec's field lists (interface-v1.md), in the spec's order, of the geo and coverage bodies (the state summary and
// city lookup end with rate_basis, additive: how to read interest_rate_pct, warehouse/docs/geo.md), and the category keys
// of the coverage body: shared by the geo shard tests over given rows (test/pipelines/geo-shards.test.ts) and over the
// real build (geo-build.test.ts).
export const STATE_FIELDS = ['state_code', 'state_name', 'landlord_friendliness_score', 'landlord_friendliness_label', 'foreclosure_type',
  'lien_or_deed', 'interest_rate_pct', 'redemption_period_months', 'rate_basis'];
export const LOOKUP_FIELDS = ['state_code', 'state_name', 'city_name', 'county_name', 'fips_code', 'metro_area', 'market_tier', 'zip_codes',
  'has_city_rent_control', 'has_city_eviction_protections', 'is_investor_active', 'landlord_risk', 'tax_type', 'interest_rate_pct',
  'redemption_period_months', 'rate_basis', 'part_counties'];
export const MARKET_FIELDS = ['city_name', 'county_name', 'market_tier', 'is_investor_active', 'has_city_rent_control'];
export const COVERAGE_FIELDS = ['addresses', 'regulations', 'regulations_by_category', 'states', 'cities', 'zips', 'counties', 'data_points',
  'last_refreshed', 'meta'];
export const CATEGORIES = ['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure',
  'rent_control', 'tax_deed_lien'];
