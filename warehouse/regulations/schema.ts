// Regulation records: the nine categories, the jurisdiction levels, statuses and state codes (with the state
// names table), the record's field set, and the structured_data key set per subcategory with its tiny type language.
// The validator and loader of the JSON files under warehouse/regulations/{states,local}/: validate.ts.
// Pure TypeScript. SCHEMA.md documents the same tables in prose.

export const CATEGORIES = [
  'landlord_tenant',
  'eviction',
  'creative_finance',
  'adverse_possession',
  'foreclosure',
  'zoning',
  'disclosure',
  'rent_control',
  'tax_deed_lien',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const JURISDICTION_LEVELS = ['state', 'county', 'city', 'zip'] as const;
export type JurisdictionLevel = (typeof JURISDICTION_LEVELS)[number];

export const STATUSES = ['active', 'pending', 'expired'] as const;
export type Status = (typeof STATUSES)[number];

/** The 50 states plus DC. */
export const STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
/** Full names of the 50 states and DC (one list for the build and the API). */
export const STATE_NAMES: Readonly<Record<(typeof STATE_CODES)[number], string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut',
  DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
  IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York',
  NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

/** The Census FIPS code of each state and DC: the first two digits of its counties' 5-digit FIPS codes
 *  (test/warehouse/regulations.test.ts checks them against the Census gazetteer's county list). */
export const STATE_FIPS: Readonly<Record<(typeof STATE_CODES)[number], string>> = {
  AL: '01', AK: '02', AZ: '04', AR: '05', CA: '06', CO: '08', CT: '09', DE: '10', DC: '11', FL: '12', GA: '13',
  HI: '15', ID: '16', IL: '17', IN: '18', IA: '19', KS: '20', KY: '21', LA: '22', ME: '23', MD: '24', MA: '25',
  MI: '26', MN: '27', MS: '28', MO: '29', MT: '30', NE: '31', NV: '32', NH: '33', NJ: '34', NM: '35', NY: '36',
  NC: '37', ND: '38', OH: '39', OK: '40', OR: '41', PA: '42', RI: '44', SC: '45', SD: '46', TN: '47', TX: '48',
  UT: '49', VT: '50', VA: '51', WA: '53', WV: '54', WI: '55', WY: '56',
};

/** The exact field set of a regulation record (spec: "Regulation record"). */
export const RECORD_FIELDS = [
  'id',
  'jurisdiction_level',
  'state_code',
  'county_fips',
  'city',
  'category',
  'subcategory',
  'title',
  'summary',
  'structured_data',
  'source_citation',
  'source_url',
  'effective_date',
  'status',
  'verified_at',
  'last_reviewed_at',
] as const;

/** Top-level fields that may be named in structured_data.uncertain_fields besides the subcategory keys. */
export const UNCERTAIN_TOP_LEVEL_FIELDS = ['summary', 'source_citation', 'source_url', 'effective_date', 'status'] as const;

/** Every uncertain record says so in plain words; one of these phrases must appear in its summary. */
export const UNCERTAINTY_PHRASE = /unverified|sources conflict/i;

// ---------- the tiny type language for structured_data values

export type KeyType =
  | { kind: 'number'; nullable: boolean }
  | { kind: 'boolean'; nullable: boolean }
  | { kind: 'string'; nullable: boolean }
  | { kind: 'string[]'; nullable: false }
  | { kind: 'enum'; values: readonly string[]; nullable: boolean };

const num: KeyType = { kind: 'number', nullable: false };
const numOrNull: KeyType = { kind: 'number', nullable: true };
const bool: KeyType = { kind: 'boolean', nullable: false };
const boolOrNull: KeyType = { kind: 'boolean', nullable: true };
const strOrNull: KeyType = { kind: 'string', nullable: true };
const strList: KeyType = { kind: 'string[]', nullable: false };
const oneOf = (values: readonly string[], nullable = false): KeyType => ({ kind: 'enum', values, nullable });

export function describeKeyType(t: KeyType): string {
  const base = t.kind === 'enum' ? t.values.map((v) => JSON.stringify(v)).join('|') : t.kind;
  return t.nullable ? `${base}|null` : base;
}

/** One shared key set for city/county overlays, whatever category they sit in. */
const LOCAL_OVERLAY_KEYS = {
  rent_control: bool,
  eviction_protections: bool,
  annual_cap_pct: numOrNull,
  cap_formula: strOrNull,
  // true on a county record whose rules cover only the county's unincorporated areas: it never applies inside an
  // incorporated city (cities.is_incorporated). false on every city record.
  unincorporated_only: bool,
} as const;

/**
 * structured_data key set per `${category}/${subcategory}`. Every record's structured_data has
 * exactly these keys plus `uncertain_fields: string[]`.
 */
export const SUBCATEGORY_KEYS: Readonly<Record<string, Readonly<Record<string, KeyType>>>> = {
  'landlord_tenant/security_deposit': {
    has_statutory_cap: bool,
    deposit_limit_months: numOrNull,
  },
  'landlord_tenant/local_overlay': LOCAL_OVERLAY_KEYS,

  'eviction/nonpayment_notice': {
    notice_required: bool,
    notice_days: numOrNull,
    day_type: oneOf(['calendar', 'business', 'judicial'], true),
  },
  'eviction/timeline_estimate': {
    min_days: numOrNull,
    max_days: numOrNull,
  },
  'eviction/just_cause': {
    just_cause_required: bool,
    applies_after_months: numOrNull,
  },
  'eviction/local_overlay': LOCAL_OVERLAY_KEYS,

  'rent_control/state_preemption': {
    preempts_local: oneOf(['yes', 'no', 'partial']),
    statewide_cap: bool,
  },
  'rent_control/statewide_cap': {
    statewide_cap: bool,
    cpi_plus_pct: numOrNull,
    max_annual_increase_pct: numOrNull,
    new_construction_exempt_years: numOrNull,
  },
  'rent_control/local_overlay': LOCAL_OVERLAY_KEYS,

  'adverse_possession/standard_period': {
    years: num,
    taxes_required: boolOrNull,
  },
  'adverse_possession/color_of_title': {
    has_color_of_title_route: bool,
    color_of_title_years: numOrNull,
  },

  'foreclosure/process': {
    foreclosure_type: oneOf(['judicial', 'non-judicial', 'hybrid']),
  },

  'tax_deed_lien/tax_sale': {
    sale_type: oneOf(['lien', 'deed', 'hybrid']),
    interest_rate_pct: numOrNull,
    rate_basis: strOrNull,
    redemption_period_months: numOrNull,
  },
  'tax_deed_lien/surplus_proceeds': {
    surplus_equity_protected: bool,
    state_procedure_reviewed: bool,
  },

  'creative_finance/due_on_sale': {
    lender_may_enforce: bool,
    federal_preemption: bool,
    residential_exemptions: strList,
  },
  'creative_finance/seller_financing': {
    one_property_exclusion_limit: num,
    three_property_exclusion_limit: num,
    min_fixed_years_if_adjustable: num,
    state_licensing_reviewed: bool,
  },
  'creative_finance/contract_for_deed': {
    has_specific_statute: bool,
  },

  'zoning/enabling_authority': {
    zoning_is_local: bool,
    enabling_statute_cited: bool,
  },
  'zoning/adu_law': {
    state_adu_law: bool,
    enacted_year: numOrNull,
  },

  'disclosure/lead_paint': {
    applies_to_pre_1978_housing: bool,
    applies_to_leases: bool,
    buyer_inspection_days: num,
  },
  'disclosure/seller_disclosure': {
    statute_identified: bool,
  },
};

export type StructuredData = Record<string, unknown> & { uncertain_fields: string[] };

export interface RegulationRecord {
  id: string;
  jurisdiction_level: JurisdictionLevel;
  state_code: string;
  county_fips: string | null;
  city: string | null;
  category: Category;
  subcategory: string;
  title: string;
  summary: string;
  structured_data: StructuredData;
  source_citation: string | null;
  source_url: string | null;
  effective_date: string | null;
  status: Status;
  verified_at: string | null;
  last_reviewed_at: string | null;
}
