// One typo in a typed street line (GET /v1/property and POST /v1/valuation/estimate, through engine.ts findAddress):
// "7921 Doe Trial Way" for 7921 DOE TRAIL WAY, "1833 East 21st Stret" for 1833 E 21ST ST. An address that names no
// property of its zip is read as the one recorded line of the zip with the same house number and unit whose words
// differ from it in one word by one typo (warehouse/docs/property.md "One typo"), never as two candidates: before
// (review 28) the valuation answered such an address as the zip's typical house, 39-42% off the record's value.
import { STREET_SUFFIXES, unitKey } from '../../warehouse/address.ts';
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

/** The note of an answer read through one typo: what was typed, what it was read as. */
export const typoNote = (typed: string, zip: string, as: string, propertyId: string): string =>
  `No property at "${typed.trim()}" in zip ${zip}: read as ${as} (property_id ${propertyId}), the zip's one recorded address `
  + 'one typo from it; send that address if it is not the house meant';
