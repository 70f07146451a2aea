// Place names as people write them (pure, no I/O): the comparison key of a city name, the aliases a city gets from
// its own name and its Census place name, and state names, codes and misspellings. Rules: warehouse/docs/places.md.
import { STATE_NAMES } from '../../warehouse/regulations/schema.ts';

/** Words written several ways that mean the same: each maps to its short form. */
const WORD_FORMS: Readonly<Record<string, string>> = { saint: 'st', sainte: 'ste', mount: 'mt', fort: 'ft' };

/** Letters with their accents off, one character for one ("San José" -> "San Jose", "Cañon" -> "Canon"), so the
 *  positions in a text stay those of the text as written (research questions: live/research/places.ts findPlaces).
 *  A character whose fold is not one letter (a ligature, an emoji) stays as written. */
export const foldAccents = (text: string): string => text.replace(/[^\u0000-\u007f]/g, (c) => {
  const f = c.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return f.length === 1 ? f : c;
});

/**
 * The comparison key of a place name: accents off, case off, apostrophes dropped ("O'Fallon" = "OFallon"), dots
 * dropped, hyphens, slashes and commas as spaces, and Saint/Sainte/Mount/Fort in their short forms (St./Ste./Mt./Ft.).
 */
export function placeKey(name: string): string {
  const words = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/['’`‘]/g, '').replace(/\./g, ' ').replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);
  return words.map((w) => WORD_FORMS[w] ?? w).join(' ');
}

/** Short forms of a city part's name (a New York City borough), by key: the part as the place table names it and its
 *  state. The one table of them: the resolver reads them as that part and nothing else (the geo lookup, a typed
 *  address's place in valuation, property and autocomplete), and research reads them in question text in any case
 *  (live/research/place-words.ts BOROUGHS). Never a place of another state ("Bklyn" is no Brooklyn, CT). */
export const PART_SHORT_FORMS: Readonly<Record<string, { state: string; city: string }>> = {
  'bklyn': { state: 'NY', city: 'Brooklyn' }, 'bkln': { state: 'NY', city: 'Brooklyn' },
};

/** A municipality's name as its records file it, from the name people shorten it to: as written, then with "Mt." spelled
 *  "Mount", each as is, then with " Township", then " Borough" ("Penn Hills": Penn Hills Township; "Mt. Lebanon": Mount
 *  Lebanon Township; Allegheny's filings name 130 municipalities, many no Census place). First match wins. */
export function municipalityNames(written: string): string[] {
  const name = written.trim();
  const bases = [...new Set([name, name.replace(/^(?:Mt\.?|Mount)\s+/i, 'Mount ')])];
  return [...new Set(['', ' Township', ' Borough'].flatMap((suffix) => bases.map((b) => `${b}${suffix}`)))];
}

/** The key of a Massachusetts town with a city form of government by its plain name: the Census names 13 such towns
 *  "Weymouth Town city" (Gazetteer 2025), simplemaps "Weymouth Town", "Methuen Town", "Watertown Town"; the town and
 *  its people say "Weymouth". The key without its trailing word " town" ("watertown town" -> "watertown", never
 *  "water"), or null. Massachusetts only: "Charles Town", WV and "Old Town", ME are those places' own names. */
export function plainTownKey(state: string, key: string): string | null {
  return state === 'MA' && / town$/.test(key) && key.length > 5 ? key.slice(0, -5) : null;
}

/** The key with its spaces taken out ("De Kalb" = "DeKalb", "Winston Salem" = "Winstonsalem"). */
export const compactKey = (key: string): string => key.replace(/ /g, '');

/** Census descriptors that end a place name ("Urban Honolulu CDP", "Nashville-Davidson metropolitan government (balance)"). */
const DESCRIPTOR = /\s+(?:city and borough|unified government|consolidated government|metropolitan government|metro government|urban county|municipality|government|corporation|borough|village|city|town|township|cdp|plantation|comunidad|zona urbana)$/i;

/** A Census place name without its legal descriptor and "(balance)": "Nashville-Davidson", "Louisville/Jefferson County". */
export function censusCore(placeName: string): string {
  const s = placeName.replace(/\s*\(balance\)\s*$/i, '').trim();
  return s.replace(DESCRIPTOR, '').trim() || s; // one descriptor only: "Boise City city" is "Boise City"
}

/**
 * The names a city answers to, as keys: its own name and its Census place name without the descriptor, each also
 * without and within a parenthesis ("San Buenaventura (Ventura)" -> "san buenaventura", "ventura"), plus the names of
 * consolidated governments whose first part is the city (`consolidated`: "Louisville/Jefferson County", "Nashville-Davidson"),
 * and another source's spelling of it (`otherName`).
 * The query side strips "City of", "X city" and similar (queryKeys).
 */
export function aliasKeys(cityName: string, placeName: string | null, consolidated: readonly string[] = [], otherName: string | null = null): string[] {
  const keys = new Set<string>();
  const addName = (n: string): void => {
    keys.add(placeKey(n));
    const paren = /^(.*?)\s*\(([^)]+)\)\s*$/.exec(n);
    if (paren) { keys.add(placeKey(paren[1]!)); keys.add(placeKey(paren[2]!)); }
  };
  addName(cityName);
  if (placeName) addName(censusCore(placeName));
  for (const c of consolidated) addName(censusCore(c));
  // simplemaps' spelling of a city named as the Census names it ("Chesnut Hill" of Chestnut Hill, PA: cities' simplemaps_name)
  if (otherName) addName(otherName);
  keys.delete('');
  return [...keys];
}

/** The city name a consolidated government's Census name starts with ("Louisville" of "Louisville/Jefferson County
 *  metro government (balance)", "Nashville" of "Nashville-Davidson ..."), or null for other places. */
export function consolidatedHead(placeName: string, lsad: string | null): string | null {
  if (!/\(balance\)\s*$/i.test(placeName) && lsad !== 'UC' && lsad !== '00') return null;
  const core = censusCore(placeName);
  const head = core.split(/[/-]/)[0]!.trim();
  return head && head !== core ? head : null;
}

const PREFIX = /^(?:the )?(?:city|town|village|borough|township) of /;
const SUFFIX = / (?:city|town|village|borough|cdp|township|municipality)$/;

/** The keys to try for a name as typed, most literal first: as written, then without "City of"/"Town of", a trailing
 *  "city"/"town"/"village"/"CDP", then in compact form (a trailing state, "Boise, ID" given as the city, is read
 *  before: api/city-state.ts). The
 *  resolver takes the trailing word off only where the name as written is no place nor neighbourhood (resolver.ts). */
export function queryKeys(typed: string): string[] {
  const k = placeKey(typed);
  const out = [k];
  const stripped = k.replace(PREFIX, '').replace(SUFFIX, '');
  if (stripped !== k && stripped) out.push(stripped);
  const alsoPrefixOnly = k.replace(PREFIX, '');
  if (!out.includes(alsoPrefixOnly) && alsoPrefixOnly) out.push(alsoPrefixOnly);
  // "The Bronx": tried last, so a place named with its article ("The Dalles", "The Villages") still answers first.
  const noArticle = k.replace(/^the /, '');
  if (!out.includes(noArticle) && noArticle) out.push(noArticle);
  return out;
}

/** The key queryKeys tries without a trailing "city", "town", "village"... ("queens" of "queens village"), or null
 *  when the key ends with none. */
export function suffixStripped(key: string): string | null {
  const prefixOff = key.replace(PREFIX, '');
  const both = prefixOff.replace(SUFFIX, '');
  return both !== prefixOff && both ? both : null;
}

/** Letter counts of a key (a-z, digits, space): half their difference is a lower bound on the edit distance. */
export function letterCounts(key: string): Int8Array {
  const c = new Int8Array(38);
  for (let i = 0; i < key.length; i++) {
    const x = key.charCodeAt(i);
    const slot = x >= 97 && x <= 122 ? x - 97 : x >= 48 && x <= 57 ? x - 22 : 36;
    c[slot] = Math.min(127, c[slot]! + 1);
  }
  return c;
}
export function countsApart(a: Int8Array, b: Int8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d;
}

const ROWS: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Damerau-Levenshtein distance (optimal string alignment: substitution, insertion, deletion, adjacent transposition). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  // three rows reused from call to call (every cell read is written first in the call: row 0 here, cur[0] and cur[j]
  // left to right, row i-2 only from i = 2), not three new arrays a call: the place checks of every valuation and
  // property request compare each word of the address with each state's name
  if (ROWS[0].length < n + 1) for (let k = 0; k < 3; k++) ROWS[k] = new Int32Array(Math.max(n + 1, ROWS[k]!.length * 2));
  let prev2 = ROWS[0]; // row i-2
  let prev = ROWS[1]; // row i-1
  let cur = ROWS[2];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** How many edits a misspelled name of this length may carry: none under 5 letters, 1 under 9, 2 from 9. */
export const typoBudget = (length: number): number => (length < 5 ? 0 : length < 9 ? 1 : 2);

export const STATE_CODES: ReadonlySet<string> = new Set(Object.keys(STATE_NAMES));
const STATE_BY_KEY = new Map<string, string>(Object.entries(STATE_NAMES).map(([c, n]) => [placeKey(n), c]));
STATE_BY_KEY.set('district of columbia', 'DC');
STATE_BY_KEY.set('washington dc', 'DC');

/** Full state names as keys ("new mexico"), with their codes. */
export const STATE_KEYS: ReadonlyMap<string, string> = STATE_BY_KEY;

/**
 * A state from how it was written: a USPS code (any case), a full name, or a full name misspelled within the typo
 * budget when exactly one state is that close ("Pensylvania", "Misissippi", "Tennesee"). Null otherwise.
 */
export function resolveState(typed: string): { code: string; exact: boolean } | null {
  const t = typed.trim();
  if (/^[A-Za-z]{2}$/.test(t) && STATE_CODES.has(t.toUpperCase())) return { code: t.toUpperCase(), exact: true };
  const key = placeKey(t);
  const hit = STATE_BY_KEY.get(key) ?? STATE_BY_KEY.get(key.replace(/^state of /, '').replace(/ state$/, ''));
  if (hit) return { code: hit, exact: true };
  const code = closestState(key);
  return code ? { code, exact: false } : null;
}

/** STATE_BY_KEY's names, codes and names without spaces, in its order, with the letter counts of both (closestState
 *  reads them for every word of an address it tries). */
const STATE_NAME_FORMS: readonly [string, string, string, Int8Array, Int8Array][] = [...STATE_BY_KEY]
  .map(([name, code]) => [name, code, compactKey(name), letterCounts(name), letterCounts(compactKey(name))]);

/** The one state whose name is within the typo budget of a key (ties: null). Names compared with and without spaces. */
export function closestState(key: string): string | null {
  const budget = typoBudget(compactKey(key).length);
  if (budget === 0) return null;
  let best: string | null = null;
  let bestD = budget + 1;
  let tie = false;
  const compact = compactKey(key), counts = letterCounts(key), compactCounts = letterCounts(compact);
  for (const [name, code, compactName, nameCounts, compactNameCounts] of STATE_NAME_FORMS) {
    // half the letter counts' difference is a lower bound of the distance: a name it puts over the budget is no
    // candidate, and a distance over the budget never decides the answer (only d <= budget sets best or a tie)
    if (countsApart(counts, nameCounts) > 2 * budget && countsApart(compactCounts, compactNameCounts) > 2 * budget) continue;
    const d = Math.min(editDistance(key, name, budget), editDistance(compact, compactName, budget));
    if (d < bestD) { best = code; bestD = d; tie = false; } else if (d === bestD && code !== best) tie = true;
  }
  return best && !tie ? best : null;
}

/** AP-style and common short forms of state names, lower case as written (the research question parser's and a typed
 *  address's one list). Those that are also words ("mass", "miss", "ill", "wash", "mo") only with their period or not
 *  at all: "$2,000/mo." is no state. */
export const STATE_SHORT_FORMS: readonly [string, string][] = [['ala.', 'AL'], ['ariz', 'AZ'], ['ariz.', 'AZ'], ['ark.', 'AR'], ['calif', 'CA'], ['calif.', 'CA'], ['cali', 'CA'], ['colo', 'CO'], ['colo.', 'CO'],
  ['conn.', 'CT'], ['fla', 'FL'], ['fla.', 'FL'], ['ga.', 'GA'], ['kan.', 'KS'], ['kans.', 'KS'], ['ky.', 'KY'], ['md.', 'MD'], ['mass.', 'MA'],
  ['mich', 'MI'], ['mich.', 'MI'], ['minn', 'MN'], ['minn.', 'MN'], ['mont.', 'MT'], ['neb.', 'NE'], ['nebr.', 'NE'], ['nev.', 'NV'],
  ['okla', 'OK'], ['okla.', 'OK'], ['ore.', 'OR'], ['penn.', 'PA'], ['penna.', 'PA'], ['tenn', 'TN'], ['tenn.', 'TN'], ['tex.', 'TX'], ['vt.', 'VT'], ['va.', 'VA'],
  ['wis.', 'WI'], ['wisc', 'WI'], ['wisc.', 'WI'], ['wyo.', 'WY'], ['w.va.', 'WV'], ['w. va.', 'WV'],
  ['n.y.', 'NY'], ['n.j.', 'NJ'], ['n.c.', 'NC'], ['n.d.', 'ND'], ['n.h.', 'NH'], ['n.m.', 'NM'], ['s.c.', 'SC'], ['s.d.', 'SD'], ['r.i.', 'RI'],
  ...['carolina', 'dakota'].flatMap((w): [string, string][] => [[`n. ${w}`, `N${w[0]!.toUpperCase()}`], [`n ${w}`, `N${w[0]!.toUpperCase()}`], [`s. ${w}`, `S${w[0]!.toUpperCase()}`], [`s ${w}`, `S${w[0]!.toUpperCase()}`]]),
  ['w. virginia', 'WV'], ['w virginia', 'WV']];

/** State short forms that are also English words or names ("Wash", "Ill", "Tex", "Ga", "Cal", "Conn", "Wa"), the one
 *  table of both readers: a typed address's place (writtenState) reads each in any case, with or without its period
 *  (the last words of an address are a place); a research question (live/research/place-aliases.ts casedStates) only
 *  as `inQuestions` says: 'period' capitalised with its period ("Wash.", "Ill.", "Cal."), 'cased' capitalised with or
 *  without it ("Tex", "Ga"), 'caps' in capitals ("ILL"), 'never' not at all ("Conn", "Miss", "Mass": massWords). */
export const STATE_WORD_FORMS: readonly [written: string, code: string, inQuestions: 'period' | 'cased' | 'caps' | 'never'][] = [
  ['Wash', 'WA', 'period'], ['Wa', 'WA', 'period'], ['Ill', 'IL', 'period'], ['ILL', 'IL', 'caps'], ['Tex', 'TX', 'cased'],
  ['Ga', 'GA', 'cased'], ['Cal', 'CA', 'period'], ['Conn', 'CT', 'never'], ['Miss', 'MS', 'never'], ['Mass', 'MA', 'never'],
  ['Penn', 'PA', 'never'], ['Penna', 'PA', 'never'],
];

// the District with its dots ("Washington, D.C."), as a typed place writes it; kept out of STATE_SHORT_FORMS, the
// research question parser's list too
const SHORT_FORM_CODES = new Map<string, string>([...STATE_SHORT_FORMS, ['d.c.', 'DC'], ['d. c.', 'DC'], ['d.c', 'DC'],
  ...STATE_WORD_FORMS.flatMap(([w, code]): [string, string][] => [[w.toLowerCase(), code], [`${w.toLowerCase()}.`, code]])]);

/** A state as written anywhere a place is typed (a full address's place): resolveState's code, name or misspelling
 *  (of as many words as the name: "St Pennsylvania" is no misspelled Pennsylvania; written together, "Newyork"), a
 *  code with a period ("Pa.") or with "state" ("WA state"), or a short form ("Calif.", "Penn.", "Wash", "Ill."). */
export function writtenState(typed: string): string | null {
  const t = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  const short = SHORT_FORM_CODES.get(t);
  if (short) return short;
  const code = /^(?:state of )?([a-z]{2})\.?(?: state)?$/.exec(t)?.[1]?.toUpperCase();
  if (code && STATE_CODES.has(code)) return code;
  const r = resolveState(typed);
  if (!r) return null;
  const words = (k: string): number => k.split(' ').length;
  const key = placeKey(typed);
  return r.exact || [...STATE_BY_KEY].some(([k, c]) => c === r.code && (words(k) === words(key) || compactKey(k) === compactKey(key))) ? r.code : null;
}
