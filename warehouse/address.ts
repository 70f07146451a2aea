// The stored form of a street address: the rule the market adapters apply in SQL (the macros normalize_address
// and address_unit in pipelines/intermediate/30_market_00_canonical_tables.sql) and the live endpoints apply to
// what a caller types, so a typed address meets the stored one. test/warehouse/address.test.ts runs both over the
// same inputs and fails when they part.

/** USPS Publication 28 abbreviations of the last word of a street line (the SQL macro street_suffix_abbrev). */
export const STREET_SUFFIXES: Readonly<Record<string, string>> = {
  STREET: 'ST', STR: 'ST', AVENUE: 'AVE', AV: 'AVE', AVN: 'AVE', BOULEVARD: 'BLVD', BOUL: 'BLVD', DRIVE: 'DR', DRV: 'DR',
  ROAD: 'RD', LANE: 'LN', COURT: 'CT', PLACE: 'PL', TERRACE: 'TER', TERR: 'TER', CIRCLE: 'CIR', PARKWAY: 'PKWY',
  HIGHWAY: 'HWY', SQUARE: 'SQ', TRAIL: 'TRL', EXPRESSWAY: 'EXPY', FREEWAY: 'FWY', TURNPIKE: 'TPKE', ALLEY: 'ALY',
  CROSSING: 'XING', HEIGHTS: 'HTS', POINT: 'PT', RIDGE: 'RDG', COVE: 'CV', CRESCENT: 'CRES', PLAZA: 'PLZ',
  HOLLOW: 'HOLW', MANOR: 'MNR', MEADOWS: 'MDWS', VIEW: 'VW',
};

/** Unit designators a street line may end with ("APT 4", "UNIT 114", "#302", "STE 200"): the SQL address_unit_pattern(). */
const UNIT_RE = /\s+(?:APT|APARTMENT|UNIT|STE|SUITE|#|NO)\s*#?\s*([A-Z0-9-]+)$/;

/** The street line as the market adapters store it (SQL normalize_address) and its unit (SQL address_unit). */
export function normalizeAddress(raw: string): { street: string; unit: string | null } {
  const clean = raw.toUpperCase().replace(/[^A-Z0-9#/&\- ]/g, ' ').replace(/\s+/g, ' ').trim();
  const m = UNIT_RE.exec(clean);
  let street = m ? clean.slice(0, m.index) : clean;
  const unit = m ? m[1]! : null;
  const sp = street.lastIndexOf(' ');
  if (sp > 0) { const last = street.slice(sp + 1); street = street.slice(0, sp + 1) + (STREET_SUFFIXES[last] ?? last); }
  return { street, unit };
}

/** The address key of a stored address: `street #unit`, or the street alone. */
export const addressKey = (street: string, unit: string | null): string => (unit ? `${street} #${unit}` : street);

/** The pre-directionals of USPS Publication 28, spelled out -> abbreviated. */
const DIRECTIONALS: Readonly<Record<string, string>> = { NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W', NORTHEAST: 'NE', NORTHWEST: 'NW', SOUTHEAST: 'SE', SOUTHWEST: 'SW' };
const SPELLED = new Map(Object.entries(DIRECTIONALS).map(([full, abbr]) => [abbr, full]));
const SUFFIX_FORMS = new Set(Object.values(STREET_SUFFIXES));

/** A normalized street line and, when its word after the house number is a direction, the same line with that word
 *  in its other form ("631 E 6TH ST" and "631 EAST 6TH ST"): sources differ (NYC spells directions out, Philadelphia
 *  abbreviates them) and so do callers. The stored lines are kept as each source wrote them, so a lookup tries both.
 *  A direction that is the street's own name ("100 EAST ST") has no other form. */
export function streetVariants(street: string): string[] {
  const m = /^(\S+ )(\S+) (.+)$/.exec(street);
  if (!m) return [street];
  const [, number, word, rest] = m as unknown as [string, string, string, string];
  if (!rest.includes(' ') && SUFFIX_FORMS.has(rest)) return [street];
  const other = DIRECTIONALS[word] ?? SPELLED.get(word);
  return other ? [street, `${number}${other} ${rest}`] : [street];
}
