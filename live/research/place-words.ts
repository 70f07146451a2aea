// The word lists the research place parser (live/research/places.ts) reads: state names, codes and their cues,
// territories, state and city nicknames, New York City's boroughs, and English words that are also town names.
import { STATE_NAMES as STATE_NAME_TABLE } from '../../warehouse/regulations/schema.ts';
import { PART_SHORT_FORMS, STATE_SHORT_FORMS } from '../places/names.ts';
import { CITY_NICKNAMES } from '../places/nicknames.ts';
import type { City } from './data.ts';
import type { FilingPlace } from './filing-places.ts';
import type { Hood } from './hoods.ts';
import type { FormerCounty } from '../places/former-counties.ts';

/** A part of a city with its own zips: a New York City borough, by its county. */
export interface Area { name: string; county_fips: string }

/** A place a question names (places.ts findPlaces): a state, a city or a zip in it, or a part of a city. */
export interface Target {
  state: string;
  city?: string;
  zip?: string;
  /** a part of the city with its own zips: a New York City borough, by its county */
  area?: Area;
  /** a neighbourhood its sales source names (hoods.ts), in the borough `area`: answered from its own sales and zips */
  hood?: Hood;
  /** how the place was found: query text or context */
  from: 'query' | 'context';
}

const STATE_NAMES: Readonly<Record<string, string>> = STATE_NAME_TABLE;
export const STATE_CODES: ReadonlySet<string> = new Set(Object.keys(STATE_NAMES));
export const stateNameOf = (code: string): string => STATE_NAMES[code] ?? code;

export const AMBIGUOUS_CODES = new Set(['IN', 'OR', 'ME', 'OK', 'HI', 'OH', 'ID', 'CO', 'PA', 'MA', 'AL', 'DE', 'MD', 'MO', 'LA']);
/** Ambiguous codes that are rarely English words in capitals: a code at the very end of the question counts. */
export const END_OK_CODES = new Set(['MA', 'PA', 'CO', 'MD', 'MO', 'DE', 'AL']);
/** Words after which an upper-case ambiguous code in a mixed-case question is a place ("in OK for nonpayment"). */
export const STRONG_CUES = new Set(['in', 'from', 'between', 'vs', 'versus']);
export const SUBJECT_VERBS = new Set(['is', 'does', 'do', 'has']);
export const SUBJECT_NEXT = new Set(['a', 'an', 'have', 'has', 'require', 'allow', 'use', 'cap', 'limit', 'permit', 'landlord', 'tenant']);
export const PREPOSITIONS = new Set(['in', 'for', 'from', 'of', 'vs', 'versus', 'and', 'between', 'to', 'with', 'about']);
/** State codes a question may end with in lower case after "in" ("security deposit limit in co?"): every code but
 *  those that are English words there, or Los Angeles ("in or", "in me", "in ok", "in la"). */
const LOWER_END_CODES: ReadonlySet<string> = new Set([...STATE_CODES].filter((c) => !['IN', 'OR', 'ME', 'OK', 'HI', 'OH', 'ID', 'LA'].includes(c)));
/** Words of a legal topic, for topicEndCode. */
const LEGAL_TOPIC = /\b(deposits?|liens?|deeds?|evict\w*|notices?|foreclos\w*|redemption|redeem\w*|rent (control|caps?|increases?|stabiliz\w*)|adverse possession|squatt\w*|tax sales?|preempt\w*|just cause|landlords?|tenants?)\b/i;
/** A question asking whether something is so ("is a 3 day notice OK?"): its last upper-case word is an English word. */
const YES_NO = /^\s*(is|are|was|were|would|will|does|do|did|can|could|should|isn'?t|it'?s|am)\b/i;
/** Whether token `t`, an upper-case code, ends a legal question after its topic ("security deposit cap HI", "tax lien
 *  rate OK"): not after a preposition (the prepositions' own cue), not in a yes/no question ("is a 3 day notice OK?"). */
export function topicEndCode(q: string, t: Token, prev: Token | undefined): boolean {
  return prev !== undefined && !PREPOSITIONS.has(prev.lower) && /^\s*[?.!]?\s*$/.test(q.slice(t.end)) && LEGAL_TOPIC.test(q.slice(0, t.start)) && !YES_NO.test(q);
}
/** Foreign places: a question naming one is outside coverage ("New Mexico" is a state and "New England" a US region);
 *  a US town of the name needs its state ("Toronto, OH", "Brazil, IN"). Countries and the cities most asked (review 31:
 *  "Sao Paulo Brazil" answered for Brazil, IN; "Koln Germany" was "no place named"), leaving out every name a US city of
 *  10,000 people or more bears, or a New York neighbourhood the sales name (Vancouver, Paris, London, Berlin, Rome,
 *  Dublin, Athens, Moscow, Lebanon, Peru, Jamaica...): those stay US places. Accents are folded before (São -> Sao). */
const FOREIGN_NAMES = [
  'canada', 'mexico', 'united kingdom', 'great britain', 'britain', 'england', 'scotland', 'wales', 'northern ireland', 'ireland', 'europe',
  'australia', 'new zealand', 'ontario, canada', 'british columbia', 'quebec', 'toronto', 'montreal', 'calgary', 'edmonton', 'winnipeg', 'ottawa',
  'brazil', 'argentina', 'colombia', 'chile', 'venezuela', 'ecuador', 'bolivia', 'uruguay', 'paraguay', 'costa rica', 'dominican republic',
  'guatemala', 'honduras', 'nicaragua', 'el salvador', 'cuba', 'haiti', 'bahamas', 'germany', 'france', 'spain', 'italy', 'portugal',
  'netherlands', 'belgium', 'switzerland', 'austria', 'sweden', 'norway', 'denmark', 'finland', 'iceland', 'poland', 'czech republic',
  'czechia', 'hungary', 'romania', 'bulgaria', 'greece', 'croatia', 'serbia', 'ukraine', 'russia', 'israel', 'egypt', 'morocco', 'nigeria',
  'kenya', 'south africa', 'ghana', 'ethiopia', 'saudi arabia', 'united arab emirates', 'qatar', 'india', 'pakistan', 'bangladesh', 'china',
  'japan', 'south korea', 'north korea', 'korea', 'taiwan', 'hong kong', 'singapore', 'malaysia', 'indonesia', 'philippines', 'thailand',
  'vietnam', 'iran', 'iraq', 'afghanistan',
  'sao paulo', 'rio de janeiro', 'buenos aires', 'bogota', 'tokyo', 'osaka', 'kyoto', 'beijing', 'shanghai', 'shenzhen', 'mumbai', 'new delhi',
  'delhi', 'bangalore', 'seoul', 'bangkok', 'manila', 'jakarta', 'kuala lumpur', 'sydney', 'madrid', 'barcelona', 'munich', 'cologne', 'koln',
  'frankfurt', 'zurich', 'stockholm', 'oslo', 'copenhagen', 'helsinki', 'prague', 'budapest', 'istanbul', 'tel aviv', 'jerusalem', 'lagos',
  'nairobi', 'johannesburg', 'cape town', 'auckland', 'dubai', 'abu dhabi', 'doha', 'riyadh', 'karachi', 'lahore', 'dhaka', 'hanoi',
  'ho chi minh city', 'saigon', 'taipei', 'edinburgh', 'brussels', 'kyiv', 'kiev',
];
export const FOREIGN_PLACES = new RegExp(`(?<!\\bnew\\s+)\\b(${[...FOREIGN_NAMES].sort((a, b) => b.length - a.length).join('|')})\\b`, 'i');
/** Every foreign place a question names (matchAll copies it, so its lastIndex is never shared). */
export const FOREIGN_ALL = new RegExp(FOREIGN_PLACES.source, 'gi');

/** A word of a question, with where it stands. */
export interface Token { text: string; lower: string; start: number; end: number }
/** The words of a question: letters (with inner dots, hyphens and apostrophes) or digits; a trailing period is kept
 *  only by initials and St./Ft./Mt., and a code's possessive ('s) is dropped. */
export function tokens(q: string): Token[] {
  const out: Token[] = [];
  for (const m of q.matchAll(/[A-Za-z][A-Za-z.'’-]*[A-Za-z.]|[A-Za-z]|\d+/g)) {
    const text = m[0].replace(/\.$/, (d) => (/^(?:[A-Za-z]\.)+$/.test(m[0]) || /^(St|Ft|Mt)\.$/.test(m[0]) ? d : '')).replace(/^([A-Z]{2})['’]s$/, '$1');
    out.push({ text, lower: text.toLowerCase(), start: m.index, end: m.index + text.length });
  }
  return out;
}
export const cap = (w: string): boolean => /^[A-Z]/.test(w);
export const sentenceStart = (q: string, at: number): boolean => { const b = q.slice(0, at).trimEnd(); return b === '' || /[.!?:;]$/.test(b); };
/** Token `i` as the upper-case state code it spells, when it is a lower-case code ending the question after "in"
 *  (LOWER_END_CODES: "in co" is Colorado; "co-op", "co owner", "the co" are not); else null. */
export function lowerEndCode(q: string, toks: readonly Token[], i: number): string | null {
  const t = toks[i]!;
  if (!/^[a-z]{2}$/.test(t.text) || i !== toks.length - 1 || toks[i - 1]?.lower !== 'in' || !/^\s*[?.!]?\s*$/.test(q.slice(t.end))) return null;
  return LOWER_END_CODES.has(t.text.toUpperCase()) ? t.text.toUpperCase() : null;
}
/** Lower-case state codes that spell no English (or Spanish) word nor a common abbreviation: read anywhere, as in
 *  "is nj tenant friendly", "eviction notice nj", "ny vs nj deposit cap" (before, only after "in" at the end or after a
 *  city of the state). Left out: in, or, me, ok, hi, oh, id, la, co, de, al, mo (month), mi (mile), mt (mount), ms, ne
 *  (northeast), va (a VA loan). */
const LOWER_PLAIN_CODES: ReadonlySet<string> = new Set(['ak', 'az', 'ar', 'ca', 'ct', 'dc', 'fl', 'ga', 'ia', 'il', 'ks', 'ky', 'ma', 'md', 'mn',
  'nc', 'nd', 'nh', 'nj', 'nm', 'nv', 'ny', 'pa', 'ri', 'sc', 'sd', 'tn', 'tx', 'ut', 'vt', 'wa', 'wi', 'wv', 'wy']);
/** Token `t` as the upper-case state code it spells when it is one of LOWER_PLAIN_CODES in lower case; else null. */
export const lowerPlainCode = (t: Token): string | null => (/^[a-z]{2}$/.test(t.text) && LOWER_PLAIN_CODES.has(t.text) ? t.text.toUpperCase() : null);
/** Codes that are English words read after a city of their state with a word after them too ("kent oh home prices",
 *  "boise id sales"): an interjection or a pronoun does not follow a city name. Not "in", "or", "ok", "la" ("portland or
 *  seattle", "is austin ok for flips", Los Angeles). */
const MID_CITY_CODES: ReadonlySet<string> = new Set(['OH', 'HI', 'ID', 'ME']);
/** Token `i` as the upper-case state code it spells when it is a lower-case code written just after (a space or a
 *  comma between) a city of that state in any case (`isCityOf`: "redmond wa", "greenwich, ct"); the codes that are
 *  English words there (in, or, me, ok, hi, oh, id, la) only at the end of the question ("portland or seattle" keeps
 *  "or" a word), but MID_CITY_CODES before a word too; else null. */
export function lowerCityCode(q: string, toks: readonly Token[], i: number, maxWords: number, isCityOf: (phrase: string, code: string) => boolean): string | null {
  const t = toks[i]!;
  if (!/^[a-z]{2}$/.test(t.text) || !STATE_CODES.has(t.text.toUpperCase())) return null;
  const code = t.text.toUpperCase();
  if (!LOWER_END_CODES.has(code) && !/^\s*[?.!]?\s*$/.test(q.slice(t.end)) && !(MID_CITY_CODES.has(code) && /^[ \t]+[a-z]/i.test(q.slice(t.end)))) return null;
  for (let n = Math.min(maxWords, i); n >= 1; n--) {
    const words = toks.slice(i - n, i);
    if (!/^[ \t]*,?[ \t]+$|^,$/.test(q.slice(words[n - 1]!.end, t.start))) return null;
    if (words.slice(1).some((w, k) => !/^[ \t]+$/.test(q.slice(words[k]!.end, w.start)))) continue;
    if (isCityOf(words.map((w) => w.lower).join(' '), code)) return code;
  }
  return null;
}
/** Where "Mass" (no period) names Massachusetts: capitalised and not starting a sentence ("landlord friendliness of
 *  Mass", "Boston, Mass"), or in any case ending the question after a preposition ("rent control in mass"); "Mass
 *  evictions in Ohio" and "critical mass" stay words. ("Mass." is a short form of STATE_SHORT_FORMS.) */
export function massWords(q: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of q.matchAll(/\bmass\b(?!\.)/gi)) {
    const atEnd = /^\s*[?.!]?\s*$/.test(q.slice(m.index + 4)) && /\b(in|of|for|from|to|vs|versus|and|or)\s+$/i.test(q.slice(0, m.index));
    if ((m[0] === 'Mass' && !sentenceStart(q, m.index)) || atEnd) out.push({ start: m.index, end: m.index + 4 });
  }
  return out;
}
/** The territories' state codes (a context state outside coverage), with their names. */
export const TERRITORY_CODES: Readonly<Record<string, string>> = { PR: 'Puerto Rico', GU: 'Guam', VI: 'U.S. Virgin Islands', AS: 'American Samoa', MP: 'Northern Mariana Islands' };
export const TERRITORIES = ['puerto rico', 'guam', 'u.s. virgin islands', 'virgin islands', 'american samoa', 'northern mariana islands', 'northern marianas'];
/** Extra state name spellings. */
const STATE_ALIASES: [string, string][] = [
  ['district of columbia', 'DC'], ['washington dc', 'DC'], ['washington d.c.', 'DC'], ['washington d.c', 'DC'], ['washington, dc', 'DC'],
  ['washington, d.c.', 'DC'], ['d.c.', 'DC'], ['washington state', 'WA'], ['state of washington', 'WA'],
  // AP-style and common short forms: live/places/names.ts, the one list (typed addresses read them too)
  ...STATE_SHORT_FORMS,
];
/** City nicknames in question text, with their case and context rules: live/places/nicknames.ts CITY_NICKNAMES, the one
 *  list (the resolver reads the same nicknames in typed city names). */
export const CITY_ALIASES: [RegExp, string, string][] = CITY_NICKNAMES.flatMap((n): [RegExp, string, string][] => n.inQuestions ? [[n.inQuestions, n.city, n.state]] : []);
/** Just after a word that puts a place after it (a lookbehind): "in", "near", "vs"... */
const PLACE_CUE = String.raw`(?<=\b(?:in|near|around|from|vs\.?|versus|between|than)\s+)`;
/** A market figure's word just before ("median price SI 2023", "sales BK"): "BK" and "SI" are boroughs there too. */
const MARKET_CUE = String.raw`(?<=\b(?:prices?|sales|comps|median|values?)\s+)`;
/** A borough's name or one of its short forms (PART_SHORT_FORMS), as whole words in any case. */
const partWords = (name: string): RegExp => new RegExp([name.toLowerCase(), ...Object.entries(PART_SHORT_FORMS)
  .filter(([, p]) => p.state === 'NY' && p.city === name).map(([k]) => k)].map((w) => `\\b${w}\\b`).join('|'), 'i');
/** New York City's boroughs: New York, NY, with the borough's county (Census FIPS) as its area; a borough's word that
 *  is part of another place ("Manhattan, KS", "Brooklyn Park", "Queens Village") is not it (place-aliases.ts). */
export const BOROUGHS: [RegExp, Area][] = [
  // Brooklyn and its short forms ("Bklyn", "Bkln": live/places/names.ts PART_SHORT_FORMS, the one table), in any case
  [partWords('Brooklyn'), { name: 'Brooklyn', county_fips: '36047' }],
  [/\bmanhattan\b/i, { name: 'Manhattan', county_fips: '36061' }],
  [/\b(?:the )?bronx\b/i, { name: 'the Bronx', county_fips: '36005' }],
  // "queens" is also a plain word: the borough only with a capital
  [/\bQueens\b/, { name: 'Queens', county_fips: '36081' }],
  // ("Staten Is" without its period too, and "Staten Isl": "Staten" alone names nothing else)
  [/\bstaten\s+is(?:land|lnd|l)?(?:\b|\.)/i, { name: 'Staten Island', county_fips: '36085' }],
  // "BK" and "SI" (also bankruptcy, a word...): after a place word ("comps in BK") or before NY only; "bk" in lower
  // case too, and opening the question before a market word ("bk median price": h77ask, it was a ranking refusal), or
  // beside another borough compared ("bk vs queens condo prices": h78ask, Queens alone was read)
  [new RegExp(`(?:${PLACE_CUE}|${MARKET_CUE})[Bb][Kk]\\b|\\b[Bb][Kk](?=,?\\s+(?:NY|ny)\\b)|\\b[Bb][Kk](?=\\s+(?:vs\\.?|versus|and|or|&)\\s+(?:[Qq]ueens|[Mm]anhattan|(?:the\\s+)?[Bb]ronx|[Ss]taten)\\b)|(?<=\\b(?:[Qq]ueens|[Mm]anhattan|[Bb]ronx|[Ss]taten\\s+[Ii]sland)\\s+(?:vs\\.?|versus|and|or|&)\\s+)[Bb][Kk]\\b|^\\s*[Bb][Kk](?=\\s+(?:median|avg|average|homes?|houses?|condos?|prices?|sales|real\\s+estate|market|comps|ppsf|values?)\\b)`), { name: 'Brooklyn', county_fips: '36047' }],
  [new RegExp(`(?:${PLACE_CUE}|${MARKET_CUE})SI\\b|\\bSI(?=,?\\s+NY\\b)`), { name: 'Staten Island', county_fips: '36085' }],
];
export const COUNTY_WORDS = new Set(['county', 'parish', 'borough']);
/** Whether "Co"/"co"/"Co." after `name` (lower case) abbreviates County ("King Co WA", "allegheny co"): `name county`
 *  is a county of the build, `co` is not written "CO" (Colorado's code) and no Colorado city bears the name ("Denver
 *  Co" stays Denver, Colorado). */
export function coIsCounty(name: string, co: string, gaz: Pick<Gazetteer, 'countiesByName' | 'citiesByName'>): boolean {
  return /^(co|Co)\.?$/.test(co) && (gaz.countiesByName?.has(`${name} county`) ?? false)
    && !(gaz.citiesByName.get(name) ?? []).some((c) => c.state === 'CO');
}
/** English words that are also town names: need capitals and never count at a sentence start without a state. */
export const COMMON_WORDS = new Set(`worth deposit rent notice lien tax flood price commerce security mobile independence liberty enterprise justice
protection opportunity surprise home homes house value market eviction evict title color deed sale sales cap control risk
friendly landlord tenant state city county zip investor flip rehab permit comps compare quick deep best worst most least long
short high low more less new old north south east west central union center centre city university college lake park
beach hill hills springs mountain view plain plains pleasant fairview midway greenville franklin clinton madison
washington kansas nevada texas wyoming indiana georgia florida virginia may august day`.split(/\s+/));

/** [name, code, pattern] for every state name and alias, longest first (compiled once). */
export const STATE_PATTERNS: [string, string, RegExp][] = [...STATE_ALIASES, ...Object.entries(STATE_NAMES).map(([c, n]) => [n.toLowerCase(), c] as [string, string])]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([name, code]) => [name, code, new RegExp(`(?<![a-z])${name.replace(/[.]/g, '\\.').replace(/ /g, '\\s+')}(?![a-z])`, 'g')]);
export const STATE_NAME_SET = new Set(Object.values(STATE_NAMES).map((n) => n.toLowerCase()));

/** The names a question's places are read against (research data, data.ts). */
export interface Gazetteer {
  stateNames: ReadonlyMap<string, string>;
  citiesByName: ReadonlyMap<string, City[]>;
  zips: ReadonlyMap<string, { city: string; state: string; county_fips?: string }>;
  maxCityWords: number;
  /** lowercased county names ("king county") -> counties, most populous first (absent in older builds) */
  countiesByName?: ReadonlyMap<string, readonly { fips: string; name: string; state: string; population: number }[]>;
  /** the filing municipalities no Census place is named, by key (filing-places.ts; absent: none) */
  filingByKey?: ReadonlyMap<string, readonly FilingPlace[]>;
  /** Connecticut's former counties by "<name> county" ("fairfield county"), with their towns (absent: none) */
  formerCounties?: ReadonlyMap<string, FormerCounty>;
  /** the towns of the sales files in no former county (no ZCTA of their own name) */
  unplacedTowns?: readonly string[];
  /** the neighbourhoods the sales sources name, by the name asked (hoods.ts; absent: none) */
  hoodsByName?: ReadonlyMap<string, readonly Hood[]>;
  /** whether the build has arm's-length sales of a city, or of `zip` when given (its research market windows; absent: unknown, none) */
  hasSales?(state: string, city: string, zip?: string): boolean;
  /** the municipalities of the foreclosure and lien filings, Census places too (filing-places.ts; absent: none) */
  filingPlaces?: readonly FilingPlace[];
  /** The build's place resolver (live/places): a city as typed in a state -> its canonical name, when it knows one.
   *  Covers the aliases only the build's place table holds (Census names such as "Urban Honolulu"). */
  canonicalCity?(state: string, typed: string): string | null;
}

/** How place words not read (unread-words.ts) or asked back (hood-alone.ts) are listed among a question's unknown
 *  places: compose.ts says them as written after this lead. */
export const UNREAD_LEAD = 'words not read as a place: ';
