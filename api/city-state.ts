// A city written with its own state after a comma ("Seattle, WA", "Brooklyn, New York") on a route that takes `city`
// and `state` (geo lookup, market trends and investor overview, legal, regulations). Review 23 #2: trends answered
// "No sfr sales for Seattle, WA, WA" for city=Seattle, WA&state=WA. The state after the comma (a code, a name or a short
// form as a typed address's place reads it: live/places/names.ts writtenState) is read before the parameters are
// checked: the same state as `state`, or no `state` sent, and the city is the name before the comma (the state is
// taken from it when none was sent); another state than `state` is a 422 (conflicting parameters, as the README
// says), since the request names two states.
// Also read so (review h67): the state in parentheses ("Seattle (WA)"), a zip after the state ("Seattle, WA 98103"),
// the country after it ("Seattle, WA, USA"), and, when no `state` was sent, a code in capitals after a blank
// ("Seattle WA"; with `state` sent the place resolver reads that form: live/places/endpoint.ts).
// A name whose part after the comma is no state ("Islamorada, Village of Islands") stays as written.
import type { FieldError } from './errors.ts';
import type { ParamSpec } from './params.ts';
import type { LoadedBuild } from './builds.ts';
import places from '../live/places/endpoint.ts';
import { placeKey, STATE_CODES, writtenState } from '../live/places/names.ts';

/** The country written after a place (", USA", " U.S.", ", United States of America"). */
const COUNTRY = /\s*(?:,\s*|\s+)(?:u\.?s\.?a?\.?|united states(?: of america)?)\s*$/i;
const ZIP_AFTER = String.raw`(?:\s+\d{5}(?:-\d{4})?)?\s*$`;
/** The city and its state: after a comma (a zip may follow the state), in parentheses, or (`bare`) a code in capitals
 *  after a blank, with how the state is written for the conflict's 422. */
const WITH_STATE: readonly [RegExp, string, boolean][] = [
  [new RegExp(String.raw`^(.*\S)\s*,\s*([^,]+?)${ZIP_AFTER}`), 'after its comma', false],
  [/^(.*\S)\s*\(\s*([^()]+?)\s*\)\s*$/, 'in parentheses', false],
  [new RegExp(String.raw`^(.*\S)\s+([A-Z]{2})${ZIP_AFTER}`), 'after its name', true],
];

/** The city and the state a city written with its state names, or null. `bare`: also a code after a blank. */
function splitCity(city: string, bare: boolean): { city: string; state: string; how: string } | null {
  const noCountry = city.replace(COUNTRY, '');
  for (const text of noCountry !== city && noCountry.trim() !== '' ? [city, noCountry] : [city]) {
    for (const [re, how, needsBare] of WITH_STATE) {
      if (needsBare && !bare) continue;
      const m = re.exec(text);
      const state = m ? writtenState(m[2]!) : null;
      if (m && state !== null) return { city: m[1]!, state, how };
    }
  }
  return null;
}

/** The query with `city` (and, when none was sent, `state`) read from a city written with its state, and the 422s of a
 *  city whose state contradicts `state`. The query is returned as given on routes without both parameters. */
export function cityWithState(specs: readonly ParamSpec[], query: Record<string, unknown>): { query: Record<string, unknown>; errors: FieldError[] } {
  const city = query['city'];
  if (typeof city !== 'string' || !specs.some((s) => s.name === 'city') || !specs.some((s) => s.name === 'state')) return { query, errors: [] };
  const state = query['state'];
  const split = splitCity(city, state === undefined);
  if (split === null) return { query, errors: [] };
  if (state === undefined) return { query: { ...query, city: split.city, state: split.state }, errors: [] };
  if (state === split.state) return { query: { ...query, city: split.city }, errors: [] };
  // a malformed state is the state rule's 400 (params.ts): compared only when it is a code as that rule takes it
  if (typeof state !== 'string' || !STATE_CODES.has(state)) return { query, errors: [] };
  return {
    query,
    errors: [{ field: 'city', code: 'conflict', message: `city "${city}" names the state ${split.state} ${split.how}, but state=${state}: give the city's name alone (city=${split.city}) with the state it is in` }],
  };
}

/** At most this many states are named in the 400 of a city sent without its state ("Springfield" is a city of 22). */
const MAX_NAMED_STATES = 12;

/** The 400 of a city sent without `state` names the states where the build knows a city by that name, the largest
 *  city's first, so the caller picks one rather than the service guessing (review h67: city=Portland and city=Kansas
 *  City answered "state is required" and nothing more): "state is required: Portland is a city of OR, ME, ...; send
 *  the one meant, e.g. state=OR". A nickname names its city ("Philly is read as Philadelphia, PA"); a county sent as a
 *  city ("King County", no city of that name) names the counties of that name and what to send (review h71). Other errors, and
 *  a name no state's places know, are returned as they were. */
export function stateRequired(build: LoadedBuild | null, errors: FieldError[], query: Record<string, unknown>): FieldError[] {
  const at = errors.findIndex((e) => e.field === 'state' && e.code === 'required');
  const city = query['city'];
  const inst = build?.live.get(places);
  if (at < 0 || typeof city !== 'string' || city.trim() === '' || !inst) return errors;
  const answer = inst.handle({ state: null, city: city.trim() } as never);
  if (answer instanceof Promise || !answer.ok) return errors;
  const { matches: all, county } = answer.body as { matches: { city: string; state: string }[]; county?: string | null };
  // the cities of that very name when there are some ("Kansas City": MO and KS, not Kansas, AL by "Kansas" + "City")
  const exact = all.filter((m) => placeKey(m.city) === placeKey(city));
  // a county sent as a city ("King County") that is no city's name in any state ("Kings County" is Brooklyn's): the
  // counties of that name (live/places/counties.ts countyWithoutState)
  if (!all.length && county) return errors.map((e, i) => (i === at ? { ...e, message: county } : e));
  const matches = exact.length ? exact : all;
  if (matches.length === 0) return errors;
  const states = [...new Set(matches.map((m) => m.state))]; // the largest city's state first (resolveAnywhere)
  const named = states.slice(0, MAX_NAMED_STATES);
  const and = (xs: string[]): string => (xs.length === 1 ? xs[0]! : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]!}`);
  const shown = city.trim().length > 60 ? `${city.trim().slice(0, 60)}...` : city.trim();
  const what = !exact.length ? `${shown} is read as ${and(matches.slice(0, MAX_NAMED_STATES).map((m) => `${m.city}, ${m.state}`))}`
    : states.length > named.length ? `${shown} is a city of ${states.length} states; the ${named.length} largest are in ${and(named)}`
      : `${shown} is a city of ${and(named)}`;
  const message = `state is required: ${what}; ${named.length === 1 ? `send state=${named[0]!}` : `send the one meant, e.g. state=${named[0]!}`}`;
  return errors.map((e, i) => (i === at ? { ...e, message } : e));
}
