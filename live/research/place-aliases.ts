// Short and cased ways of naming a place in a research question that the word lists of place-words.ts cannot hold as
// plain patterns, because whether they name the place depends on their case, the words around them or the gazetteer
// (pure; read by places.ts findPlaces). Rules: warehouse/docs/research.md "Entity rules".
//   casedStates     state short forms that are English words in another case (live/places/names.ts STATE_WORD_FORMS,
//                   the table typed addresses read too): "Wash." "Wa." (WA), "Tex" (TX), "Ga" (GA), "ILL"/"Ill." (IL),
//                   "Cal." (CA), a lower-case "dc" (the District), and "Jersey" alone (New Jersey, said as read)
//   boroughElsewhere  a New York City borough's word that is part of another place: followed by another state ("Manhattan,
//                   KS", "Brooklyn, MI") or by words that make another place's name ("Manhattan Beach", "Brooklyn
//                   Park", "Queens Village")
//   contextBorough  a borough's word with no state after it, when the context names another state: that state's town of
//                   the name ("Brooklyn" with context CT is Brooklyn, CT), else the borough, said as read (never silently)
//   directionalTown a lower-case town whose name starts with a direction ("west hartford", "south windsor"): the town,
//                   not the city its other words name
//   cityOfStateBefore  the capitalised words just before a position name a city of a state ("New Orleans LA")
//   stateNamedTown  a town named like a state followed by its own state ("Washington CT"): the town, not the state
//   territoryTowns  a town written before a territory's name or code ("San Juan PR"): no US namesake of it
//   everyBorough    "which borough is cheapest", "which nyc borough...": New York City's five boroughs, each a place
//   soldTown        a lower-case town the build has sales of ("greenwich", "new canaan", "glastonbury"): read as if
//                   capitalised, so case never changes the answer; a name of English words only needs a place cue
import { BOROUGHS, COMMON_WORDS, STATE_CODES, STATE_PATTERNS, TERRITORIES, TERRITORY_CODES, type Gazetteer, type Target, type Token } from './place-words.ts';
import { citiesByKey } from '../places/question.ts';
import { isEnglishWord } from '../places/english.ts';
import { STATE_WORD_FORMS } from '../places/names.ts';
import { startsStreetLine } from './street-line.ts';

const cities = (gaz: Gazetteer, phrase: string) => gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase);

/** A state named at the start of `rest` (a space or a comma before it): its code and where it ends in `rest`, else null. */
function stateAheadAt(rest: string): { code: string; end: number } | null {
  const code = /^\s*,?\s*([A-Z]{2})\b/.exec(rest);
  if (code && STATE_CODES.has(code[1]!)) return { code: code[1]!, end: code[0].length };
  const lower = rest.toLowerCase();
  for (const [, c, re] of STATE_PATTERNS) {
    re.lastIndex = 0;
    const m = re.exec(lower);
    if (m && /^\s*,?\s*$/.test(lower.slice(0, m.index)) && m.index > 0) return { code: c, end: m.index + m[0].length };
  }
  return null;
}
/** A state named at the start of `rest` (a space or a comma before it): its code, else null ("Jersey, OH", "Manhattan Kansas"). */
export const stateAhead = (rest: string): string | null => stateAheadAt(rest)?.code ?? null;

/** A town of 10,000 people or more, or one the build has sales of, named like a state and followed by its own state
 *  ("Washington CT", "Washington, Connecticut", "Wyoming, MI"): the town, with the reading to say; null for a list of
 *  states ("Kansas, Oklahoma and Texas"), a small namesake ("Kansas, Oklahoma": Kansas, OK has 822 people), or none. */
export function stateNamedTown(q: string, start: number, end: number, gaz: Gazetteer): { state: string; name: string; readAs: string } | null {
  const next = stateAheadAt(q.slice(end));
  if (!next || next.code === 'DC') return null; // "Washington DC": the District (place-words.ts STATE_ALIASES)
  // another state after the one named ("Kansas, Oklahoma and Texas"): a list of states
  const rest = q.slice(end + next.end);
  if (/^\s*(,|and\b|or\b|&|vs\b)/i.test(rest) && stateAhead(rest.replace(/^\s*(,|and\b|or\b|&|vs\b)\s*/i, ' ')) !== null) return null;
  const written = q.slice(start, end);
  const town = (cities(gaz, written.toLowerCase()) ?? []).find((c) => c.state === next.code && (c.population >= 10_000 || (gaz.hasSales?.(c.state, c.name) ?? false)));
  if (!town) return null;
  return { state: town.state, name: town.name, readAs: `"${q.slice(start, end + next.end).trim()}" as the town ${town.name}, ${town.state}, not the state of ${town.name}` };
}

/** Whether 1 to 3 words after `end` make, with `head`, a city or a neighbourhood name of the build ("manhattan beach",
 *  "brooklyn park", "queens village", "jersey city"). */
function namesAnotherPlace(q: string, head: string, end: number, gaz: Gazetteer): boolean {
  const words = /^((?:\s+[A-Za-z][A-Za-z.'’-]*){1,3})/.exec(q.slice(end))?.[1]!.trim().split(/\s+/) ?? [];
  for (let n = words.length; n >= 1; n--) {
    const phrase = `${head} ${words.slice(0, n).join(' ')}`.toLowerCase();
    if (cities(gaz, phrase)?.length || gaz.hoodsByName?.has(phrase)) return true;
  }
  return false;
}

/** Whether a borough's word at [start, end) is part of another place's name: another state after it, or words making
 *  another place with it. */
export function boroughElsewhere(q: string, start: number, end: number, gaz: Gazetteer): boolean {
  const state = stateAhead(q.slice(end));
  if (state !== null) return state !== 'NY';
  const head = q.slice(start, end).replace(/^the\s+/i, '');
  // a lower-case code of a state that has a town of the name ("manhattan ks", "brooklyn, mi"); the codes that are
  // words ("brooklyn in 2023", "manhattan or brooklyn") only ending the question
  const m = /^\s*,?\s*([a-z]{2})(?![\w'’-])(\s*[?.!]?\s*$)?/.exec(q.slice(end));
  const code = m?.[1]!.toUpperCase();
  const wordCode = ['IN', 'OR', 'ME', 'OK', 'HI', 'OH', 'ID', 'LA', 'DE', 'PA', 'MA', 'AL', 'CO', 'MO'].includes(code ?? '');
  if (m && code !== 'NY' && STATE_CODES.has(code!) && (!wordCode || m[2] !== undefined) && (cities(gaz, head.toLowerCase()) ?? []).some((c) => c.state === code)) return true;
  return namesAnotherPlace(q, head, end, gaz);
}

/** A borough's word `written` at [.., end) with no state written after it, and a context state other than New York:
 *  the context state's town of that name ("Brooklyn" with context CT, "Manhattan" with KS), else null with the reading
 *  of the borough to say (no place of that name in the context's state). Nothing when the context says no other state. */
export function contextBorough(q: string, written: string, end: number, borough: string, gaz: Gazetteer, state: string | undefined): { town: { state: string; name: string } | null; readAs: string } | null {
  if (!state || state === 'NY' || !STATE_CODES.has(state) || stateAhead(q.slice(end)) !== null) return null;
  const head = written.replace(/^the\s+/i, '').toLowerCase();
  const town = (cities(gaz, head) ?? []).find((c) => c.state === state) ?? null;
  return town
    ? { town, readAs: `"${written}" as ${town.name}, ${town.state} (the context's state; say "${borough}, NY" for New York City's borough)` }
    : { town: null, readAs: `"${written}" as New York City's ${borough.replace(/^the /, '')} (no place of that name in ${state}, the context's state)` };
}

/** Town names that are also people's names, among the common words (place-words.ts COMMON_WORDS): read, capitalised,
 *  just after a place word ("median sale price in Franklin"), as their most populous namesake, said as read. */
const NAMESAKE_WORDS = new Set(['franklin', 'madison', 'clinton', 'greenville']);
/** Whether a common word is a town's name that is a person's (Franklin): a city just before its state's code too ("Franklin MA"). */
export const isNamesakeWord = (phrase: string): boolean => NAMESAKE_WORDS.has(phrase);
/** Town names that are English words (Mobile, AL; Independence, MO; Fairview, NJ; Surprise, AZ), among the common
 *  words, with the words after them that make them the word, not the town ("Mobile homes", "Independence Day"). */
const TOWN_WORDS: Readonly<Record<string, RegExp>> = {
  mobile: /^\s*(homes?|houses?|parks?|phones?|apps?|devices?|banking|units?|trailers?)\b/i,
  independence: /^\s*(days?|hall)\b/i,
  fairview: /^(?!)/,
  surprise: /^\s*(part(y|ies)|bills?|fees?|costs?|repairs?|inspections?)\b/i,
};
/** What a town's name may start a question with: a market word ("Fairview sales", "Mobile home prices" is the word). */
const MARKET_AFTER = /^\s*(sales?|sold|prices?|median|market|housing|real estate|homes?|houses?|condos?|values?|comps|investors?|foreclosures?|permits?|rehab)\b/i;
export const isTownWord = (phrase: string): boolean => phrase in TOWN_WORDS;
/** Whether a capitalised common word that is a town's name stands as that town: a person's name (Franklin) or a town
 *  word (Mobile) just after "in", "near", "around", "from" or "for"; a town word starting the question before a market
 *  word ("Fairview sales"); never a town word before the words that make it the word ("Mobile homes", "Independence
 *  Day"). Read as the most populous namesake, said as read. */
export function namesakeAfterCue(q: string, phrase: string, at: number, end: number): boolean {
  const cue = /\b(?:in|near|around|from|for)\s+$/i.test(q.slice(0, at));
  if (NAMESAKE_WORDS.has(phrase)) return cue;
  const own = TOWN_WORDS[phrase];
  if (!own || own.test(q.slice(end))) return false;
  return cue || (/^\s*["'“‘]?$/.test(q.slice(0, at)) && MARKET_AFTER.test(q.slice(end)));
}

/** Whether the number at `at` starts a street line (house number, street words, a suffix: "2835 Unruh Ave"), or a
 *  zip of 5 digits is typed after it ("near 2835 Unruh, Philadelphia 19149"): a house number, never a zip (review 28:
 *  "2835" read as 02835, Jamestown, RI, and "7921 Doe Trail Way" as 07921, Bedminster, NJ). */
function houseNumber(q: string, at: number): boolean {
  if (startsStreetLine(q, at)) return true;
  // a word after the number (a street's name, not "and 98103" nor "vs 98103") and a zip later
  const next = /^\s+([A-Za-z][A-Za-z'’.-]*)/.exec(q.slice(at + 4))?.[1]?.toLowerCase();
  return next !== undefined && !JOINS.has(next) && /\b\d{5}(?:-\d{4})?\b/.test(q.slice(at + 4));
}
/** Words joining a zip to what follows it, never a street's name. */
const JOINS = new Set(['and', 'or', 'vs', 'vs.', 'versus', 'compared', 'to', 'with', 'in', 'for', 'from', 'than', 'against', 'plus', 'zip', 'zips', 'during', 'since', 'over', 'between', 'at', 'on', 'by']);

/** Four digits after a place word ("in 6830", "for 6830", "zip 6830") that are a zip of the build with a leading
 *  zero put back (06830), never a year (1900-2099) nor an amount or an area, nor a house number (houseNumber): the
 *  zip, with the reading to say. */
export function shortZips(q: string, gaz: Gazetteer): { start: number; end: number; zip: string; state: string; city?: string; readAs: string }[] {
  const out: { start: number; end: number; zip: string; state: string; city?: string; readAs: string }[] = [];
  for (const m of q.matchAll(/(?<=\b(?:in|for|near|around|of|zip|zipcode|code)\s+)(\d{4})\b(?![\d,.%]|\s*(?:sq|sf|square|ft|feet)\b)/gi)) {
    const n = Number(m[1]);
    const z = gaz.zips.get(`0${m[1]}`);
    if (!z || (n >= 1900 && n <= 2099) || houseNumber(q, m.index)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, zip: `0${m[1]}`, state: z.state, ...(z.city ? { city: z.city } : {}), readAs: `"${m[1]}" as zip 0${m[1]}${z.city ? ` (${z.city}, ${z.state})` : ''}: a zip code's leading zero left out` });
  }
  return out;
}

/** A state short form found by casedStates, with the reading to say ('' when none). */
export interface CasedState { start: number; end: number; code: string; readAs: string }

/** "Wash." "Wa." "Tex" "Ga" "ILL" "Ill." "Cal." (STATE_WORD_FORMS) and a lower-case "dc" as their states; "Jersey" alone as New Jersey (not "Jersey
 *  City", nor "Jersey, OH" or any Jersey followed by a state). An all-caps question reads none of them but "DC". */
export function casedStates(q: string, gaz: Gazetteer): CasedState[] {
  const allCaps = !/[a-z]/.test(q) && /[A-Z]/.test(q);
  const out: CasedState[] = [];
  if (allCaps) return out;
  // the one table of state short forms that are words (live/places/names.ts STATE_WORD_FORMS), by its question rule
  const RULES = { period: (w: string) => `\\b${w}\\.(?![A-Za-z])`, cased: (w: string) => `\\b${w}\\b(?![-.'’]?[A-Za-z])\\.?`, caps: (w: string) => `\\b${w}\\b` };
  const forms: [RegExp, string][] = [
    ...STATE_WORD_FORMS.flatMap(([w, code, rule]): [RegExp, string][] => (rule === 'never' ? [] : [[new RegExp(RULES[rule](w), 'g'), code]])),
    // "dc" in lower case, not the electrical sense ("dc power", "dc current")
    [/\bdc\b(?!\s+(?:power|current|voltage|motor|motors|charger|charging|circuit|fast))/g, 'DC'],
  ];
  for (const [re, code] of forms) for (const m of q.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length, code, readAs: '' });
  for (const m of q.matchAll(/\bJersey\b(?!['’])/g)) {
    if (/\bnew\s+$/i.test(q.slice(0, m.index))) continue;
    const end = m.index + m[0].length;
    if (stateAhead(q.slice(end)) !== null || namesAnotherPlace(q, 'jersey', end, gaz)) continue;
    const towns = (gaz.citiesByName.get('jersey') ?? []).map((c) => `Jersey, ${c.state}`);
    out.push({ start: m.index, end, code: 'NJ', readAs: `"Jersey" as New Jersey${towns.length ? ` (say "${towns[0]}" for the town${towns.length > 1 ? ' of that name' : ''})` : ''}` });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Words that start a town's name by its direction. */
const DIRECTIONS = new Set(['north', 'south', 'east', 'west']);

/** Whether lower-case words are a town of 10,000 people or more (or a market town with sales: South Windsor, CT is
 *  no Census place) whose name is a direction and another city's name ("west hartford", "east hartford", "south
 *  windsor"): the direction is part of the name, so the town is read. */
export function directionalTown(words: readonly Token[], cands: readonly { state: string; name: string; population: number }[], gaz: Gazetteer): boolean {
  if (words.length < 2 || !DIRECTIONS.has(words[0]!.lower)) return false;
  if (!cands.some((c) => c.population >= 10_000 || (gaz.hasSales?.(c.state, c.name) ?? false))) return false;
  return (cities(gaz, words.slice(1).map((w) => w.lower).join(' ')) ?? []).length > 0;
}

/** Whether the capitalised words just before `at` (a space or a comma between) name a city of state `code` ("New
 *  Orleans LA", "Baton Rouge, LA"). */
export function cityOfStateBefore(q: string, at: number, code: string, gaz: Gazetteer): boolean {
  const m = /((?:[A-Z][A-Za-z.'’-]*\s+){0,2}[A-Z][A-Za-z.'’-]*)\s*,?\s*$/.exec(q.slice(0, at));
  if (!m) return false;
  const words = m[1]!.split(/\s+/);
  for (let k = 0; k < words.length; k++) {
    if ((cities(gaz, words.slice(k).join(' ').toLowerCase()) ?? []).some((c) => c.state === code)) return true;
  }
  return false;
}

/** A territory's code written after a town: the territory ("San Juan PR", "Hagatna, GU"); "AS" is a word. */
const TERRITORY_AFTER_TOWN = /\b(PR|GU|VI|MP)\b/g;
/** The capitalised words (up to three) of a town written just before a territory's name or code ("San Juan PR", "San
 *  Juan, Puerto Rico", "Ponce PR"), to be taken so that no US namesake reads them (San Juan, TX); with the territory's
 *  name when a code named it (its name is found by places.ts). */
export function territoryTowns(q: string): { start: number; end: number; territory?: string }[] {
  const out: { start: number; end: number; territory?: string }[] = [];
  const before = (at: number): number | null => {
    const m = /((?:[A-Z][A-Za-z.'’-]*[ \t]+){0,2}[A-Z][A-Za-z.'’-]*)[ \t]*,?[ \t]*$/.exec(q.slice(0, at));
    return m ? m.index : null;
  };
  const lower = q.toLowerCase();
  for (const t of TERRITORIES) {
    const i = lower.indexOf(t);
    const s = i > 0 ? before(i) : null;
    if (s !== null) out.push({ start: s, end: q.slice(0, i).trimEnd().replace(/,$/, '').length });
  }
  for (const m of q.matchAll(TERRITORY_AFTER_TOWN)) {
    const s = before(m.index);
    if (s !== null && s < m.index) out.push({ start: s, end: m.index + m[0].length, territory: TERRITORY_CODES[m[1]!]! });
  }
  return out;
}

/** Words just before a name that use it as a place ("homes in union", "carnation vs duvall"). */
const PLACE_BEFORE = new Set(['in', 'for', 'near', 'around', 'vs', 'versus', 'compare', 'between']);

/** Whether lower-case words `toks[i..i+n)` name a town the build has arm's-length sales of ("greenwich", "new canaan",
 *  "glastonbury"), used as a place: a name with a word that is no common English word, or any such name just after
 *  "in", "near", "vs", "compare"... ("in union", "in fall city"). places.ts then reads it as it reads the capitalised
 *  name (its namesakes, the state of the places named with it), so the answer does not depend on the case. */
export function soldTown(toks: readonly Token[], i: number, n: number, cands: readonly { state: string; name: string }[], gaz: Gazetteer): boolean {
  const words = toks.slice(i, i + n);
  const phrase = words.map((w) => w.lower).join(' ');
  if (phrase.length < 4 || COMMON_WORDS.has(phrase) || !cands.some((c) => gaz.hasSales?.(c.state, c.name) ?? false)) return false;
  const plain = words.every((w) => COMMON_WORDS.has(w.lower) || isEnglishWord(w.lower.replace(/'s$/, '')));
  return !plain || PLACE_BEFORE.has(toks[i - 1]?.lower ?? '') || (n >= 2 && TOPIC_AFTER.has(toks[i + n]?.lower ?? ''));
}

/** A market topic's first word just after a name of two or more English words, which then reads as the town (h74ask:
 *  "federal way home prices", "maple valley foreclosures" read no place; one word, "union", still needs a cue). */
const TOPIC_AFTER = new Set(['home', 'homes', 'house', 'houses', 'housing', 'median', 'price', 'prices', 'ppsf', 'sales', 'foreclosures', 'permits', 'investor', 'investors', 'flips', 'condo', 'condos', 'real']);

/** Boroughs asked one against another: "which borough", "what nyc borough", "each borough", "rank the boroughs",
 *  "the cheapest borough" (h67ask: before, no place read), "boroughs by median price" ("the five boroughs" is New York City as a whole: place-words.ts). */
const EVERY_BOROUGH = /\b(?:which|what|each|every|rank|ranked|ranking|compare|top(?: \d| three| five)?)\s+(?:the\s+)?(?:(?:nyc|new york(?: city)?)(?:'s)?\s+)?boroughs?\b|\bboroughs\s+(?:ranked\s+)?by\b|\b(?:cheapest|priciest|(?:most|least) (?:expensive|affordable))\s+(?:(?:nyc|new york(?: city)?)\s+)?boroughs?\b/i;

/** How the five boroughs read as a group are said (intent.ts gives them one window when a price is ranked). */
export const EVERY_BOROUGH_READ = '"borough" as New York City\'s five boroughs (Brooklyn, Manhattan, the Bronx, Queens and Staten Island), each compared';

/** The five boroughs of New York City as the places of a question that asks about them as a group and names no other
 *  place than New York City ("which borough is cheapest", "which nyc borough is cheapest": before, no data), with the
 *  reading to say; null otherwise. */
export function everyBorough(q: string, targets: readonly Target[]): { targets: Target[]; readAs: string } | null {
  if (!EVERY_BOROUGH.test(q) || !targets.every((t) => t.state === 'NY' && t.city === 'New York' && !t.zip && !t.area && !t.hood)) return null;
  return {
    targets: BOROUGHS.filter(([, a], i) => BOROUGHS.findIndex(([, b]) => b.name === a.name) === i).map(([, area]) => ({ state: 'NY', city: 'New York', area, from: 'query' as const })),
    readAs: EVERY_BOROUGH_READ,
  };
}
