// Text rules of address autocomplete, shared by the index builder (live/autocomplete/index-builder.ts) and the
// query side (live/autocomplete/query-terms.ts), so both sides normalise the same way (warehouse/docs/address.md):
//   - upper case, accents stripped, every character other than A-Z and 0-9 is a separator ("#4" -> "4",
//     "97-29" -> "97" "29", "O'NEIL" -> "O" "NEIL")
//   - each word is mapped to one canonical form: USPS suffix and directional abbreviations both ways
//     (STREET -> ST, AVENUE/AV -> AVE, NORTH -> N, ...), so "3526 High Street" and "3526 HIGH ST" have the same tokens
//   - unit designators (APT, APARTMENT, UNIT, STE, SUITE, UN) are dropped: "APT 4", "UNIT 4" and "#4" are all "4"
import { STREET_SUFFIXES } from '../../warehouse/address.ts';

/** Words the search maps on top of the stored-address suffix table (warehouse/address.ts STREET_SUFFIXES, which the
 *  stored street lines already follow): more spellings of those suffixes, other USPS suffixes, place words, and
 *  directionals. CANONICAL is built from both; no entry here repeats a STREET_SUFFIXES word (text.unit.test.ts). */
export const SEARCH_ONLY_FORMS: readonly (readonly [string, string])[] = [
  // more street suffixes and spellings (USPS Publication 28)
  ['STRT', 'ST'], ['AVEN', 'AVE'], ['AVNUE', 'AVE'], ['BLV', 'BLVD'], ['CRT', 'CT'], ['CIRC', 'CIR'], ['PKY', 'PKWY'],
  ['PARKWY', 'PKWY'], ['HIWAY', 'HWY'], ['WAY', 'WAY'], ['CENTER', 'CTR'], ['ESTATES', 'EST'], ['GARDENS', 'GDNS'],
  ['GROVE', 'GRV'], ['HILL', 'HL'], ['ISLAND', 'IS'], ['JUNCTION', 'JCT'], ['LAKE', 'LK'], ['MOUNT', 'MT'],
  ['MOUNTAIN', 'MTN'], ['PARK', 'PARK'], ['PASSAGE', 'PSGE'], ['ROUTE', 'RTE'], ['SAINT', 'ST'], ['FORT', 'FT'],
  ['STATION', 'STA'], ['VILLAGE', 'VLG'], ['WALK', 'WALK'],
  // ordinals spelled out, as street names write them both ways ("1st" / "first")
  ['FIRST', '1ST'], ['SECOND', '2ND'], ['THIRD', '3RD'], ['FOURTH', '4TH'], ['FIFTH', '5TH'], ['SIXTH', '6TH'],
  ['SEVENTH', '7TH'], ['EIGHTH', '8TH'], ['NINTH', '9TH'], ['TENTH', '10TH'], ['ELEVENTH', '11TH'], ['TWELFTH', '12TH'],
  ['THIRTEENTH', '13TH'], ['FOURTEENTH', '14TH'], ['FIFTEENTH', '15TH'], ['SIXTEENTH', '16TH'], ['SEVENTEENTH', '17TH'],
  ['EIGHTEENTH', '18TH'], ['NINETEENTH', '19TH'], ['TWENTIETH', '20TH'],
  // directionals
  ['NORTH', 'N'], ['SOUTH', 'S'], ['EAST', 'E'], ['WEST', 'W'],
  ['NORTHEAST', 'NE'], ['NORTHWEST', 'NW'], ['SOUTHEAST', 'SE'], ['SOUTHWEST', 'SW'],
];

/** Long form (or variant) -> canonical short form: the stored-address suffixes, then the search-only forms.
 *  Canonical forms map to themselves implicitly. The entry order is LONG_FORMS' order, which no answer depends on
 *  (the search treats the forms a prefix matches as a set). */
export const CANONICAL: ReadonlyMap<string, string> = new Map([...Object.entries(STREET_SUFFIXES), ...SEARCH_ONLY_FORMS]);

/** Unit designators: dropped from both the indexed text and the query ("APT 4" == "UNIT 4" == "#4" == "4"). */
export const UNIT_DESIGNATORS: ReadonlySet<string> = new Set(['APT', 'APARTMENT', 'UNIT', 'STE', 'SUITE', 'UN', 'ROOM', 'RM',
  'SPACE', 'SPC', 'FLOOR', 'BLDG', 'BUILDING']);

/** Long forms whose canonical form differs from a prefix of themselves ("BOUL" -> BLVD): for prefix expansion. */
export const LONG_FORMS: readonly (readonly [string, string])[] = [...CANONICAL.entries()].filter(([l, s]) => l !== s);

/** The raw words of a text: upper case, accents stripped, split on everything that is not A-Z or 0-9. */
export function words(text: string): string[] {
  const up = text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();
  return up.split(/[^A-Z0-9]+/).filter((w) => w.length > 0);
}

export function canonical(word: string): string {
  return CANONICAL.get(word) ?? word;
}

/** The index tokens of a text: canonical words without unit designators. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!UNIT_DESIGNATORS.has(w)) out.push(canonical(w));
  return out;
}

/** The display street line of an address: the normalised street line, then " UNIT <unit>" when there is one. */
export function displayAddress(address: string, unit: string | null | undefined): string {
  return unit ? `${address} UNIT ${unit}` : address;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

/**
 * Every string at Damerau-Levenshtein distance 1 from `w` (substitution, adjacent transposition, deletion,
 * insertion), deduplicated, `w` itself and the empty string excluded. The typo rule: one edit of any kind, in a word
 * of any length (a one-character word only by substitution or insertion); letters are mistyped as letters and
 * digits as digits (both for a word that mixes them).
 */
export function typoVariants(w: string): string[] {
  const out = new Set<string>();
  const n = w.length;
  if (n < 1) return [];
  const ALPHABET = /^[0-9]+$/.test(w) ? DIGITS : /^[A-Z]+$/.test(w) ? LETTERS : LETTERS + DIGITS;
  for (let i = 0; i <= n; i++) for (const c of ALPHABET) out.add(w.slice(0, i) + c + w.slice(i)); // insertion
  if (n >= 2) for (let i = 0; i < n; i++) out.add(w.slice(0, i) + w.slice(i + 1)); // deletion
  for (let i = 0; i < n - 1; i++) if (w[i] !== w[i + 1]) out.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2)); // transposition
  for (let i = 0; i < n; i++) for (const c of ALPHABET) if (c !== w[i]) out.add(w.slice(0, i) + c + w.slice(i + 1)); // substitution
  out.delete(w);
  out.delete('');
  return [...out];
}

/** Ordinal endings: "1ST", "22ND", "3RD", "4TH" are one word, not a house number and a street name. */
const ORDINAL_END = new Set(['ST', 'ND', 'RD', 'TH']);

/** A house number typed without its space ("3526HIGH"): the number and the word, else null. A number with an
 *  ordinal ending (21ST) or one letter (a unit or lettered number: 12A) is one word. */
export function splitHouseNumber(w: string): [string, string] | null {
  const m = /^([0-9]+)([A-Z]{2,})$/.exec(w);
  if (!m || ORDINAL_END.has(m[2]!)) return null;
  return [m[1]!, m[2]!];
}
