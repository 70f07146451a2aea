// The place resolver (pure, no I/O): a city name as typed, in a state, to the city's canonical name (the `cities`
// table's city_name, which names its shards), or the closest names in that state. Rules: warehouse/docs/places.md.
import { compactKey, countsApart, editDistance, letterCounts, PART_SHORT_FORMS, placeKey, plainTownKey, queryKeys, suffixStripped, writtenState } from './names.ts';
import { NICKNAMES } from './nicknames.ts';
import { formerCountyNote, type FormerCounty } from './former-counties.ts';
import { bareBoroughCounty, BOROUGH_COUNTIES, BOROUGH_COUNTY_STATE, boroughCountyKeys } from './borough-counties.ts';
import type { CountyRow } from './counties.ts';

/** One city of <build>/live/places/places.json: canonical name, state, population, the keys it answers to. */
export type PlaceRow = [name: string, state: string, population: number, keys: string[]];

export interface PlacesFile {
  format: number;
  build_id: string;
  cities: PlaceRow[];
  /** Connecticut's former counties with their towns (former-counties.ts; absent in older builds) */
  former_counties?: FormerCounty[];
  /** every county with its largest cities and zips (counties.ts; absent in older builds) */
  counties?: CountyRow[];
}

/** A neighbourhood a sales source names for its sales (research's places.json `hoods`, live/research/hoods.ts): the
 *  name asked (lower case), state, city, city part (an NYC borough), its zips (most sales first), its names as written. */
export interface Neighbourhood { key: string; state: string; city: string; part: string; zips: string[]; names: string[] }

export type CityResolution =
  | { ok: true; city: string; state: string; exact: boolean }
  | { ok: false; reason: 'unknown' | 'ambiguous'; suggestions: string[] }
  /** a neighbourhood of a city (Queens Village, Flushing), not a city: never read as the city its other words name */
  | { ok: false; reason: 'neighbourhood'; suggestions: string[]; hood: Neighbourhood }
  /** a city part (an NYC borough) with a municipality's word after it ("Manhattan City", "Brooklyn Town"): no such place */
  | { ok: false; reason: 'part'; suggestions: string[]; part: string };

/** A city; `at` is its row in the resolver's `letters` (its name key's letter counts, names.ts letterCounts). */
interface Entry { name: string; state: string; population: number; nameKey: string; at: number }

/** The cities a key answers to: one city as itself, several as a list (a list per key cost ~60 bytes of heap each for
 *  the ~64,000 keys of the country's cities, nearly all of which answer one city). */
type Hits = Entry | Entry[];

export class PlaceResolver {
  /** state -> key -> cities answering to it */
  private readonly byKey = new Map<string, Map<string, Hits>>();
  private readonly byCompact = new Map<string, Map<string, Hits>>();
  private readonly byState = new Map<string, Entry[]>();
  /** Every city's letter counts, LETTERS a city, in row order: one array, not a typed array per city (~190 bytes each). */
  private readonly letters: Int8Array;
  /** state|key of a neighbourhood's name -> the neighbourhood; state|key of a city part that is no city of its own
   *  (an NYC borough, the `part` of a neighbourhood) */
  private readonly hoods = new Map<string, Neighbourhood>();
  private readonly parts = new Set<string>();

  constructor(rows: readonly PlaceRow[], readonly formerCounties: readonly FormerCounty[] = [], hoods: readonly Neighbourhood[] = [], readonly counties: readonly CountyRow[] = []) {
    for (const h of hoods) {
      this.hoods.set(`${h.state}|${placeKey(h.key)}`, h);
      if (placeKey(h.part) !== placeKey(h.city)) this.parts.add(`${h.state}|${placeKey(h.part)}`);
    }
    const nicknames = new Map<string, string[]>(); // state|city -> its nickname keys
    const short = Object.entries(PART_SHORT_FORMS).map(([key, n]): readonly [string, string, string] => [key, n.state, n.city]);
    // an NYC borough by its county's name ("Kings County" is Brooklyn; names.ts BOROUGH_COUNTIES)
    const boroughs = BOROUGH_COUNTIES.flatMap((b) => boroughCountyKeys(b.county).map((k): readonly [string, string, string] => [k, BOROUGH_COUNTY_STATE, b.borough]));
    for (const [key, state, city] of [...NICKNAMES, ...short, ...boroughs]) (nicknames.get(`${state}|${city}`) ?? nicknames.set(`${state}|${city}`, []).get(`${state}|${city}`)!).push(key);
    this.letters = new Int8Array(rows.length * LETTERS);
    for (const [at, [name, state, population, keys]] of rows.entries()) {
      const nameKey = placeKey(name);
      const e: Entry = { name, state, population, nameKey, at };
      this.letters.set(letterCounts(nameKey), at * LETTERS);
      (this.byState.get(state) ?? this.byState.set(state, []).get(state)!).push(e);
      const own = [e.nameKey, ...keys, ...(nicknames.get(`${state}|${name}`) ?? [])];
      // a Massachusetts "Weymouth Town" by its plain name (names.ts plainTownKey); another city's own name wins
      for (const k of new Set([...own, ...own.map((k) => plainTownKey(state, k)).filter((k) => k !== null)])) {
        add(this.byKey, state, k, e);
        add(this.byCompact, state, compactKey(k), e);
      }
    }
  }

  /** Every city of a state (canonical names). */
  citiesOf(state: string): readonly string[] {
    return (this.byState.get(state) ?? []).map((e) => e.name);
  }

  /**
   * The city a typed name means in a state: the keys of queryKeys() in order, first against the city's own names and
   * aliases, then in compact form. A key shared by several cities is decided by the one whose own name it is;
   * otherwise ambiguous. Unknown and ambiguous names come back with the closest names in the state.
   */
  resolveCity(state: string, typed: string): CityResolution {
    const found = this.findCity(state, typed) ?? this.withOwnState(state, typed);
    if (found) return found;
    // a borough county's bare name ("Richmond", "Kings", NY): not read as the borough, but named first
    const bare = bareBoroughCounty(state, typed);
    const closest = this.closest(state, typed);
    const suggestions = bare ? [bare.borough, ...closest.filter((c) => c !== bare.borough)].slice(0, 5) : closest;
    return { ok: false, reason: 'unknown', suggestions };
  }

  /** A name that is no city's as written but a city's followed by its own state, the state asked, after a blank
   *  ("Seattle WA", "Kansas City Kansas", "Seattle Wash" with state WA; after a comma it is read before: api/city-state.ts),
   *  or null. Another state after it is no reading of it ("Seattle OR" in WA stays unknown). */
  private withOwnState(state: string, typed: string): CityResolution | null {
    const words = typed.trim().split(/\s+/);
    for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
      if (writtenState(words.slice(-n).join(' ')) !== state) continue;
      const head = words.slice(0, -n).join(' ');
      const found = this.findCity(state, head);
      if (found?.ok) return { ...found, exact: false };
    }
    return null;
  }

  /** The cities a name written without its state means: resolveCity's answer in every state where it finds one city
   *  (a nickname only in its own state: "philly" is Philadelphia, PA; "brooklyn" is Brooklyn in NY, CT, OH, ...), the
   *  largest first, with its population. */
  resolveAnywhere(typed: string): { city: string; state: string; population: number }[] {
    const out: { city: string; state: string; population: number }[] = [];
    for (const state of this.byKey.keys()) {
      const r = this.findCity(state, typed);
      if (r?.ok) out.push({ city: r.city, state, population: this.byState.get(state)?.find((e) => e.name === r.city)?.population ?? 0 });
    }
    return out.sort((a, b) => b.population - a.population || a.state.localeCompare(b.state));
  }

  /** resolveCity without the closest names: null for a name no key finds. A name that is no city's as written but a
   *  neighbourhood's (Queens Village, Greenwich Village, Flushing) is that neighbourhood, never the city its other
   *  words name; a trailing "city", "town", "village"... is taken off only where what is left is a municipality, not
   *  an NYC borough ("Manhattan City", "Brooklyn Town": no place). */
  findCity(state: string, typed: string): CityResolution | null {
    const keys = queryKeys(typed);
    const stripped = suffixStripped(keys[0]!);
    for (const [index, compact] of [[this.byKey, false], [this.byCompact, true]] as const) {
      const forState = index.get(state);
      if (!forState) break;
      for (const [i, k] of keys.entries()) {
        if (i === 1 && !compact) {
          const hood = this.hoods.get(`${state}|${keys[0]!}`);
          if (hood) return { ok: false, reason: 'neighbourhood', suggestions: [], hood };
        }
        const found = forState.get(compact ? compactKey(k) : k);
        if (!found) continue;
        const hits = Array.isArray(found) ? found : [found];
        if (stripped !== null && k === stripped && !keys[0]!.endsWith(' borough') && hits.some((h) => this.parts.has(`${state}|${h.nameKey}`))) {
          return { ok: false, reason: 'part', suggestions: hits.map((h) => h.name), part: hits[0]!.name };
        }
        if (hits.length === 1) return { ok: true, city: hits[0]!.name, state, exact: hits[0]!.name === typed };
        const own = hits.filter((h) => (compact ? compactKey(h.nameKey) : h.nameKey) === (compact ? compactKey(k) : k));
        if (own.length === 1) return { ok: true, city: own[0]!.name, state, exact: own[0]!.name === typed };
        return { ok: false, reason: 'ambiguous', suggestions: hits.map((h) => h.name).sort() };
      }
    }
    return this.hoods.has(`${state}|${keys[0]!}`) ? { ok: false, reason: 'neighbourhood', suggestions: [], hood: this.hoods.get(`${state}|${keys[0]!}`)! } : null;
  }

  /** The names of a state closest to a typed one: fewest edits between keys (prefix matches count as close), then the
   *  larger city; at most `limit`. */
  closest(state: string, typed: string, limit = 5): string[] {
    const keys = queryKeys(typed);
    const counts = keys.map(letterCounts);
    const scored: { e: Entry; d: number }[] = [];
    for (const e of this.byState.get(state) ?? []) {
      let best = Infinity;
      for (const [k, key] of keys.entries()) {
        const cap = Math.max(2, Math.ceil(key.length / 3));
        const prefix = key.length >= 3 && (e.nameKey.startsWith(key) || key.startsWith(e.nameKey));
        if (!prefix && countsApart(counts[k]!, this.letters.subarray(e.at * LETTERS, (e.at + 1) * LETTERS)) > 2 * cap) continue; // at least that many edits apart
        let d = editDistance(key, e.nameKey, cap);
        if (prefix) d = Math.min(d, 1);
        if (d <= cap) best = Math.min(best, d);
      }
      if (best < Infinity) scored.push({ e, d: best });
    }
    scored.sort((a, b) => a.d - b.d || b.e.population - a.e.population || a.e.name.localeCompare(b.e.name));
    return scored.slice(0, limit).map((s) => s.e.name);
  }
}

/** Slots of names.ts letterCounts: a-z, 0-9, other. */
const LETTERS = letterCounts('').length;

function add(index: Map<string, Map<string, Hits>>, state: string, key: string, e: Entry): void {
  let m = index.get(state);
  if (!m) { m = new Map(); index.set(state, m); }
  const hits = m.get(key);
  if (!hits) m.set(key, e);
  else if (!Array.isArray(hits)) { if (hits !== e) m.set(key, [hits, e]); }
  else if (!hits.includes(e)) hits.push(e);
}

/** What joins a not-found message and its suggestions; routes that word their own 404 append the part from here on. */
export const CLOSEST_NAMES = '; closest names: ';

/** What a not-found message says after the name when the name is no city but a known thing of another kind (a
 *  neighbourhood, a city part): routes that word their own 404 append the part from here on. */
export const IS_NO_CITY = ' is no city: ';

/** A neighbourhood's or a city part's name with a municipality's word is no city: what it is and which city to ask. */
function whatItIs(typed: string, r: Extract<CityResolution, { reason: 'neighbourhood' | 'part' }>): string {
  const nyc = (city: string, state: string): string => (city === 'New York' && state === 'NY' ? 'New York City' : `${city}, ${state}`);
  if (r.reason === 'part') return `${typed}${IS_NO_CITY}${r.part} is a borough of New York City, not a city, town or village; ask city=${r.part}`;
  const h = r.hood;
  const of = h.part !== h.city ? `${h.part}, ${nyc(h.city, h.state)}` : nyc(h.city, h.state);
  const zips = h.zips.length ? `; its sales lie in zip${h.zips.length > 1 ? 's' : ''} ${h.zips.join(', ')}` : '';
  return `${typed}${IS_NO_CITY}it is a neighbourhood of ${of}, as its sales records name it (${h.names.join(' / ')}${zips}); `
    + `the city endpoints answer cities: ask city=${h.part}${h.zips.length ? ' or the zip' : ''}, or POST /v1/research/query, which reads the neighbourhood's own sales`;
}

/** The 404 message of a city not found: names the closest cities of the state when there are any; a former
 *  Connecticut county ("Fairfield County"), its towns, each of which the lookup answers; a neighbourhood or an NYC
 *  borough with a municipality's word, what it is. */
export function notFoundMessage(typed: string, state: string, r: Extract<CityResolution, { ok: false }>, former: { county: FormerCounty; places: string[] } | null = null): string {
  if (former) {
    const [, , , towns] = former.county;
    return `No city named ${typed} in ${state}: ${formerCountyNote(former.county)}; its ${towns.length} towns, each of which the market endpoints answer by name: ${towns.join(', ')}`
      + (former.places.length ? `; the geo lookup answers the ${former.places.length === 1 ? 'one that is a Census place' : `${former.places.length} of them that are Census places`}: ${former.places.join(', ')}` : '');
  }
  if (r.reason === 'neighbourhood' || r.reason === 'part') return `No city named ${typed} in ${state}: ${whatItIs(typed, r)}`;
  const head = r.reason === 'ambiguous' ? `"${typed}" names several cities in ${state}` : `No city named ${typed} in ${state}`;
  const bare = r.reason === 'unknown' ? bareBoroughCounty(state, typed) : null;
  const county = bare ? `; ${bare.county} is ${bare.borough}, a borough of New York City: ask city=${bare.borough} or city=${bare.county} (the county's name without County is read as no place)` : '';
  return r.suggestions.length ? `${head}${CLOSEST_NAMES}${r.suggestions.join(', ')}${county}` : head;
}
