// One typo in a typed street line (GET /v1/property and POST /v1/valuation/estimate, through engine.ts findAddress):
// "7921 Doe Trial Way" for 7921 DOE TRAIL WAY, "1833 East 21st Stret" for 1833 E 21ST ST. An address that names no
// property of its zip is read as the one recorded line of the zip with the same house number and unit whose words
// differ from it in one word by one typo (warehouse/docs/property.md "One typo"), never as two candidates: before
// (review 28) the valuation answered such an address as the zip's typical house, 39-42% off the record's value.
// The same holds for a line typed without the direction or suffix its record writes ("2705 Jefferson" for the zip's one
// 2705 W JEFFERSON ST: "Left out"); review 58 got a 404 naming that line first among its closest.
import { STREET_SUFFIXES, isDirection, isStreetSuffix, normalizeAddress, unitKey } from '../../warehouse/address.ts';
import { editDistance, typoBudget } from '../places/names.ts';
import type { ZipEntry } from './layout.ts';

/** The long forms of each suffix abbreviation (ST: STREET, STR): a misspelt long form ("STRET") is read against them. */
const LONG_FORMS = new Map<string, string[]>();
for (const [long, short] of Object.entries(STREET_SUFFIXES)) (LONG_FORMS.get(short) ?? LONG_FORMS.set(short, []).get(short)!).push(long);

/** Whether a typed word is one typo from a recorded one (the typo budget of the longer word: none under 5 letters, one
 *  under 9, else two), the recorded word's suffix long forms included. */
function oneTypo(typed: string, recorded: string): boolean {
  for (const form of [recorded, ...(LONG_FORMS.get(recorded) ?? [])]) {
    const budget = typoBudget(Math.max(typed.length, form.length));
    if (budget > 0 && editDistance(typed, form, budget) <= budget) return true;
  }
  return false;
}

/** The one entry of `entries` (a zip's closest street lines) a typed street and unit name with one typo in one word
 *  after the same house number; null when none or several properties do. */
export function typoEntry(entries: readonly ZipEntry[], street: string, unit: string | null): ZipEntry | null {
  const typed = street.split(' ');
  if (!/^\d/.test(typed[0] ?? '')) return null;
  const hits = entries.filter((e) => {
    const words = e[0].split(' ');
    if (words.length !== typed.length || words[0] !== typed[0] || unitKey(e[1]) !== unitKey(unit)) return false;
    const differ = words.map((w, k) => [typed[k]!, w] as const).filter(([a, b]) => a !== b);
    return differ.length === 1 && oneTypo(differ[0]![0], differ[0]![1]);
  });
  return new Set(hits.map((e) => e[2])).size === 1 ? hits[0]! : null;
}

/** Whether a recorded line's words are the typed ones with a direction after the house number or a suffix or
 *  direction at its end added: what a caller leaves out ("2705 JEFFERSON" of 2705 W JEFFERSON ST, "2705 W JEFFERSON"). */
function leftOut(typed: readonly string[], words: readonly string[]): boolean {
  if (words.length <= typed.length || words[0] !== typed[0]) return false;
  let i = 1, j = 1;
  const optional = (w: string, k: number): boolean => (k === 1 && isDirection(w)) || (k >= words.length - 2 && k > 1 && (isStreetSuffix(w) || isDirection(w)));
  for (; j < words.length; j++) {
    if (i < typed.length && typed[i] === words[j]) i++;
    else if (!optional(words[j]!, j)) return false;
  }
  return i === typed.length && typed.length >= 2;
}

/** The one entry of `entries` (a zip's street lines) that writes the typed line in full: the same house number,
 *  unit and street name, with a direction or suffix the caller left out; null when none or several properties do. */
export function leftOutEntry(entries: readonly ZipEntry[], street: string, unit: string | null): ZipEntry | null {
  const typed = street.split(' ');
  if (!/^\d/.test(typed[0] ?? '')) return null;
  const hits = entries.filter((e) => unitKey(e[1]) === unitKey(unit) && leftOut(typed, e[0].split(' ')));
  return new Set(hits.map((e) => e[2])).size === 1 ? hits[0]! : null;
}

/** The note of an answer read through one typo or a left-out direction or suffix: what was typed, what it was read as. */
export const typoNote = (typed: string, zip: string, as: string, propertyId: string): string => {
  const how = leftOut(normalizeAddress(typed).street.split(' '), as.split(' #')[0]!.split(' ')) ? 'that writes it in full (a direction or suffix left out)' : 'one typo from it';
  return `No property at "${typed.trim()}" in zip ${zip}: read as ${as} (property_id ${propertyId}), the zip's one recorded address `
    + `${how}; send that address if it is not the house meant`;
};
