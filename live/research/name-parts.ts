// Words of one place's name never read as a second place (review 24 B). Pure, over the places a question's reader
// found (places.ts), before a city named with its zip or state is folded into them:
//   - a common English word just after a place read ("Vashon Island", "Vashon Island comps": Vashon, WA, not Vashon and
//     Island, KY), when that word alone is a small town's name (under 100,000 people) read with no state said;
//   - a place read with no state said just before a city of another state that the question locates by its zip or
//     state, with only spaces between and no comparison word in the question ("rehab in Inglewood nashville 37216": a
//     neighbourhood of Nashville, not Inglewood, CA), said as read; by its state alone, only a town under 100,000
//     people ("Boise Portland Oregon" is Boise and Portland: review 25).
// Rules: warehouse/docs/research.md "Entity rules".
import { isEnglishWord } from '../places/english.ts';

interface Read { state: string; city?: string; zip?: string; at: number; end: number; kind: string; free?: readonly { population: number }[] }

/** A town of this many people or more named before a city located by its state is a place of its own. */
const LARGE_CITY = 100_000;

/** Comparison words: with one, two names side by side may be two places ("Seattle Portland, OR vs ..."). */
export const COMPARED = /\b(?:vs\.?|versus|compare[sd]?|comparing|and|or|than|between|with)\b/i;

/** Removes from `found` (in place) the places read in words of another place's name, and their readings from `readAs`. */
export function dropNameParts(q: string, found: Read[], stateHits: readonly { state: string; at: number; end: number }[], readAs: string[]): void {
  const cities = found.filter((f) => f.kind === 'city').sort((a, b) => a.at - b.at);
  const drop = new Set<Read>();
  const said: string[] = [];
  for (let k = 0; k + 1 < cities.length; k++) {
    const a = cities[k]!, b = cities[k + 1]!;
    if (!/^[ \t]+$/.test(q.slice(a.end, b.at))) continue;
    const second = q.slice(b.at, b.end);
    // "Vashon Island": the word is part of the name before it
    if (/^[A-Za-z]+$/.test(second) && isEnglishWord(second) && b.free && Math.max(...b.free.map((c) => c.population)) < 100_000) {
      drop.add(b);
      said.push(second);
      continue;
    }
    // "Inglewood nashville 37216": a neighbourhood before the city it is in; a city located by its state alone takes a
    // town before it as its neighbourhood only when that is no large city ("Boise Portland Oregon" is two cities)
    const byZip = found.some((z) => z.kind === 'zip' && z.state === b.state && z.city?.toLowerCase() === b.city?.toLowerCase());
    const byState = stateHits.some((s) => s.state === b.state && s.at >= b.end && /^[\s,]*$/.test(q.slice(b.end, s.at)));
    const large = Math.max(0, ...(a.free ?? []).map((c) => c.population)) >= LARGE_CITY;
    // (Oregon's code "OR" is no comparison word: "Boise Portland, OR" was kept by it alone)
    if (a.free && a.state !== b.state && (byZip || (byState && !large)) && !COMPARED.test(q.replace(/\bOR\b/g, ' '))) {
      drop.add(a);
      const first = q.slice(a.at, a.end);
      said.push(first);
      readAs.push(`"${first}" as part of ${b.city}, ${b.state} (a neighbourhood named before its city; not ${a.city}, ${a.state})`);
    }
  }
  for (let i = found.length - 1; i >= 0; i--) if (drop.has(found[i]!)) found.splice(i, 1);
  for (let i = readAs.length - 1; i >= 0; i--) if (said.some((w) => readAs[i]!.startsWith(`"${w}" as `) && !readAs[i]!.includes(' as part of '))) readAs.splice(i, 1);
}
