// A city named by a state's name and a misspelt or short "City", "Beach" or "Springs" ("Kansas Cty", "Oklahoma Ciy",
// "Virginia Baech", "Colorado Spgs"):
// the city, said as a misspelling is, never the state (review 25: "Kansas Cty home prices" was asked of the state of
// Kansas). The exact words ("Kansas City") are read by places.ts, which leaves such a state name to the city reader.
// Pure (POST /v1/research/query; places.ts findPlaces). Rules: warehouse/docs/research.md "Entity rules".
import { isEnglishWord } from '../places/english.ts';
import { editDistance } from '../places/names.ts';
import type { City } from './data.ts';
import { namesakeClause } from './namesake-read.ts';
import type { Gazetteer } from './place-words.ts';
import { stateAt } from './state-clash.ts';

/** The words that follow a state's name in a city's name. */
const TAILS = ['city', 'beach', 'springs'];
/** Their abbreviations ("Colorado Spgs"). */
const SHORT: Readonly<Record<string, string>> = { spgs: 'springs', spg: 'springs', bch: 'beach' };

/** The city a state's name at [s, e) of `q` starts when the next word is a misspelt "city", "beach" or "springs" (one
 *  edit, three letters or more, no English word) or a short form of one ("Spgs") and the name with that word is a city: its span, the city (the
 *  namesake in a state written just after it, else the most populous) and the reading to say; null else. */
export function stateCityTypo(q: string, s: number, e: number, gaz: Pick<Gazetteer, 'citiesByName'>): { end: number; city: City; readAs: string } | null {
  const next = /^([ \t]+)([A-Za-z]{3,6})\b/.exec(q.slice(e));
  if (!next) return null;
  const word = next[2]!.toLowerCase();
  // (an English word is meant as written: "Virginia teach", "Kansas pity")
  const tail = SHORT[word] ?? (isEnglishWord(word) ? undefined : TAILS.find((t) => t !== word && editDistance(word, t, 1) <= 1));
  const state = q.slice(s, e).toLowerCase().replace(/\s+/g, ' ');
  const cands = tail ? gaz.citiesByName.get(`${state} ${tail}`) : undefined;
  if (!cands?.length) return null;
  const end = e + next[0].length;
  const after = stateAt(q.slice(end));
  const own = after ? cands.find((c) => c.state === after.code) : undefined;
  const city = own ?? cands[0]!;
  const namesake = own ? null : namesakeClause(city, cands);
  const why = SHORT[word] ? `"${next[2]}" read as ${tail![0]!.toUpperCase()}${tail!.slice(1)}` : 'the closest city name';
  return { end, city, readAs: `"${q.slice(s, end)}" as ${city.name}, ${city.state} (${why}${namesake ? `; ${namesake}` : ''})` };
}

/** Whether a state's name at [s, e) of `q` starts a city's name with the next word ("Kansas City", "Virginia Beach",
 *  "Colorado Springs", "Texas City"): "city" or "beach", or another word of a city of 100,000 people or more
 *  ("Colorado Springs"; never "Washington Heights", Manhattan's, nor "Washington Park", a small town's), in any case. The city reader reads it then, not the state (review 25: "median price in
 *  Colorado Springs" was asked of the state of Colorado). */
export function stateStartsCity(q: string, s: number, e: number, gaz: Pick<Gazetteer, 'citiesByName'>): boolean {
  const next = /^[ \t]+([A-Za-z]+)\b/.exec(q.slice(e));
  if (!next) return false;
  const cands = gaz.citiesByName.get(`${q.slice(s, e).toLowerCase().replace(/\s+/g, ' ')} ${next[1]!.toLowerCase()}`);
  if (!cands?.length) return false;
  return /^(city|beach)$/i.test(next[1]!) || cands[0]!.population >= 100_000;
}
