// Which place a city name means when the exact name is the wrong one (POST /v1/research/query; rules:
// warehouse/docs/research.md "Cities"):
//   nearNamedCity  a typo of a larger city of a state named or implied elsewhere in the question beats an exact small
//                  namesake in another state ("eviction notice Pennsylvania vs Pittsburg": Pittsburgh, PA)
//   distressCity   a distress (foreclosure, lien filings) question reads the city as the distress source names it: a
//                  municipality of the filings written shorter ("Penn Hills" for Penn Hills Township, "Mt. Lebanon" for
//                  Mount Lebanon Township, not in the Census place table), or the closest city name with filings
//                  when the city read has none ("Pittsburg foreclosure filings": Pittsburgh, PA)
//   filingPlacesIn  the filings' municipalities no Census place is named ("Penn Hills", "Mt. Lebanon"), in any question
//   lowerCitiesOfNamedStates  lower-case towns of 10,000+ in a state the question names ("greenwich ... stamford")
//   soldTypos      a misspelt town the build has sales of, with no state named ("Kirkand": Kirkland, WA)
//   neighbourhoods  a neighbourhood named with its city or borough ("Williamsburg brooklyn"): the city or borough
// Every such reading is said ("Reading ... as ..."), never silent.
import type { City, ResearchData } from './data.ts';
import type { Target } from './place-words.ts';
import { cityTypoIndex } from '../places/question.ts';
import type { FilingPlace } from './filing-places.ts';
import { citiesByKey, findCityTypos } from '../places/question.ts';
import { compactKey, editDistance, municipalityNames, placeKey } from '../places/names.ts';
import { postalZips } from './village-zips.ts';
import { cap, COMMON_WORDS, PREPOSITIONS, STATE_NAME_SET, type Token } from './place-words.ts';
import type { Gazetteer } from './place-words.ts';
import { escapeRegExp } from '../../warehouse/regexp.ts';
import { isEnglishWord } from '../places/english.ts';

/** Cities within one edit of `name` (by the place resolver's compact key, 5 letters or more) in `states` (every state
 *  when null), larger than `minPop`, most populous first. */
function nearCities(byName: ReadonlyMap<string, readonly City[]>, name: string, states: Iterable<string> | null, minPop: number): City[] {
  const key = compactKey(placeKey(name));
  if (key.length < 5) return [];
  const index = cityTypoIndex(byName);
  const pools = states ? [...states].map((s) => index.pool(s)) : [index.big];
  const out = pools.flatMap((p) => [-1, 0, 1].flatMap((d) => p[key.length + d] ?? []))
    .filter((k) => k.key !== key && k.city.population > minPop && editDistance(k.key, key, 1) <= 1).map((k) => k.city as City);
  return out.sort((a, b) => b.population - a.population);
}

/** The larger city of a named or implied state one edit from `name`, or null. */
export function nearNamedCity(byName: ReadonlyMap<string, readonly City[]>, name: string, states: ReadonlySet<string>, minPop: number): City | null {
  return states.size ? nearCities(byName, name, states, minPop)[0] ?? null : null;
}

const hasFilings = async (data: ResearchData, state: string, city: string): Promise<boolean> => (await data.shard('investor', { state, city, months: '12' })) !== null;

/** The distress source's own name for the city of `t` asked about, with the reading to say; null to keep `t`. */
export async function distressCity(data: ResearchData, u: { asks: readonly string[]; query: string }, t: Target): Promise<{ target: Target; readAs: string; written: string } | null> {
  if (!t.city || t.zip || t.area || !u.asks.includes('distress')) return null;
  const esc = escapeRegExp(t.city);
  const m = new RegExp(`(?:\\b(Mt\\.?|Mount)\\s+)?\\b${esc}\\b(?:\\s+([A-Z][a-z]+))?`, 'i').exec(u.query);
  if (m) {
    const mount = m[1] ? 'Mount ' : '';
    // the next word as a name is written ("bethel park": Bethel Park), as the filings name the municipality
    const next = m[2] && !/^(Township|Borough|County|City)$/i.test(m[2]) ? ` ${m[2][0]!.toUpperCase()}${m[2].slice(1).toLowerCase()}` : '';
    const bases = [...new Set([`${mount}${t.city}${next}`, `${mount}${t.city}`])];
    // the city's own filings, as the investor overview reads the name, unless the question writes another
    // municipality of it ("Elizabeth, PA": the borough's 8 filings, as the endpoint, not Elizabeth Township's 11)
    // (a next word that makes no filing municipality's name is no part of it: "baldwin foreclosures" is Baldwin's own,
    // not Baldwin Township's; review 25)
    const nextNamed = next !== '' && (await Promise.all(municipalityNames(`${mount}${t.city}${next}`).map((n) => hasFilings(data, t.state, n)))).some(Boolean);
    if (!mount && !nextNamed && !/^township$/i.test(m[2] ?? '') && await hasFilings(data, t.state, t.city)) return null;
    // the state read first; with no state named, any state's filings (a municipality of no Census place has no state here)
    const named = new RegExp(`\\b(${t.state}|${data.stateName(t.state)})\\b`).test(u.query);
    const states = named ? [t.state] : [t.state, ...[...data.stateNames.keys()].filter((s) => s !== t.state)];
    for (const base of bases) {
      for (const name of municipalityNames(base)) {
        for (const state of name === t.city ? [] : states) {
          if (!(await hasFilings(data, state, name))) continue;
          const written = m[0].replace(/\s+(Township|Borough|County|City)$/i, '');
          const cut = next && !base.endsWith(next) ? written.slice(0, written.length - next.length) : written;
          return { target: { state, city: name, from: t.from }, written: cut, readAs: `"${cut}" as ${name}, ${state} (the municipality's name in the foreclosure and lien filings)` };
        }
      }
    }
  }
  if (await hasFilings(data, t.state, t.city)) return null;
  // no filings for the city read: the closest city name that has them (a larger city one edit away)
  const own = data.cityInState(t.city, t.state);
  for (const c of nearCities(data.citiesByName, t.city, null, own?.population ?? 0)) {
    if (await hasFilings(data, c.state, c.name)) {
      return { target: { state: c.state, city: c.name, from: t.from }, written: t.city, readAs: `"${t.city}" as ${c.name}, ${c.state} (the closest city name with foreclosure or lien filings; ${t.city}, ${t.state} has none)` };
    }
  }
  return null;
}

/** A filing municipality named in a question (filing-places.ts): where it stands, and the reading to say. */
export interface FilingHit { start: number; end: number; place: FilingPlace; readAs: string }
/** A Census namesake under this size does not keep a filing municipality of the name from the question with no state
 *  named ("Mt. Lebanon": Mount Lebanon, LA has 161 people; the township 33,000). */
const SMALL_NAMESAKE = 5_000;

/** The filing municipality no Census place is named that a place name written means (filing-places.ts filingIndex):
 *  in `states` when any is named (next to it, elsewhere in the question, or the context's), else with no state named
 *  the one with the most filings, unless a Census place of the name has 5,000 people or more; never where a Census
 *  place of the name lies in its state (the city list reads it). The one reading of such a name, in the question's
 *  text (filingPlacesIn) and in its context's city (context-place.ts). */
export function filingPlaceNamed(phrase: string, gaz: Pick<Gazetteer, 'filingByKey' | 'citiesByName'>, states: ReadonlySet<string>): FilingPlace | undefined {
  const cands = gaz.filingByKey?.get(placeKey(phrase));
  if (!cands?.length) return undefined;
  const census = gaz.citiesByName.get(phrase.toLowerCase()) ?? citiesByKey(gaz.citiesByName, phrase) ?? [];
  const place = states.size ? cands.find((c) => states.has(c.state)) : census.some((c) => c.population >= SMALL_NAMESAKE) ? undefined : cands[0];
  return place && !census.some((c) => c.state === place.state) ? place : undefined;
}

/** The reading said of a filing municipality written `written` ('' when written as its own name). */
export const filingReading = (name: string, written: string, place: FilingPlace): string =>
  name.toLowerCase() === place.name.toLowerCase() ? '' : `"${written}" as ${place.name}, ${place.state} (the municipality's name in the foreclosure and lien filings)`;

/** The municipalities of the filings that no Census place is named, named in a question ("Penn Hills", "penn hills
 *  township", "Mt. Lebanon", "Mount Lebanon PA"): up to four words and an optional "Township"/"Borough", capitalised or
 *  of two words or more, never a state name or a common word; in a state named next to it or elsewhere (the context's
 *  too), else with no state named the one with the most filings, unless a Census place of the name has 5,000 people or
 *  more. A Census place of the name in the state read wins (the city list reads it). */
export function filingPlacesIn(q: string, toks: readonly Token[], taken: readonly { start: number; end: number }[], gaz: Gazetteer,
  stateHits: readonly { state: string; at: number }[], namedStates: ReadonlySet<string>, allCaps: boolean): FilingHit[] {
  const out: FilingHit[] = [];
  const byKey = gaz.filingByKey;
  if (!byKey || byKey.size === 0) return out;
  const busy = (s: number, e: number): boolean => [...taken, ...out].some((x) => s < x.end && e > x.start);
  for (let i = 0; i < toks.length; i++) {
    for (let n = Math.min(4, toks.length - i); n >= 1; n--) {
      const words = toks.slice(i, i + n);
      const suffix = /^(township|borough)$/.test(toks[i + n]?.lower ?? '') ? toks[i + n]! : null;
      const start = words[0]!.start, end = (suffix ?? words[n - 1]!).end;
      if (busy(start, end)) continue;
      const phrase = words.map((w) => w.lower).join(' ');
      if (!byKey.get(placeKey(phrase))?.length || STATE_NAME_SET.has(phrase) || (n === 1 && COMMON_WORDS.has(phrase))) continue;
      const capital = !allCaps && words.every((w) => cap(w.text) || /^(of|the)$/.test(w.lower));
      if (!capital && n === 1 && !suffix) continue;
      const adj = stateHits.find((s) => s.at >= end && /^[\s,]*$/.test(q.slice(end, s.at)));
      const place = filingPlaceNamed(phrase, gaz, adj ? new Set([adj.state]) : namedStates);
      if (!place) continue;
      const written = q.slice(start, words[n - 1]!.end);
      out.push({ start, end, place, readAs: filingReading(q.slice(start, end), written, place) });
      i += n - 1 + (suffix ? 1 : 0);
      break;
    }
  }
  return out;
}

/** Lower-case city names of 10,000 people or more (five letters or more, no common word) in a state a city or state
 *  the question names already gives ("is greenwich more expensive than stamford": Stamford, CT makes "greenwich"
 *  Greenwich, CT), after the city list's own pass, which takes lower case only for cities of 100,000 or more. */
export function lowerCitiesOfNamedStates(toks: readonly Token[], taken: readonly { start: number; end: number }[], gaz: Gazetteer, states: ReadonlySet<string>): { start: number; end: number; city: City }[] {
  const out: { start: number; end: number; city: City }[] = [];
  if (states.size === 0) return out;
  const busy = (s: number, e: number): boolean => [...taken, ...out].some((x) => s < x.end && e > x.start);
  for (let i = 0; i < toks.length; i++) {
    for (let n = Math.min(gaz.maxCityWords, toks.length - i); n >= 1; n--) {
      const words = toks.slice(i, i + n);
      const start = words[0]!.start, end = words[n - 1]!.end;
      const phrase = words.map((w) => w.lower).join(' ');
      if (busy(start, end) || words.some((w) => w.text !== w.lower) || phrase.length < 5 || COMMON_WORDS.has(phrase) || STATE_NAME_SET.has(phrase)) continue;
      const city = (gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase))?.find((c) => states.has(c.state) && c.population >= 10_000);
      if (!city) continue;
      out.push({ start, end, city: city as City });
      i += n - 1;
      break;
    }
  }
  return out;
}

/** Per gazetteer map: the cities the build has sales of, by name, and their states (made on the first question). */
const SOLD_CITIES = new WeakMap<object, { byName: Map<string, City[]>; states: Set<string> }>();

/** Misspelt names of towns the build has sales of ("Kirkand": Kirkland, WA, 92,000 people), which the typo rule of
 *  live/places/question.ts does not take with no state named (cities of 100,000 or more only): its own rule (capitals
 *  or a place cue, 5 letters or more, the closest name) over those towns alone, so a word close to a small town with
 *  no sales stays no place. */
export function soldTypos(q: string, toks: readonly Token[], taken: readonly { start: number; end: number }[], gaz: Gazetteer): { city: City; start: number; end: number; written: string }[] {
  if (!gaz.hasSales) return [];
  let sold = SOLD_CITIES.get(gaz.citiesByName);
  if (!sold) {
    const byName = new Map<string, City[]>();
    for (const [name, list] of gaz.citiesByName) {
      const own = list.filter((c) => gaz.hasSales!(c.state, c.name));
      if (own.length) byName.set(name, own as City[]);
    }
    sold = { byName, states: new Set([...byName.values()].flatMap((l) => l.map((c) => c.state))) };
    SOLD_CITIES.set(gaz.citiesByName, sold);
  }
  return findCityTypos(q, toks, taken, sold.byName, sold.states);
}

/** Words that end a neighbourhood's name ("Capitol Hill", "Park Slope", "Jackson Heights"). */
export const DISTRICT_WORDS = /^(hill|hills|heights|slope|park|village|side|square|gardens|harbor|point|valley|beach|bay|district|town|junction|end|flats|terrace|ridge|grove|creek|lake|corner|corners|ranch)$/;
interface Named { state: string; city?: string; zip?: string; area?: { name: string }; at: number; end: number; kind: string }

/** Neighbourhoods named with their city or New York City borough ("Williamsburg brooklyn", "Forest Hills Queens",
 *  "Capitol Hill Seattle"), which the data does not resolve: a city read just before a city or borough of another
 *  place (a space or a comma between, no state) that is a tenth of its size or less (a fifth, a town of another state with no zip named: "Germantown Louisville", h78ask) is the neighbourhood's name, not
 *  that town (Williamsburg, VA; Forest Hills, MI); capitalised words ending in a district word ("Hill", "Slope",
 *  "Heights"...) or capitalised words that are a town's name in another state ("Ballard Seattle") just before one are
 *  too. Returns the indexes of `found` to drop and the readings to say: the
 *  figures are the city's or borough's as a whole. */
export function neighbourhoods(q: string, toks: readonly Token[], found: readonly Named[], gaz: Gazetteer): { drop: number[]; readAs: string[]; dropped: string[] } {
  const drop: number[] = [];
  /** the readings of the towns dropped ("\"Williamsburg\" as Williamsburg, VA ("), to take out */
  const dropped: string[] = [];
  const readAs: string[] = [];
  const pop = (f: Named): number => (f.city ? gaz.citiesByName.get(f.city.toLowerCase())?.find((c) => c.state === f.state)?.population ?? 0 : 0);
  const whole = (f: Named): string => (f.area ? `${f.area.name} (${f.city}, ${f.state})` : `${f.city}, ${f.state}`);
  // places in a list ("Greenwich, Stamford, Darien CT", "New Canaan, Darien and Norwalk"): towns side by side, never a
  // neighbourhood and its city; nor is a town of the city's state the build has sales of ("Darien, Norwalk CT")
  const sep = (a: Named, b: Named): boolean => /^\s*(,|,?\s*(and|or|&|vs\.?|versus))\s*$/i.test(q.slice(a.end, b.at));
  const listed = (f1: Named, f2: Named): boolean => q.slice(f1.end, f2.at).includes(',')
    && found.some((f) => f !== f1 && f !== f2 && f.kind === 'city' && ((f.end <= f1.at && sep(f, f1)) || (f.at >= f2.end && sep(f2, f))));
  const ownTown = (f1: Named, f2: Named): boolean => f1.state === f2.state && !!f1.city && (gaz.hasSales?.(f1.state, f1.city) ?? false);
  for (const f2 of found) {
    if (f2.kind !== 'city' || !f2.city || f2.zip) continue;
    // a zip (in brackets or not) or "in" may stand between ("Kensington 19134 Philadelphia", "Kensington (19134)
    // Philadelphia": zip-clash.ts says the figures are then the zip's; "Kensington in Philadelphia")
    const i = found.findIndex((f1) => f1 !== f2 && f1.kind === 'city' && !f1.area && !f1.zip && f1.end <= f2.at && /^[\s,]*(?:\(?\d{5}\)?[\s,]*|in\s+)?$/.test(q.slice(f1.end, f2.at)));
    const f1 = found[i];
    // a USPS name of the two ("Vernon Rockville"): its zips (village-zips.ts), no neighbourhood
    if (f1 && (f1.state !== f2.state || f1.city !== f2.city) && !postalZips(q.slice(f1.at, f2.end), gaz).length && pop(f1) * (f1.state !== f2.state && !/\b\d{5}\b/.test(q) ? 5 : 10) <= Math.max(pop(f2), f2.area ? 1_000_000 : 0) && !listed(f1, f2) && !ownTown(f1, f2)) {
      drop.push(i);
      dropped.push(`"${q.slice(f1.at, f1.end)}" as ${f1.city}, ${f1.state} (`);
      readAs.push(`"${q.slice(f1.at, f1.end)}" as a neighbourhood of ${whole(f2)}, not ${f1.city}, ${f1.state}: we do not resolve neighbourhoods, so the figures are for ${f2.area?.name ?? f2.city} as a whole`);
      continue;
    }
    // capitalised words ending in a district word just before the city: "Capitol Hill Seattle"
    const before = toks.filter((t) => t.end <= f2.at && !found.some((f) => t.start < f.end && t.end > f.at));
    const last = before.at(-1);
    const low = last && !cap(last.text) ? lowerHood(q, before, f2, gaz) : null;
    if (low) readAs.push(`"${low}" as a neighbourhood of ${whole(f2)}: we do not resolve neighbourhoods, so the figures are for ${f2.area?.name ?? f2.city} as a whole`);
    if (!last || !cap(last.text) || !/^[\s,]*(?:\(?\d{5}\)?[\s,]*)?$/.test(q.slice(last.end, f2.at))) continue;
    let k = before.length - 1;
    while (k > 0 && before.length - k < 3 && cap(before[k - 1]!.text) && /^ +$/.test(q.slice(before[k - 1]!.end, before[k]!.start))) k--;
    // the longest run of those words that ends in a district word or is a town's name elsewhere ("Ballard Seattle")
    const cand = before.slice(k);
    const j = cand.findIndex((w, j) => {
      if (PREPOSITIONS.has(w.lower)) return false; // "Between Greenwich, ...": a word, not a neighbourhood
      const words = cand.slice(j).map((w) => w.lower).join(' ');
      return (cand.length - j >= 2 && DISTRICT_WORDS.test(last.lower)) || (!COMMON_WORDS.has(words) && (gaz.citiesByName.get(words) ?? []).some((c) => c.state !== f2.state));
    });
    // else capitalised words after "the" ("The Gulch Nashville", "in the Gulch, Nashville": review 25, no word said)
    const the = before.findIndex((w, t) => w.lower === 'the' && t >= k - 1 && t < before.length - 1 && /^ +$/.test(q.slice(w.end, before[t + 1]!.start)));
    const after = the >= 0 ? before.slice(the + 1) : [];
    const named = after.length > 0 && after.length <= 2 && after.every((w) => cap(w.text) && !PREPOSITIONS.has(w.lower)) && !COMMON_WORDS.has(after.map((w) => w.lower).join(' '));
    if (j < 0 && !named) continue;
    const run = j >= 0 ? cand.slice(j) : before.slice(the);
    readAs.push(`"${q.slice(run[0]!.start, last.end)}" as a neighbourhood of ${whole(f2)}: we do not resolve neighbourhoods, so the figures are for ${f2.area?.name ?? f2.city} as a whole`);
  }
  return { drop, readAs, dropped };
}

/** Lower-case words just before a city (a space or a comma between) that open the question or follow "in", "of",
 *  "near", "around", "for", "at", "is" or "are", and are two words ending in a district word ("capitol hill seattle") or a town's
 *  name in another state that is no English word ("germantown philadelphia"): the neighbourhood's words, else null.
 *  Before (h77ask), in lower case these gave the city's figure without saying the neighbourhood was not resolved. */
function lowerHood(q: string, before: readonly Token[], f2: Named, gaz: Gazetteer): string | null {
  const last = before.at(-1)!;
  if (!/^[\s,]*$/.test(q.slice(last.end, f2.at))) return null;
  for (const n of [2, 1]) {
    const run = before.slice(-n);
    if (run.length < n || !run.every((w) => /^[a-z]+$/.test(w.text) && !PREPOSITIONS.has(w.lower) && (!COMMON_WORDS.has(w.lower) || DISTRICT_WORDS.test(run.at(-1)!.lower)))) continue;
    if (run.some((w, k) => k > 0 && !/^ +$/.test(q.slice(run[k - 1]!.end, w.start)))) continue;
    const lead = q.slice(0, run[0]!.start);
    if (!/^\s*$|\b(?:in|of|near|around|for|at|is|are)\s+$/i.test(lead)) continue;
    const words = run.map((w) => w.lower).join(' ');
    const district = n === 2 && DISTRICT_WORDS.test(last.lower);
    const townElsewhere = !isEnglishWord(words) && (gaz.citiesByName.get(words) ?? []).some((c) => c.state !== f2.state);
    if (district || townElsewhere) return q.slice(run[0]!.start, last.end);
  }
  return null;
}
