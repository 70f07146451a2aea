// The place an autocomplete query ends with ("4324 main st philly", "grand concourse bronx", "avenue b, new york, ny
// 10009"), read by the rule the valuation and the property record read a full address with (warehouse/address.ts
// splitPlace over live/places/address-place.ts, a city of any state where no zip is known), and the index places
// (city, state, zip, county) that lie in it. A query that is only a place ("fort worth", "washington dc") is read
// too. Rules: warehouse/docs/address.md "A place after the street".
import { asciiLetters, splitPlace, type PlaceNames } from '../../warehouse/address.ts';
import { addressPlaceNames } from '../places/address-place.ts';
import { PART_SHORT_FORMS, placeKey, STATE_KEYS } from '../places/names.ts';
import { NICKNAMES } from '../places/nicknames.ts';
import { CANONICAL } from './text.ts';
import type { PlaceResolver } from '../places/resolver.ts';
import type { Place } from './index-format.ts';

/** What a query's place reads as: `line` the street words before it ('' for a query that is only a place), `places`
 *  the ids of the index places in it (possibly none: a place the index has no address in), `named` for diagnostics. */
export interface PlaceReading { line: string; bare: boolean; places: ReadonlySet<number>; named: string }

/** A place as the trailing words name it: a zip, and a state, or cities (one per state the name means), or both (words
 *  that are a state alone and a city name too, "washington": the state and those cities). */
interface NamedPlace { zip: string | null; state: string | null; cities: { city: string; state: string }[] | null }

/** A city's county and zips (its geo lookup: the `cities` table), for a city no indexed address names as its city. */
export type CityArea = (city: string, state: string) => { county: string; zips: readonly string[] } | null;

const WORDS = /[\s,]+/;
/** Street types, long and short ("STREET", "ST"): a word before one is a street's name, not a place. */
const SUFFIXES = [...new Set([...CANONICAL.keys(), ...CANONICAL.values()])];
/** New York City's boroughs, each a county of its own (state|city as the resolver names them). */
const BOROUGHS = new Set(['NY|Manhattan', 'NY|Bronx', 'NY|Brooklyn', 'NY|Queens', 'NY|Staten Island']);
/** One-word nicknames of a city or a borough (names.ts: "sacto", "philly", "vegas", "nyc", "bklyn"), by key: words of no
 *  street's name, so typed alone or after one street word they are the place, as its full name ("sacramento") is found
 *  by the city word of its addresses (review 21: "sacto" and "bandalin sacto" answered [], "sacramento" and "bandalin
 *  sacramento" the address). Not the two-letter forms ("LA", "SF", "KC"): a state's code, or a street type typed short. */
const NICKNAME_WORDS = new Set([...NICKNAMES.map(([key]) => key), ...Object.keys(PART_SHORT_FORMS)].filter((k) => /^[a-z]{3,}$/.test(k)));

export class PlaceFilter {
  private readonly names: PlaceNames;
  /** The canonical city of each index place (its city by the resolver's keys; as written when unknown). */
  private readonly cityOf: string[];
  private readonly namedCities = new Set<string>(); // state|canonical city of every index place
  private readonly states: Set<string>; // the states the index has addresses in
  private readonly cache = new Map<string, PlaceReading | null>();

  constructor(private readonly places: readonly Place[], private readonly resolver: PlaceResolver, private readonly area: CityArea) {
    this.names = addressPlaceNames(resolver, null, { anyState: true });
    this.cityOf = places.map(([city, state]) => { const r = resolver.findCity(state, city); return r?.ok ? r.city : city; });
    places.forEach(([, state], i) => this.namedCities.add(`${state}|${this.cityOf[i]}`));
    this.states = new Set(places.map((p) => p[1]));
  }

  private readonly placeWordCache = new Map<string, boolean>();
  /** The query words (upper case, as the search reads them) that are each a known place: a state's name or short
   *  form, a city of any state, an NYC borough, or a word typed with a period that begins a state's name ("Wash.",
   *  "Penn."). The typo tier never corrects them into street words (index-search.ts `fixed`). Not a two-letter state
   *  code (CT, AL, VA, NC are street types typed one letter off too: "9080 bedrock nc" is 9080 BEDROCK CT), nor a word
   *  before a street type. */
  placeWords(q: string): Set<string> {
    const out = new Set<string>();
    const raws = q.split(WORDS).filter(Boolean);
    for (const [i, raw] of raws.entries()) {
      const word = raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
      if (!/[A-Z]/.test(word)) continue;
      // before a street type (or the start of one) the word is a street's name: "3701 elmont bl" is BELMONT BLVD
      const next = raws[i + 1]?.toUpperCase().replace(/[^A-Z]/g, '');
      if (next && SUFFIXES.some((x) => x.startsWith(next))) continue;
      const key = raw.toUpperCase();
      let is = this.placeWordCache.get(key);
      if (is === undefined) {
        is = (word.length > 2 && (this.names.state(raw) !== null || this.resolver.resolveAnywhere(raw).length > 0))
          || (raw.endsWith('.') && word.length >= 3 && [...STATE_KEYS.keys()].some((k) => k.toUpperCase().startsWith(word)));
        if (this.placeWordCache.size > 10_000) this.placeWordCache.clear();
        this.placeWordCache.set(key, is);
      }
      if (is) out.add(word);
    }
    return out;
  }

  /** The place a query ends with, or is; null when it names none (a single word is street words, unless it is a
   *  nickname: NICKNAME_WORDS). */
  read(q: string): PlaceReading | null {
    const key = q.trim().toUpperCase();
    if (this.cache.has(key)) return this.cache.get(key)!;
    const r = this.readUncached(q);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, r);
    return r;
  }

  private readUncached(q: string): PlaceReading | null {
    const text = asciiLetters(q).trim();
    const words = text.split(WORDS).filter(Boolean);
    const nickname = NICKNAME_WORDS.has(placeKey(words.at(-1) ?? ''));
    if (words.length < 2 && !nickname) return null;
    const whole = this.name(words);
    if (whole) return { line: '', bare: true, places: this.placesOf(whole), named: describe(whole) };
    let line = splitPlace(text, this.names).line;
    let kept = line.split(WORDS).filter(Boolean).length;
    // two words, the second an NYC borough ("broadway manhattan") or a nickname ("bandalin sacto"): one street word
    // within it (splitPlace keeps two; any other one-word place stays a street word: "saint edwards" is ST EDWARDS ST,
    // not Edwards, NY)
    const borough = words.length === 2 && kept >= 2 ? this.name(words.slice(1)) : null;
    if (borough?.cities?.some((c) => BOROUGHS.has(`${c.state}|${c.city}`)) || (borough && nickname)) { line = words[0]!; kept = 1; }
    if (kept >= words.length) return null;
    const tail = this.name(words.slice(kept));
    return tail ? { line, bare: false, places: this.placesOf(tail), named: describe(tail) } : null;
  }

  /** Words that are wholly a place, read from the end: a zip, a state in any form (names.ts writtenState), a city of
   *  that state, or without a state a city of any state (a nickname in its own). Null when they are not one. */
  private name(words: readonly string[]): NamedPlace | null {
    const w = [...words];
    let zip: string | null = null;
    const z = /^(\d{5})(?:-\d{4})?$/.exec(w[w.length - 1]!);
    if (z) { zip = z[1]!; w.pop(); }
    if (!w.length) return { zip, state: null, cities: null };
    for (let n = Math.min(3, w.length); n >= 1; n--) {
      const state = this.names.state(w.slice(-n).join(' '));
      if (!state) continue;
      const rest = w.slice(0, -n).join(' ');
      if (!rest) { const cities = this.resolver.resolveAnywhere(w.join(' ')); return { zip, state, cities: cities.length ? cities : null }; }
      const r = this.resolver.findCity(state, rest);
      if (r?.ok) return { zip, state: null, cities: [{ city: r.city, state }] };
      break;
    }
    const cities = this.resolver.resolveAnywhere(w.join(' '));
    return cities.length ? { zip, state: null, cities } : null;
  }

  /** The index places lying in a named place: its zip, its state, and one of its cities, a city being the index
   *  places whose city is that city by the resolver's keys, or, for a city no indexed address names as its city (a New
   *  York City borough: NYC's addresses say New York), the places of its county whose zip is one of its zips. */
  private placesOf(p: NamedPlace): Set<number> {
    // a city of a state the index has no address in lies in no index place: its area is not read
    const parts = p.cities?.filter((c) => this.states.has(c.state))
      .map(({ city, state }) => ({ city, state, area: this.namedCities.has(`${state}|${city}`) ? null : this.area(city, state) }));
    const out = new Set<number>();
    this.places.forEach(([, state, zip, county], i) => {
      if (p.zip && zip !== p.zip) return;
      // a borough is its county whole: its addresses in a zip of another borough's (Marble Hill, Manhattan in the
      // Bronx's 10463, build.ts) are its own too
      const inCity = parts?.some((c) => c.state === state && (c.area
        ? c.area.county === county && (c.area.zips.includes(zip) || BOROUGHS.has(`${state}|${c.city}`))
        : this.cityOf[i] === c.city)) ?? false;
      if (p.state ? state === p.state || inCity : inCity || !p.cities) out.add(i);
    });
    return out;
  }
}

function describe(p: NamedPlace): string {
  const where = p.cities ? p.cities.map((c) => `${c.city}, ${c.state}`).join(' | ') : p.state ?? '';
  return [where, p.zip].filter(Boolean).join(' ');
}
