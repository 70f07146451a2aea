// A neighbourhood named with its city in the ways the neighbourhood rule of place-prefer.ts (a neighbourhood written
// just before its city) does not see, and a place the question rules out (POST /v1/research/query; places.ts
// findPlaces; rules: warehouse/docs/research.md "Neighbourhoods"). Pure. Each returns the indexes of the places found
// to drop, the readings of those to take back (their start: `"Logan" as Logan, UT (`) and the readings to say.
//   ruledOut       a city after "not", "rather than", "instead of", "other than" or "except" ("the one in Denver, not
//                  Seattle") is no place of the question, while another place remains
//   possessiveHood the city's neighbourhood written after the city in the possessive ("Chicago's Logan Square",
//                  "Denver's Capitol Hill neighborhood"): the city as a whole, never a town of the words in another
//                  state (Logan, UT; Lincoln Park, MI)
//   townInHood     a town read in words that go on with a district word just before a city ("Logan Square Chicago",
//                  "Green Valley Ranch Denver"): no place; the neighbourhood rule then reads the words with the city
//   knownHoods     a well-known neighbourhood of a city whose sources name none, alone or before its city ("Fishtown",
//                  "LoDo Denver", "Fremont Seattle", "Georgetown DC"): the city as a whole
//   loneHood       capitalised words ending in a district word, no place, in a question naming one city, not next to
//                  it ("Capitol Hill: what are homes selling for? I mean the one in Denver"): a neighbourhood of that city
import type { Area, Token } from './place-words.ts';
import { cap, PREPOSITIONS } from './place-words.ts';
import { DISTRICT_WORDS } from './place-prefer.ts';

interface Named { state: string; city?: string; zip?: string; area?: Area; hood?: unknown; at: number; end: number; kind: string }
export interface Drops { drop: number[]; dropped: string[]; readAs: string[] }
type Span = { start: number; end: number };

/** A town read freely: a city of the found places that is no part of New York City, no zip and no neighbourhood. */
const town = (f: Named): boolean => f.kind === 'city' && !!f.city && !f.zip && !f.area && !f.hood;
const wasRead = (q: string, f: Named): string => `"${q.slice(f.at, f.end)}" as ${f.city}, ${f.state} (`;
const whole = (f: Named): string => (f.area ? `${f.area.name} (${f.city}, ${f.state})` : `${f.city}, ${f.state}`);
/** How a neighbourhood read as its city is said (hood-alone.ts too). */
export const hoodReading = (words: string, f: Named, not: readonly Named[]): string =>
  `"${words}" as a neighbourhood of ${whole(f)}${not.length ? `, not ${not.map((t) => `${t.city}, ${t.state}`).join(' or ')}` : ''}: we do not resolve neighbourhoods, so the figures are for ${f.area?.name ?? f.city} as a whole`;
/** Words after a neighbourhood's name that say it is one. */
const HOOD_AFTER = /^\s+(neighbou?rhoods?|community\s+areas?|area|district)\b/i;

/** Well-known neighbourhoods of cities the build covers whose sources name no neighbourhood, each with its city: named
 *  alone where no town elsewhere shares the name (Fishtown, Northern Liberties, LoDo), else only just before its city
 *  (Fremont is a California city; Georgetown a Texas one). */
const KNOWN_HOODS: [RegExp, string, string, string[]][] = [
  [/\bFishtown\b/i, 'PA', 'Philadelphia', ['fishtown']],
  [/\bNorthern\s+Liberties\b/i, 'PA', 'Philadelphia', ['northern liberties']],
  // in lower case ("lodo" is Spanish for mud) only before Denver or a market word (h75ask: "lodo home prices" was a ranking refusal)
  [/\bLoDo\b|\bLodo\b|\blodo\b(?=,?\s+(?:denver|homes?|houses?|condos?|prices?|median|sales?|real\s+estate|market|values?|ppsf|comps|investors?|flips?)\b)/, 'CO', 'Denver', ['lodo']],
  // Denver's sales file names its assessor neighbourhoods, but the build keeps none (h68ask3: its figure was unsaid)
  [/\b(?:Capitol\s+Hill|Five\s+Points)\b(?=,?\s+Denver\b)/i, 'CO', 'Denver', ['capitol hill', 'five points']],
  [/\bFremont\b(?=,?\s+Seattle\b)/i, 'WA', 'Seattle', ['fremont']],
  [/\b(?:Georgetown|Capitol\s+Hill)\b(?=,?\s+(?:DC\b|D\.C\.|Washington,?\s+D\.?C\b))/, 'DC', 'Washington', ['georgetown', 'capitol hill']],
];

/** Whether lower-case words are a well-known neighbourhood of KNOWN_HOODS in state `code` ("georgetown", DC): no clash
 *  of a town and a state (state-clash.ts). */
export const knownHoodIn = (phrase: string, code: string): boolean => KNOWN_HOODS.some(([, state, , names]) => state === code && names.includes(phrase));

/** The well-known neighbourhoods of KNOWN_HOODS a question names, not in a span taken: the city as a whole, said (before
 *  review 20, "Fremont Seattle" was Fremont, CA beside Seattle, "Georgetown DC" Georgetown, TX, "Fishtown" no place). */
export function knownHoods(q: string, taken: readonly Span[]): { start: number; end: number; state: string; city: string; readAs: string }[] {
  const out: { start: number; end: number; state: string; city: string; readAs: string }[] = [];
  for (const [re, state, city] of KNOWN_HOODS) {
    const m = re.exec(q);
    if (!m || taken.some((t) => t.start < m.index + m[0].length && t.end > m.index)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, state, city, readAs: hoodReading(m[0], { state, city, at: 0, end: 0, kind: 'city' }, []) });
  }
  return out;
}

/** Applies drops to the places found and the readings (in place). */
export function applyDrops(found: unknown[], readAs: string[], d: Drops): void {
  for (const i of [...new Set(d.drop)].sort((a, b) => b - a)) found.splice(i, 1);
  for (let i = readAs.length - 1; i >= 0; i--) if (d.dropped.some((x) => readAs[i]!.startsWith(x))) readAs.splice(i, 1);
  readAs.push(...d.readAs);
}

/** Cities ruled out ("not Seattle"), neighbourhoods after their city in the possessive, towns read in a
 *  neighbourhood's name before its city. */
export function hoodsOfCities(q: string, toks: readonly Token[], found: readonly Named[]): Drops {
  const out: Drops = { drop: [], dropped: [], readAs: [] };
  const dropTown = (j: number): void => { out.drop.push(j); out.dropped.push(wasRead(q, found[j]!)); };
  // ruled out: "..., not Seattle", "rather than Portland, OR"
  found.forEach((f, j) => {
    if (f.kind !== 'city' || !/\b(not|rather\s+than|instead\s+of|other\s+than|except)\s+(?:(?:in\s+)?the\s+one\s+in\s+|in\s+)?$/i.test(q.slice(0, f.at))) return;
    if (found.some((g, k) => k !== j && g.kind !== 'state' && !out.drop.includes(k))) { out.drop.push(j); out.dropped.push(wasRead(q, f)); }
  });
  for (const f of found) {
    if (f.kind !== 'city' || !f.city || f.zip || f.hood || out.drop.includes(found.indexOf(f))) continue;
    // the city's neighbourhood after it in the possessive: "Chicago's Logan Square"
    if (/['’]s$/.test(q.slice(f.at, f.end))) {
      const run: Token[] = [];
      for (const t of toks) {
        if (t.start < f.end || run.length >= 3) continue;
        const gap = q.slice(run.length ? run.at(-1)!.end : f.end, t.start);
        if (!cap(t.text) || !/^ +$/.test(gap) || (run.length === 0 && PREPOSITIONS.has(t.lower))) break;
        run.push(t);
      }
      const [s, e] = [run[0]?.start ?? 0, run.at(-1)?.end ?? 0];
      const inside = found.map((g, j) => (g.at >= s && g.end <= e ? j : -1)).filter((j) => j >= 0);
      if (run.length && inside.every((j) => town(found[j]!) && found[j]!.state !== f.state)
        && (inside.length > 0 || DISTRICT_WORDS.test(run.at(-1)!.lower) || HOOD_AFTER.test(q.slice(e)))) {
        for (const j of inside) dropTown(j);
        out.readAs.push(hoodReading(q.slice(s, e), f, inside.map((j) => found[j]!)));
      }
      continue;
    }
    // a town read in a neighbourhood's name that goes on with district words up to the city: "Logan Square Chicago"
    const j = found.findIndex((g) => town(g) && g.end <= f.at && g.state !== f.state
      && new RegExp(`^((?: +[A-Z][a-z]+){1,2})[ ,]+$`).test(q.slice(g.end, f.at)));
    if (j < 0) continue;
    const words = q.slice(found[j]!.end, f.at).trim().replace(/,$/, '').split(/ +/);
    if (DISTRICT_WORDS.test(words.at(-1)!.toLowerCase()) && !found.some((g) => g.at >= found[j]!.end && g.end <= f.at)) dropTown(j);
  }
  return out;
}

/** Capitalised words ending in a district word, no place and not next to the city, in a question naming one city
 *  and no other place: a neighbourhood of that city ("Capitol Hill ... I mean the one in Denver"). */
export function loneHood(q: string, toks: readonly Token[], taken: readonly Span[], found: readonly Named[], readAs: readonly string[]): string | null {
  const places = found.filter((f) => f.kind !== 'state');
  const f = places[0];
  if (places.length !== 1 || f!.kind !== 'city' || !f!.city || f!.zip || f!.hood) return null;
  for (let i = 0; i + 1 < toks.length; i++) {
    for (let n = 3; n >= 2; n--) {
      const words = toks.slice(i, i + n);
      if (words.length < n || !words.every((w) => cap(w.text)) || !DISTRICT_WORDS.test(words.at(-1)!.lower)) continue;
      if (words.some((w, k) => k > 0 && !/^ +$/.test(q.slice(words[k - 1]!.end, w.start)))) continue;
      const [s, e] = [words[0]!.start, words.at(-1)!.end];
      if (PREPOSITIONS.has(words[0]!.lower) || taken.some((t) => t.start < e && t.end > s)) continue;
      // next to the city (either side): the neighbourhood rule has read it
      if ((e <= f!.at && /^[\s,]*$/.test(q.slice(e, f!.at))) || (s >= f!.end && /^[\s,]*$/.test(q.slice(f!.end, s)))) return null;
      const text = q.slice(s, e);
      if (readAs.some((r) => r.startsWith(`"${text}"`))) return null;
      return hoodReading(text, f!, []);
    }
  }
  return null;
}
