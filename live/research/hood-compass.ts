// A part of a city named by a compass word before it ("East Nashville", "South Philly", "West Seattle", "downtown
// Denver"): no source of the build maps such a part, so the answer is the city's as a whole, and says so (review 24:
// "median price in East Nashville" answered Nashville silently, as if the question had named the city). A town whose
// name starts with the word is a place of its own and read before this (East Hartford, West Hartford, South Bend).
// Their capital abbreviations name parts too ("NE Portland", "SW Denver"). Pure (POST /v1/research/query; places.ts
// findPlaces). Rules: warehouse/docs/research.md "Neighbourhoods".
import type { Area, Token } from './place-words.ts';

interface Named { state: string; city?: string; zip?: string; area?: Area; hood?: unknown; at: number; end: number; kind: string }
type Span = { start: number; end: number };

/** Compass and centre words that name a part of a city just before the city's name. */
const COMPASS = /^(north|south|east|west|northeast|northwest|southeast|southwest|north-east|north-west|south-east|south-west|central|downtown|uptown|midtown)$/;
/** Their abbreviations, in capitals as written ("NE Portland", "SW Denver", "N. Seattle"; review 25: "NE Portland" was
 *  Nebraska and Portland, "NW Denver" Denver unsaid). */
const COMPASS_CODE = /^(?:[NSEW]|NE|NW|SE|SW|[NSEW]\.|[NS]\.[EW]\.)$/;
const isCompass = (t: Token): boolean => COMPASS.test(t.lower) || COMPASS_CODE.test(t.text);

/** Whether the state code "NE" at token `t` is northeast before a city's name ("NE Portland", "NE Omaha": the city, never
 *  Nebraska); the caller has ruled out a code after a city or a comma ("Omaha NE", "Lincoln, NE"). */
export const compassCode = (q: string, t: Token): boolean => t.text === 'NE' && /^ +[A-Z][a-z]/.test(q.slice(t.end));

/** The readings of the compass parts of cities a question names, said in `readAs` (`"East Nashville" as Nashville, TN
 *  as a whole (...)`, in place of the city's own reading, whose reason it keeps: "Southeast Portland" as Portland, OR
 *  as a whole (the most populous of 12 ...; ...)), and the spans of their words (taken from the topic text). The word
 *  must stand just before the city's name, a space apart, and be no place already read. */
export function compassParts(q: string, toks: readonly Token[], taken: readonly Span[], found: readonly Named[], readAs: string[]): Span[] {
  const spans: Span[] = [];
  for (const f of found) {
    if (f.kind !== 'city' || !f.city || f.zip || f.hood) continue;
    const w = toks.filter((t) => t.end <= f.at).at(-1);
    if (!w || !isCompass(w) || !/^ +$/.test(q.slice(w.end, f.at)) || taken.some((t) => t.start < w.end && t.end > w.start)) continue;
    const written = q.slice(w.start, f.end);
    const whole = f.area ? `${f.area.name} (${f.city}, ${f.state})` : `${f.city}, ${f.state}`;
    const own = `"${q.slice(f.at, f.end)}" as ${whole} (`;
    const at = readAs.findIndex((r) => r.startsWith(own) && r.endsWith(')'));
    const why = at >= 0 ? `${readAs.splice(at, 1)[0]!.slice(own.length, -1)}; ` : '';
    readAs.push(`"${written}" as ${whole} as a whole (${why}no source of this build maps "${written}" or any part of a city named by a direction; name a zip code for part of it)`);
    spans.push({ start: w.start, end: w.end });
  }
  return spans;
}
