// Place names inside free text (pure, no I/O), for the research question parser (live/research/places.ts): misspelled
// state names found by edit distance, and city lookups by the resolver's key (Saint/St., hyphens, accents, case).
// Rules: warehouse/docs/places.md.
import { compactKey, countsApart, editDistance, letterCounts, placeKey, STATE_KEYS, typoBudget } from './names.ts';
import { allEnglish } from './english.ts';

export interface TextSpan { start: number; end: number }
export interface WordToken { text: string; lower: string; start: number; end: number }
export interface StateTypo { code: string; start: number; end: number; written: string }

/** No span of `spans` overlaps [s, e). */
const clear = (spans: readonly TextSpan[], s: number, e: number): boolean => !spans.some((x) => s < x.end && e > x.start);

/** Words after which a lower-case misspelled state may stand ("eviction in pensylvania"). */
const PLACE_CUES = new Set(['in', 'for', 'from', 'between', 'vs', 'versus', 'and', 'or', 'of', 'than']);

/** Letters (spaces left out) a lower-case phrase needs to be read as a misspelled state without a place cue. */
const UNCUED_MIN = 6;
/** People a city needs for a lower-case misspelling of its name to be read with no place cue before it. */
const UNCUED_CITY_MIN_POPULATION = 100_000;
/** Market words that cue a five-letter misspelled city just before or after them as "in" does ("qeens median price",
 *  "median price qeens", as "median price in qeens": review 19); a word of six letters or more needs no cue. */
const TOPIC_CUES = new Set(['median', 'price', 'prices', 'sale', 'sales', 'sold', 'home', 'homes', 'house', 'houses', 'condo', 'condos', 'comps', 'market', 'permits', 'values', 'trends']);

/** Topic words next to which (just before or after) a lower-case town name with no place cue is read when a source
 *  of the build covers the town ("mckeesport foreclosures", "permits wilkinsburg": uncuedTown), and "vs"/"versus"
 *  between two names ("wilkinsburg vs munhall foreclosures"). */
const TOWN_CUES = new Set([...TOPIC_CUES, 'foreclosure', 'foreclosures', 'distressed', 'distress', 'liens', 'lien', 'permit', 'rehab',
  'flips', 'flipping', 'ppsf', 'sqft', 'dom', 'inventory', 'listings', 'appreciation', 'vs', 'versus']);

/**
 * Whether lower-case words with no place cue ("mckeesport foreclosures") may be read as a town's name, by the word
 * rule alone (the caller checks that a source of the build covers the town: a town with data only, never a mere
 * Census place): a topic word or "vs" just before or after the words, the name four letters or more, and not every
 * word a common English word ("green tree permits" is no town read in lower case: english.ts).
 */
export function uncuedTown(toks: readonly WordToken[], i: number, n: number): boolean {
  const words = toks.slice(i, i + n);
  if (words.some((w) => !/^[a-z][a-z'.-]*$/.test(w.text)) || compactKey(placeKey(words.map((w) => w.text).join(' '))).length < 4) return false;
  if (allEnglish(words.map((w) => w.lower))) return false;
  return [toks[i - 1], toks[i + n]].some((w) => w !== undefined && TOWN_CUES.has(w.lower));
}

const STATE_LIST: [key: string, code: string, words: number][] = [...STATE_KEYS].map(([k, c]) => [k, c, k.split(' ').length]);

/**
 * Misspelled state names in a question: one to three words not already taken whose key is within the typo budget of a
 * state name's (budget by the state name's length, none under 5 letters), one state strictly closest. The words must
 * be capitalised (any case in an all-caps question), follow a place cue ("in", "for", "or" ...), or be at least
 * `UNCUED_MIN` letters long ("pensylvania eviction notice", "rate florda": no English word of that length lies within
 * a typo of a state name); five-letter names always need the cue. A demonym ("Indian", "Texans", "Georgian") is not a
 * misspelling, nor are common English words ("marine", "texts": english.ts).
 */
export function findStateTypos(q: string, toks: readonly WordToken[], taken: readonly TextSpan[], exact: (phrase: string) => boolean): StateTypo[] {
  const out: StateTypo[] = [];
  const allCaps = !/[a-z]/.test(q) && /[A-Z]/.test(q);
  const free = (s: number, e: number): boolean => clear(taken, s, e) && clear(out, s, e);
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= toks.length; i++) {
      const words = toks.slice(i, i + n);
      const first = words[0]!, last = words[n - 1]!;
      if (!free(first.start, last.end)) continue;
      if (words.some((w) => !/^[A-Za-z]+$/.test(w.text))) continue;
      const phrase = words.map((w) => w.lower).join(' ');
      // common English words are no misspelling ("marine" is not Maine, "texts" not Texas): english.ts
      if (exact(phrase) || allEnglish(words.map((w) => w.lower))) continue;
      const capital = allCaps || words.every((w, j) => /^[A-Z]/.test(w.text) || (j > 0 && w.lower === 'of'));
      const prev = toks[i - 1];
      const cued = prev !== undefined && PLACE_CUES.has(prev.lower);
      if (!capital && !cued && compactKey(phrase).length < UNCUED_MIN) continue;
      const code = closestStateName(phrase, n, cued);
      if (code) out.push({ code, start: first.start, end: last.end, written: q.slice(first.start, last.end) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The state whose name (of `words` words, or one word fewer or more when written together or apart) is strictly the
 *  closest to a phrase within its typo budget; null when none or a tie. */
function closestStateName(phrase: string, words: number, cued: boolean): string | null {
  const compact = compactKey(phrase);
  let best: string | null = null;
  let bestD = Infinity;
  let tie = false;
  for (const [key, code, n] of STATE_LIST) {
    if (Math.abs(n - words) > 1) continue;
    const budget = typoBudget(compactKey(key).length);
    // five-letter names (Texas, Maine, Idaho) only after a place cue: "Main Street" is not Maine
    if (budget === 0 || (compactKey(key).length < 6 && !cued)) continue;
    if (isDemonym(compact, compactKey(key))) continue;
    // word for word when the counts agree, each word within its own budget: "New work" is not "New York" (a four-letter
    // word takes no typo), "Distict of Columbia" and "Nort Carolina" are states
    if (n === words && n > 1 && !sameWords(phrase.split(' '), key.split(' '))) continue;
    const d = editDistance(compact, compactKey(key), budget);
    // written together or apart ("Newyork", "Rhode island" as one word) counts at distance 0 too
    if ((d === 0 && n === words) || d > budget) continue;
    if (d < bestD) { best = code; bestD = d; tie = false; } else if (d === bestD && code !== best) tie = true;
  }
  return best && !tie ? best : null;
}

const sameWords = (typed: string[], state: string[]): boolean =>
  typed.every((w, i) => editDistance(w, state[i]!, 2) <= typoBudget(state[i]!.length) || isSwap(w, state[i]!));

/** Two neighbouring letters swapped ("yrok" for "york"), the one typo a four-letter word of a state name may take:
 *  a substitution there makes another word ("New work"). */
const isSwap = (typed: string, word: string): boolean => {
  if (typed.length !== word.length || typed.length < 4) return false;
  const diff = [...typed].flatMap((c, i) => (c === word[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && typed[diff[0]!] === word[diff[1]!] && typed[diff[1]!] === word[diff[0]!];
};

/** "Indian(s)", "Texan(s)", "Georgian", "Alaskan": the state's name (ending in a vowel or s) cut short, plus n or ns. */
const isDemonym = (word: string, state: string): boolean => {
  const stem = word.replace(/ns?$/, '');
  return stem !== word && stem.length >= 4 && /[aeious]$/.test(state) && state.startsWith(stem);
};

/** The cities of a gazetteer by the resolver's key ("st louis" for "St. Louis" and "Saint Louis"), built once per map. */
const KEY_INDEXES = new WeakMap<ReadonlyMap<string, readonly unknown[]>, Map<string, unknown[]>>();
export function citiesByKey<C>(byName: ReadonlyMap<string, readonly C[]>, phrase: string): C[] | undefined {
  let index = KEY_INDEXES.get(byName) as Map<string, C[]> | undefined;
  if (!index) {
    index = new Map<string, C[]>();
    for (const [name, list] of byName) {
      for (const k of new Set([placeKey(name), compactKey(placeKey(name))])) {
        const cur = index.get(k);
        if (cur) { for (const c of list) if (!cur.includes(c)) cur.push(c); } else index.set(k, [...list]);
      }
    }
    KEY_INDEXES.set(byName, index as Map<string, unknown[]>);
  }
  const key = placeKey(phrase);
  return index.get(key) ?? index.get(compactKey(key));
}

/** A city large enough to be read from a misspelling with no state said (population). */
export const TYPO_CITY_MIN_POPULATION = 100_000;

interface NamedCity { name: string; state: string; population: number }
interface Keyed<C> { city: C; key: string; letters: Int8Array }
/** Per gazetteer map: the large cities with their compact keys by key length, built once; a state's cities, keyed the
 *  same way at the first question naming that state (every state's at once held ~10 MB of the serving process's heap
 *  for the few questions with a misspelled city and a state). */
type ByLength = Keyed<NamedCity>[][];
interface TypoIndex { big: ByLength; pool(state: string): ByLength }
const TYPO_INDEXES = new WeakMap<object, TypoIndex>();
const keyed = (city: NamedCity): Keyed<NamedCity> => { const key = compactKey(placeKey(city.name)); return { city, key, letters: letterCounts(key) }; };
const addByLength = (index: ByLength, k: Keyed<NamedCity>): void => { (index[k.key.length] ??= []).push(k); };

/** The typo index of a gazetteer map: its large cities keyed on first use, or ahead of the first question by the
 *  research data's constructor; a state's cities (a few ms) at the first question naming it. */
export function cityTypoIndex(byName: ReadonlyMap<string, readonly NamedCity[]>): TypoIndex {
  let index = TYPO_INDEXES.get(byName);
  if (!index) {
    const big: ByLength = [];
    const cities = new Map<string, NamedCity[]>();
    const pools = new Map<string, ByLength>();
    for (const list of byName.values()) {
      for (const city of list) {
        if (city.population >= TYPO_CITY_MIN_POPULATION) addByLength(big, keyed(city));
        (cities.get(city.state) ?? cities.set(city.state, []).get(city.state)!).push(city);
      }
    }
    const pool = (state: string): ByLength => {
      let p = pools.get(state);
      if (!p) {
        p = [];
        for (const city of cities.get(state) ?? []) addByLength(p, keyed(city));
        pools.set(state, p);
      }
      return p;
    };
    index = { big, pool };
    TYPO_INDEXES.set(byName, index);
  }
  return index;
}

/**
 * Misspelled city names in a question ("comps in Seatle", "rent control in San Fransisco", "Phillidelphia"): one to
 * three words not already taken, capitalised or after a place cue, of 5 letters or more, whose key is within the typo
 * budget of one city's (by the city's length: 1 edit for 5-8 letters, 2 for 9 or more). The candidates are the cities
 * of a state named in the question, else those of TYPO_CITY_MIN_POPULATION people or more; the strictly closest wins,
 * and among equally close ones a city ten times the size of every other. Words that are all common English words
 * ("median", "sales", "a rent": english.ts) are never a misspelled city.
 */
export function findCityTypos<C extends NamedCity>(q: string, toks: readonly WordToken[], taken: readonly TextSpan[],
  byName: ReadonlyMap<string, readonly C[]>, namedStates: ReadonlySet<string>): { city: C; start: number; end: number; written: string }[] {
  const index = cityTypoIndex(byName);
  const pools = namedStates.size ? [...namedStates].map((st) => index.pool(st)) : [index.big];
  // the names within two letters of the phrase's length (no budget is larger)
  const near = (length: number): Keyed<C>[] => pools.flatMap((p) => [-2, -1, 0, 1, 2].flatMap((d) => p[length + d] ?? [])) as Keyed<C>[];
  const allCaps = !/[a-z]/.test(q) && /[A-Z]/.test(q);
  const out: { city: C; start: number; end: number; written: string }[] = [];
  const free = (s: number, e: number): boolean => clear(taken, s, e) && clear(out, s, e);
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= toks.length; i++) {
      const words = toks.slice(i, i + n);
      const first = words[0]!, last = words[n - 1]!;
      if (!free(first.start, last.end) || words.some((w) => !/^[A-Za-z]+$/.test(w.text))) continue;
      const prev = toks[i - 1];
      const capital = !allCaps && words.every((w) => /^[A-Z]/.test(w.text));
      // (lower case with no cue: only a city of 100,000 or more by a name of six letters or more, "medain sale prcie
      // sacremento", as an exact lower-case name is read: the research reader's rule)
      const uncued = !capital && !(prev && PLACE_CUES.has(prev.lower));
      // (never after "the", a region's cue: "the hamptons")
      if (uncued && (allCaps || n > 1 || prev?.lower === 'the')) continue;
      // common English words are no misspelling: "median" is not Medina, "sales" not Salem, "a rent" not Trent (english.ts)
      if (allEnglish(words.map((w) => w.lower))) continue;
      const key = compactKey(placeKey(words.map((w) => w.text).join(' ')));
      if (key.length < 5) continue;
      const letters = letterCounts(key);
      let best: C[] = [];
      let bestD = Infinity;
      for (const { city, key: ck, letters: cl } of near(key.length)) {
        const budget = typoBudget(ck.length);
        // half the letter-count difference is at least the edits apart: most names are ruled out without the distance
        if (budget === 0 || Math.abs(ck.length - key.length) > budget || countsApart(letters, cl) > 2 * budget) continue;
        const d = editDistance(key, ck, budget);
        if (d === 0 || d > budget || d > bestD) continue;
        if (d < bestD) { best = [city]; bestD = d; } else best.push(city);
      }
      best.sort((a, b) => b.population - a.population);
      const top = best[0];
      // (names equally close: none unless one is ten times the next; one name's namesakes, "Springfeld", are the name
      // read, its most populous namesake, whose reading the research reader says: review 25)
      if (!top || best.some((c) => c.name !== top.name && c.population * 10 > top.population)) continue;
      const topic = n === 1 && [prev, toks[i + 1]].some((w) => w && TOPIC_CUES.has(w.lower));
      if (uncued && (top.population < UNCUED_CITY_MIN_POPULATION || (key.length < UNCUED_MIN && !topic))) continue;
      out.push({ city: top, start: first.start, end: last.end, written: q.slice(first.start, last.end) });
    }
  }
  return out;
}
