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

/** A place after the street line, as a full address writes it (", Philadelphia, PA 19146"): the last comma parts
 *  that are a zip (or zip+4) after a place or alone, or a place (letters, dots, apostrophes and hyphens: a city, a state
 *  in any form, "Phila.", "Penn."), and not a unit (a bare unit, or a part that starts with APT/UNIT/#...). The
 *  adapters' address columns hold the street line alone, so this rule, like the bare unit, is for what callers type. */
const ZIP_TAIL_RE = /^(.*?)\s*\b(\d{5})(?:-\d{4})?$/;
const PLACE_RE = /^(?:[A-Z]{2}|[A-Z][A-Z .'-]*[A-Z.])$/;
const DESIGNATOR_START_RE = new RegExp(`^(?:${DESIGNATOR}\\b|#)`);

/** What the live side knows of place names (live/places/address-place.ts, over the place resolver): the state a phrase
 *  writes (a code, a name, a misspelling, a short form: "Calif."), and whether a phrase names a city of a state
 *  (`state` null: the zip's own city). With it, a place written without commas is read too. */
export interface PlaceNames {
  state(phrase: string): string | null;
  city(phrase: string, state: string | null): boolean;
}

/** A typed address without its place (city, state, zip after commas; with `names`, also after the street line without
 *  commas: "2251 League St Philadelphia PA 19146") and the zip it named, if any; the street line and a bare unit
 *  ("street, 4B") stay. */
export function splitPlace(raw: string, names?: PlaceNames): { line: string; zip: string | null } {
  const parts = asciiLetters(raw).split(',');
  let zip: string | null = null;
  let state: string | null = null;
  let placed = false;
  while (parts.length > 1) {
    const tail = parts[parts.length - 1]!.trim().toUpperCase().replace(/\s+/g, ' ');
    if (BARE_UNIT_RE.test(tail) || DESIGNATOR_START_RE.test(tail)) break;
    const z = ZIP_TAIL_RE.exec(tail);
    const rest = z ? z[1]! : tail;
    if (rest !== '' && !PLACE_RE.test(rest)) break;
    if (z) zip ??= z[2]!;
    if (rest !== '' && names) state ??= tailState(rest.split(' '), names)?.code ?? null;
    parts.pop();
    placed = true;
  }
  if (!names) return { line: parts.join(','), zip };
  const last = placeWords(parts.pop()!, names, { placed, state });
  return { line: [...parts, last.line].join(','), zip: zip ?? last.zip };
}

/** Words a street line ends with (its suffix, a direction, a unit): a state after them is the place, not the street's. */
const SUFFIX_WORDS = new Set([...Object.keys(STREET_SUFFIXES), ...Object.values(STREET_SUFFIXES), 'WAY', 'LOOP', 'PIKE', 'ROW', 'WALK', 'RUN', 'PATH', 'PASS']);
const DIRECTION_WORDS = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW', 'NORTH', 'SOUTH', 'EAST', 'WEST', 'NORTHEAST', 'NORTHWEST', 'SOUTHEAST', 'SOUTHWEST']);
const endsStreet = (words: readonly string[]): boolean => words.length >= 2
  && (SUFFIX_WORDS.has(words[words.length - 1]!) || DIRECTION_WORDS.has(words[words.length - 1]!) || UNIT_RE.test(words.join(' ')));

/** The state the last one to three words write, and how many. */
function tailState(words: readonly string[], names: PlaceNames): { code: string; n: number } | null {
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const code = names.state(words.slice(-n).join(' '));
    if (code) return { code, n };
  }
  return null;
}

/** A street line's place written without commas, from its end: a zip, a state in any form, a city (of that state, or
 *  without a state the zip's own). Never a street's own word: two words at least stay, no word after a unit designator
 *  ("123 Main St Unit Indiana") is taken, a state needs a city before it, a zip or a comma place after it, or a street
 *  ending before it ("100 Virginia Ave" has none after); a state code that is also a direction (NE) needs the city
 *  ("100 Main St NE"), one that is also a suffix (CT) a street's suffix before it ("12 Oak Ct" is a court). */
function placeWords(part: string, names: PlaceNames, after: { placed: boolean; state: string | null }): { line: string; zip: string | null } {
  const toks = [...part.matchAll(/\S+/g)];
  const up = toks.map((t) => t[0].toUpperCase().replace(/\.$/, ''));
  const text = (a: number, b: number): string => toks.slice(a, b).map((t) => t[0]).join(' ');
  const free = (at: number): boolean => at >= 2 && !/^(?:APT|APARTMENT|UNIT|STE|SUITE|NO|#)$/.test(up[at - 1]!);
  let end = toks.length;
  let zip: string | null = null;
  const z = end > 2 ? ZIP_TAIL_RE.exec(up[end - 1]!) : null;
  if (z && z[1] === '' && free(end - 1)) { zip = z[2]!; end--; }
  const cityFrom = (to: number, state: string | null): number | null => {
    for (let n = Math.min(4, to - 2); n >= 1; n--) if (free(to - n) && names.city(text(to - n, to), state)) return to - n;
    return null;
  };
  const st = tailState(toks.slice(0, end).map((t) => t[0]), names);
  if (st && free(end - st.n)) {
    const at = end - st.n;
    const city = cityFrom(at, st.code);
    const ends = endsStreet(up.slice(0, at));
    // a code that is a direction (NE) only after a city; one that is a suffix (CT) only after a street's own suffix
    const word = st.n === 1 && (DIRECTION_WORDS.has(up[at]!) || (SUFFIX_WORDS.has(up[at]!) && !ends));
    if (city !== null) return { line: text(0, city), zip };
    if (!word && (after.placed || zip !== null || ends)) return { line: text(0, at), zip };
  }
  const city = cityFrom(end, after.state);
  return { line: text(0, city ?? end), zip };
}

/** Letters as ASCII before the ASCII rule: compatibility forms (full-width "ＳＴＯＮＥ") as their letters and accents
 *  off ("Stöne", "Léague"), as the SQL address_clean does (translate of the full-width forms, strip_accents); else
 *  every such letter became a space ("4000 ST NE WAY N"). */
export const asciiLetters = (raw: string): string => raw.normalize('NFKD').replace(/\p{M}/gu, '');

const clean = (raw: string): string => asciiLetters(raw).toUpperCase().replace(/[^A-Z0-9#/&\- ]/g, ' ').replace(/\s+/g, ' ').trim().replace(/^N\/A( |$)/, '');

/** The street line as the market adapters store it (SQL normalize_address) and its unit (SQL address_unit). A typed
 *  "street, unit" (the DOF form, no designator) also reads the bare unit after the comma: the SQL adapters split that
 *  comma themselves (30_market_12_sales_nyc.sql), so this rule is for what callers type. */
export function normalizeAddress(typed: string): { street: string; unit: string | null } {
  const raw = splitPlace(typed).line; // "2251 League St, Philadelphia, PA 19146" reads as "2251 League St"
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

/** Whether a word of a normalized street line is a direction (N, NE, NORTH...) or a street suffix (ST, AVE...): the words
 *  a caller may leave out of a line the records write in full ("2705 Jefferson" for 2705 W JEFFERSON ST). */
export const isDirection = (word: string): boolean => DIRECTIONALS[word] !== undefined || SPELLED.has(word);
export const isStreetSuffix = (word: string): boolean => SUFFIX_FORMS.has(word);

/** The ordinal of a number: 1ST, 2ND, 3RD, 4TH, 11TH-13TH, 21ST, 22ND... */
const ordinal = (n: string): string => {
  const v = Number(n) % 100, d = v % 10;
  return n + (v >= 11 && v <= 13 ? 'TH' : d === 1 ? 'ST' : d === 2 ? 'ND' : d === 3 ? 'RD' : 'TH');
};

/** A number in its other form: "22" -> "22ND", "22ND" -> "22"; null for no number or a wrong ending ("22RD"). */
const otherNumber = (word: string): string | null => {
  const m = /^(\d+)(ST|ND|RD|TH)$/.exec(word);
  return /^\d+$/.test(word) ? ordinal(word) : m && ordinal(m[1]!) === word ? m[1]! : null;
};

/** A line whose street name is a number ("343 22 ST", "203 EAST 7 ST") in the other form, with or without its
 *  ordinal ending ("343 22ND ST", "203 EAST 7TH ST"); null when its name is no number. Sources differ (NYC writes both "EAST
 *  7 ST" and "EAST 7TH ST", Philadelphia "22ND ST") and so do callers. The number may also stand behind a word, just
 *  before the street's suffix ("564 BEACH 43 ST", "BAY 8 ST", "PLUMB 1 ST": NYC's records write "BEACH 43RD STREET"). */
function otherNumbering(street: string): string | null {
  const w = street.split(' ');
  const i = w.length >= 4 && (DIRECTIONALS[w[1]!] ?? SPELLED.get(w[1]!)) ? 2 : 1; // after a direction: "203 EAST 7 ST"
  if (w.length < i + 2) return null; // the number needs a suffix after it: "343 22" is no street
  const at = (j: number, other: string): string => [...w.slice(0, j), other, ...w.slice(j + 1)].join(' ');
  const first = otherNumber(w[i]!);
  if (first !== null) return at(i, first);
  const j = w.length - 2; // behind a word: "564 BEACH 43 ST"
  const behind = j > i && SUFFIX_FORMS.has(w[w.length - 1]!) ? otherNumber(w[j]!) : null;
  return behind === null ? null : at(j, behind);
}

/** A normalized street line and, when its word after the house number is a direction, the same line with that word
 *  in its other form ("631 E 6TH ST" and "631 EAST 6TH ST"): sources differ (NYC spells directions out, Philadelphia
 *  abbreviates them) and so do callers. The stored lines are kept as each source wrote them, so a lookup tries both.
 *  A direction that is the street's own name ("100 EAST ST") has no other form. Each form also comes with its
 *  numbered street name in its other form (otherNumbering: "343 22 ST" and "343 22ND ST"), and a name spelled as an
 *  ordinal in figures ("235 EAST SEVENTH ST" -> "235 EAST 7TH ST", "NINETY SIXTH" -> "96TH"). In a Queens zip
 *  (`zip`), a house number of 4-5 digits typed without its hyphen is tried last with it ("17541" -> "175-41", then
 *  "17-541": Queens' numbers are written "175-41", the hyphen after the 2nd or 3rd digit). */
export function streetVariants(street: string, zip?: string | null): string[] {
  const typed = directionVariants(street);
  const forms = [...typed, ...typed.map(ordinalInFigures).filter((f): f is string => f !== null)];
  const all = [...forms, ...forms.map(otherNumbering).filter((f): f is string => f !== null)];
  if (!zip || !QUEENS_ZIP_RE.test(zip)) return all;
  const hyphened = all.map(queensNumbers); // every form with two digits after the hyphen first
  return [...all, ...[0, 1].flatMap((k) => hyphened.map((h) => h[k]).filter((f): f is string => f !== undefined))];
}

/** Queens' zips (110xx-111xx, 113xx-114xx, 116xx: USPS's Queens sectional centers), where house numbers are hyphenated. */
const QUEENS_ZIP_RE = /^11(?:0|1|3|4|6)\d\d$/;
/** A line whose house number has 4-5 digits and no hyphen, with the hyphen after its 2nd or 3rd digit (two digits
 *  after it first: 26,104 and 19,704 of Queens' 46,479 hyphenated raw rows end in two). */
function queensNumbers(street: string): string[] {
  const m = /^(\d{4,5}) (.+)$/.exec(street);
  if (!m) return [];
  const n = m[1]!;
  return [n.length - 2, 2, 3].filter((at, k, xs) => at >= 2 && at <= 3 && xs.indexOf(at) === k)
    .map((at) => `${n.slice(0, at)}-${n.slice(at)} ${m[2]}`);
}

const ORDINAL_WORDS: Record<string, number> = Object.fromEntries([
  ...['FIRST', 'SECOND', 'THIRD', 'FOURTH', 'FIFTH', 'SIXTH', 'SEVENTH', 'EIGHTH', 'NINTH', 'TENTH', 'ELEVENTH', 'TWELFTH',
    'THIRTEENTH', 'FOURTEENTH', 'FIFTEENTH', 'SIXTEENTH', 'SEVENTEENTH', 'EIGHTEENTH', 'NINETEENTH'].map((w, k) => [w, k + 1]),
  ...['TWENTIETH', 'THIRTIETH', 'FORTIETH', 'FIFTIETH', 'SIXTIETH', 'SEVENTIETH', 'EIGHTIETH', 'NINETIETH'].map((w, k) => [w, 20 + 10 * k]),
  ['HUNDREDTH', 100],
]);
const TENS_WORDS: Record<string, number> = Object.fromEntries(['TWENTY', 'THIRTY', 'FORTY', 'FIFTY', 'SIXTY', 'SEVENTY', 'EIGHTY', 'NINETY'].map((w, k) => [w, 20 + 10 * k]));

/** A line whose street name (after the house number) is an ordinal spelled out, in figures: "SEVENTH" -> "7TH",
 *  "TWENTY FIRST" / "TWENTY-FIRST" -> "21ST", "ONE HUNDRED TWENTY FIFTH" -> "125TH"; null when it has none. */
function ordinalInFigures(street: string): string | null {
  const w = street.split(' ').flatMap((x, i) => (i > 0 && /^[A-Z]+-[A-Z]+$/.test(x) ? x.split('-') : [x]));
  for (let i = 1; i < w.length; i++) {
    let j = i, value = 0;
    if (w[j] === 'ONE' && w[j + 1] === 'HUNDRED') { value = 100; j += 2; if (w[j] === 'AND') j++; }
    const tens = TENS_WORDS[w[j]!];
    if (tens !== undefined && ORDINAL_WORDS[w[j + 1]!] !== undefined && ORDINAL_WORDS[w[j + 1]!]! < 10) { value += tens; j++; }
    const last = ORDINAL_WORDS[w[j]!];
    if (last === undefined || (value % 100 !== 0 && last >= 10) || (value >= 100 && last === 100)) continue;
    return [...w.slice(0, i), ordinal(String(value + last)), ...w.slice(j + 1)].join(' ');
  }
  return null;
}

function directionVariants(street: string): string[] {
  const m = /^(\S+ )(\S+) (.+)$/.exec(street);
  if (!m) return [street];
  const [, number, word, rest] = m as unknown as [string, string, string, string];
  if (!rest.includes(' ') && SUFFIX_FORMS.has(rest)) return [street];
  const other = DIRECTIONALS[word] ?? SPELLED.get(word);
  return other ? [street, `${number}${other} ${rest}`] : [street];
}
