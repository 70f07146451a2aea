// How a city name read as its most populous namesake is said (pure): one wording for a name typed in the question
// (places.ts) and one given as context.city (context-place.ts), so neither reads another state's rule silently.
// Rules: warehouse/docs/research.md "Entity rules".
import type { City } from './data.ts';
import { STATE_NAME_SET, SUBJECT_NEXT } from './place-words.ts';
import { isNamesakeWord } from './place-aliases.ts';

/** The reading to say when `pick`, the most populous of `cands`, was read for `written` with no state said: when
 *  another state has a namesake of 5% of its population or more ("Kansas City" as Kansas City, MO, not KS); null when
 *  the name is as good as unique ("Houston"). */
export function mostPopulousReading(written: string, pick: City, cands: readonly City[]): string | null {
  const why = namesakeClause(pick, cands);
  return why ? `"${written}" as ${pick.name}, ${pick.state} (${why})` : null;
}

/** Why `pick` of `cands` was read, when another state has a namesake of 5% of its population or more: "the most
 *  populous of 12 US places of that name; name the state for another"; null else. Said after a misspelling's reading
 *  too ("Portlnd" as Portland, OR (the closest city name; the most populous of 12 ...): review 24, the namesake went
 *  unsaid when the name was misspelt). */
export function namesakeClause(pick: City, cands: readonly City[]): string | null {
  const rival = cands.find((c) => c.state !== pick.state);
  if (pick !== cands[0] || !rival || rival.population < 0.05 * pick.population) return null;
  return `the most populous of ${cands.length} US places of that name; name the state for another`;
}

/** How a bare "Washington" read as the state is said, in the case written ("washington"), and a close misspelling the
 *  state-name reader takes ("Washingtn": review 24, read as the state unsaid); `state` when "state" follows it ("Washingtn
 *  state"), which needs no word on the District. */
export function washingtonReading(written: string, typo: boolean, state: boolean): string {
  const why = [typo ? 'the closest state name' : '', state ? '' : 'say "Washington DC" for the District of Columbia'].filter(Boolean).join('; ');
  return `"${written}" as Washington State (${why})`;
}

/** The same for a context city with no context state: also when the name is a state's ("Washington" as Washington, DC,
 *  not the state). */
export function contextCityReading(written: string, pick: City, cands: readonly City[]): string | null {
  const most = mostPopulousReading(written, pick, cands);
  if (most) return most;
  if (STATE_NAME_SET.has(written.trim().toLowerCase()) && pick === cands[0]) {
    return `"${written}" as ${pick.name}, ${pick.state} (the most populous US place of that name, not the state; give the state for another)`;
  }
  return null;
}

/** Whether a town name that is a person's (Franklin, Madison) stands as the subject of a question about a place: just
 *  after "Is", "Does", "Do" or "Has" and before a place question's word ("Is Franklin landlord friendly?", "Does
 *  Clinton have rent control?"), as after "in" (place-aliases.ts namesakeAfterCue; review 23: before, "Is Franklin
 *  landlord friendly?" asked for a state while "eviction notice in Franklin" read Franklin, TN). */
export function namesakeSubject(q: string, phrase: string, at: number, end: number): boolean {
  if (!isNamesakeWord(phrase) || !/\b(?:is|does|do|has)\s+$/i.test(q.slice(0, at))) return false;
  const next = /^\s+([a-z]+)/i.exec(q.slice(end));
  return next !== null && SUBJECT_NEXT.has(next[1]!.toLowerCase());
}

/** Each reading said once per place, however often the question names it and in whatever case ("Kansas City ... kansas
 *  city": review 23, a 15 KB question got one clause per mention). */
export function onceEach(readAs: string[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < readAs.length; i++) {
    const key = readAs[i]!.replace(/^"[^"]*"/, (w) => w.toLowerCase());
    if (seen.has(key)) readAs.splice(i--, 1);
    else seen.add(key);
  }
}

/** A zip written with the letter O for a zero ("981O3") or l or I for a one ("9810l", "981I7": review 24), one or two
 *  letters among three digits or more: its five digits, or null when it is no such zip. */
export const letterZip = (written: string): string | null =>
  /^(?=(?:\d*[OoIl]){1,2}\d*$)(?=(?:[OoIl]*\d){3})[\dOoIl]{5}$/.test(written) ? written.replace(/[Oo]/g, '0').replace(/[Il]/g, '1') : null;

/** What a letter zip's letters were read as: "a letter O read as a zero", "a letter l read as a one", both joined. */
export function letterZipWhy(written: string): string {
  const ones = [...new Set(written.match(/[Il]/g) ?? [])];
  return [/[Oo]/.test(written) ? 'a letter O read as a zero' : '', ...ones.map((l) => `a letter ${l} read as a one`)].filter(Boolean).join(', ');
}

/** Five digits written as two groups with one space between ("98 103", "981 03": h75ask, once no place), as the zip
 *  they join into, with where each group is; only after a word that puts a place or a figure before it ("in", "zip",
 *  "prices"), when `isZip` knows the joined zip, never beside another digit ("12 345 homes" is a count). */
export function spacedZips(q: string, isZip: (zip: string) => boolean): { start: number; end: number; zip: string; written: string }[] {
  const out: { start: number; end: number; zip: string; written: string }[] = [];
  for (const m of q.matchAll(/(?<=\b(?:in|of|for|near|around|zip|zipcode|zip code|postcode|prices?|sales|median|comps|values?)\s+)\b(\d{2,3}) (\d{2,3})\b(?!\s?[\d%]|[.,]\d)/gi)) {
    const zip = m[1]! + m[2]!;
    if (zip.length === 5 && isZip(zip)) out.push({ start: m.index, end: m.index + m[0].length, zip, written: m[0] });
  }
  return out;
}
