// A metro area named in a research question (pure, no I/O): "Seattle metro", "the Seattle area", "NYC metro", "Philly
// suburbs", "Denver metro area", "Sacramento MSA", "greater Boston", "metro Atlanta", "the Bay Area", read as the CBSAs
// (OMB July 2023 delineation, metro-build.ts) whose title names the city as a principal city. Answered by metro.ts.
// Rules: warehouse/docs/research.md "Metro areas".
import type { MetroArea } from './metro-build.ts';
import { COMMON_WORDS, STATE_CODES } from './place-words.ts';

/** A metro area asked: the words read, its CBSAs (more than one for a region such as the Bay Area), the principal city
 *  named (null for a region), and whether its suburbs are asked (the metro less that city). */
export interface MetroAsked { said: string; metros: MetroArea[]; city: string | null; region: string | null; suburbs: boolean }

/** Short forms of a principal city (lower case). */
const ALIASES: Record<string, string> = {
  nyc: 'new york', 'new york city': 'new york', philly: 'philadelphia', dc: 'washington', 'd.c.': 'washington', 'd.c': 'washington',
  'washington dc': 'washington', 'washington d.c.': 'washington', sf: 'san francisco', la: 'los angeles', 'l.a.': 'los angeles',
  vegas: 'las vegas', nola: 'new orleans', atl: 'atlanta', slc: 'salt lake city', phx: 'phoenix', indy: 'indianapolis',
};

/** Regions named with no metro word, several CBSAs or one, by their first principal cities (lower case) and state. */
const REGIONS: [RegExp, string, string[], string][] = [
  [/\b(?:the\s+)?(?:sf\s+|san francisco\s+)?bay area\b/i, 'the Bay Area', ['san francisco', 'san jose'], 'CA'],
  [/\b(?:the\s+)?twin cities\b/i, 'the Twin Cities', ['minneapolis'], 'MN'],
  [/\bDFW\b|\b(?:the\s+)?metroplex\b/i, 'the Dallas-Fort Worth Metroplex', ['dallas'], 'TX'],
  [/\b(?:the\s+)?inland empire\b/i, 'the Inland Empire', ['riverside'], 'CA'],
];

/** A word of a name, never a metro word ("Denver metro area" names Denver) */
const WORD = String.raw`(?!(?:metro|metropolitan|msa|cbsa|area|region|suburbs?|suburban)\b)[A-Za-z][A-Za-z.'’]*`;
const NAME = `((?:${WORD}\\s+){0,3}${WORD})`;
/** "area of Seattle", "area in Seattle": a part of a city, not its metro ("area in 2023" is the metro's) */
const NOT_WITHIN = String.raw`(?!\s+(?:of|within)\b|\s+in\s+(?!\d|the\s+(?:last|past)\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))`;
/** "<name> metro", "<name>, WA metro area", "<name> MSA", "<name> area", "<name> suburbs" */
const AFTER = new RegExp(`${NAME}(?:,?\\s+([A-Z]{2}))?\\s+(metro(?:politan)?(?:\\s+(?:statistical\\s+)?(?:area|region))?|msa|cbsa|suburbs|suburb|suburban(?:\\s+areas?)?|(?:area|region)${NOT_WITHIN})\\b`, 'gi');
/** "greater <name>", "metro <name>", "suburbs of <name>" */
const BEFORE = new RegExp(`\\b(greater|metro|metropolitan|suburbs\\s+(?:of|around|outside(?:\\s+of)?))\\s+${NAME}`, 'gi');

/** principal city (lower case) -> the CBSAs naming it, and whether first. */
export type PrincipalIndex = Map<string, { m: MetroArea; first: boolean }[]>;

/** The principal cities of a CBSA title ("Seattle-Tacoma-Bellevue, WA": Seattle, Tacoma, Bellevue) and its states. */
export function principals(title: string): { cities: string[]; states: string[] } {
  const [cities = '', states = ''] = title.split(', ');
  return { cities: cities.split(/[-/]/).map((c) => c.trim()).filter(Boolean), states: states.split('-') };
}

export function principalIndex(metros: readonly MetroArea[]): PrincipalIndex {
  const out: PrincipalIndex = new Map();
  for (const m of metros) principals(m[1]).cities.forEach((c, i) => {
    const k = c.toLowerCase();
    out.set(k, [...(out.get(k) ?? []), { m, first: i === 0 }]);
  });
  return out;
}

/** The CBSA of a principal city: in the state given, else in the state of the city the question's places read
 *  (`cityState`: the gazetteer's most populous namesake), else a metro before a micro area, the city first-named first. */
function pick(list: readonly { m: MetroArea; first: boolean }[], state: string | null, cityState: string | null): { m: MetroArea; first: boolean } | null {
  const inState = (s: string | null) => (x: { m: MetroArea }) => s !== null && principals(x.m[1]).states.includes(s);
  const pool = state ? list.filter(inState(state)) : list.some(inState(cityState)) ? list.filter(inState(cityState)) : list;
  return [...pool].sort((a, b) => Number(b.m[2] === 'metro') - Number(a.m[2] === 'metro') || Number(b.first) - Number(a.first) || b.m[3].length - a.m[3].length)[0] ?? null;
}

/** Words of a name tried as a principal city: an alias, or the name itself (a common English word only in capitals). */
function cityKey(words: string, idx: PrincipalIndex): string | null {
  const k = words.toLowerCase().replace(/\s+/g, ' ').replace(/^the /, '');
  const key = ALIASES[k] ?? k;
  if (!idx.has(key)) return null;
  if (!ALIASES[k] && !key.includes(' ') && COMMON_WORDS.has(key) && !/^[A-Z]/.test(words)) return null;
  return key;
}

/** The metro areas a question asks (none: []). `cityState`: the state of a city the question's places read, by name. */
export function metrosAsked(q: string, idx: PrincipalIndex, cityState: (name: string) => string | null): MetroAsked[] {
  const out: MetroAsked[] = [];
  for (const [re, label, cities, state] of REGIONS) {
    const m = re.exec(q);
    if (!m) continue;
    const metros = cities.map((c) => pick(idx.get(c) ?? [], state, null)?.m).filter((x): x is MetroArea => x !== undefined);
    if (metros.length) out.push({ said: m[0].trim(), metros, city: null, region: label, suburbs: false });
  }
  if (out.length) return out;
  const take = (said: string, name: string, state: string | null, cue: string, before = false): void => {
    const words = name.split(/\s+/);
    // the longest run of the words next to the cue that names a principal city ("median price in the Seattle area")
    const runs = before ? words.map((_, i) => words.slice(0, words.length - i)) : words.map((_, i) => words.slice(i));
    for (const run of runs) {
      const key = cityKey(run.join(' '), idx);
      if (!key) continue;
      const st = state && STATE_CODES.has(state.toUpperCase()) ? state.toUpperCase() : null;
      const hit = pick(idx.get(key)!, st, cityState(key));
      // "area" and "region" read a metro of its first-named city only ("the Bellevue area" is Bellevue's)
      if (!hit || (/^(area|region)$/i.test(cue) && !hit.first)) return;
      if (out.some((o) => o.metros[0]![0] === hit.m[0])) return;
      const city = principals(hit.m[1]).cities.find((c) => c.toLowerCase() === key) ?? key;
      const read = before ? `${cue} ${run.join(' ')}` : `${run.join(' ')}${said.includes(',') ? ',' : ''}${state ? ` ${state}` : ''} ${cue}`;
      out.push({ said: read.replace(/\s+/g, ' '), metros: [hit.m], city, region: null, suburbs: /suburb/i.test(cue) });
      return;
    }
  };
  for (const m of q.matchAll(AFTER)) {
    // a state code caught as the name's last word ("Portland OR metro"): the state
    const words = m[1]!.split(/\s+/);
    const last = words.at(-1)!;
    if (!m[2] && words.length > 1 && /^[A-Z]{2}$/.test(last) && STATE_CODES.has(last)) take(m[0], words.slice(0, -1).join(' '), last, m[3]!);
    else take(m[0], m[1]!, m[2] ?? null, m[3]!);
  }
  for (const m of q.matchAll(BEFORE)) take(m[0], m[2]!, null, m[1]!, true);
  return out;
}
