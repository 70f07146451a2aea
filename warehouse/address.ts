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

/** Unit designators a street line may end with ("APT 4", "UNIT 114", "#302", "STE 200", "APT4B"): the SQL
 *  address_unit_pattern(). A designator runs into its unit only when the unit starts with a digit ("108 NORTHGATE" is
 *  a street). */
const DESIGNATOR = '(?:APT|APARTMENT|UNIT|STE|SUITE|NO)'; // SQL unit_designators()
const UNIT_RE = new RegExp(`\\s+(?:(?:${DESIGNATOR}[\\s#]|#)\\s*#?\\s*([A-Z0-9-]+)|${DESIGNATOR}([0-9][A-Z0-9-]*))$`);
/** A leading designator of a unit (SQL unit_designator_pattern()): "UNIT4" -> "4", "NORTH" stays. */
const UNIT_DESIGNATOR_RE = new RegExp(`^(?:${DESIGNATOR}[\\s#]+|#\\s*|${DESIGNATOR}([0-9]))`);

/** A unit written bare after the last comma, as the NYC DOF file writes it ("4265 WEBSTER AVENUE, 3F"): one token of
 *  at most 6 letters, digits and hyphens with a digit in it (3F, 12B, 2-G, 149A, 1000, G30, PH1, 5G5H, UNT6), or PH
 *  and a suffix (PH, PHA). A city or a state after a comma (no digit), a 5-digit zip or anything with a space is not
 *  one, and the line is then read as before. */
const BARE_UNIT_RE = /^(?:(?=[A-Z-]*\d)(?!\d{5}$)[A-Z0-9][A-Z0-9-]{0,5}|PH-?[A-Z0-9]{0,3})$/;

const clean = (raw: string): string => raw.toUpperCase().replace(/[^A-Z0-9#/&\- ]/g, ' ').replace(/\s+/g, ' ').trim().replace(/^N\/A( |$)/, '');

/** The street line as the market adapters store it (SQL normalize_address) and its unit (SQL address_unit). A typed
 *  "street, unit" (the DOF form, no designator) also reads the bare unit after the comma: the SQL adapters split that
 *  comma themselves (30_market_12_sales_nyc.sql), so this rule is for what callers type. */
export function normalizeAddress(raw: string): { street: string; unit: string | null } {
  const comma = raw.lastIndexOf(',');
  // the tail as SQL normalize_unit reads a unit column: a leading designator dropped ("UNIT4" -> "4")
  const tail = comma > 0 ? raw.slice(comma + 1).trim().toUpperCase().replace(UNIT_DESIGNATOR_RE, '$1') : '';
  const head = comma > 0 ? clean(raw.slice(0, comma)) : '';
  const bare = BARE_UNIT_RE.test(tail) && /[A-Z]/.test(head);
  const line = bare ? head : clean(raw);
  const m = UNIT_RE.exec(line); // before a bare unit: dropped, as the NYC adapter prefers the unit after the comma
  let street = m ? line.slice(0, m.index) : line;
  const unit = bare ? tail : m ? (m[1] ?? m[2]!) : null;
  const sp = street.lastIndexOf(' ');
  if (sp > 0) { const last = street.slice(sp + 1); street = street.slice(0, sp + 1) + (STREET_SUFFIXES[last] ?? last); }
  return { street, unit };
}

/** A unit as units compare: upper case, punctuation and spaces removed ("2-G" = "2G" = "2 g"); null stays null. */
export const unitKey = (unit: string | null | undefined): string | null =>
  unit == null ? null : unit.toUpperCase().replace(/[^A-Z0-9]/g, '') || null;

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
