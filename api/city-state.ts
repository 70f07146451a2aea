// A city written with its own state after a comma ("Seattle, WA", "Brooklyn, New York") on a route that takes `city`
// and `state` (geo lookup, market trends and investor overview, legal, regulations). Review 23 #2: trends answered
// "No sfr sales for Seattle, WA, WA" for city=Seattle, WA&state=WA. The state after the comma (a code, a name or a short
// form as a typed address's place reads it: live/places/names.ts writtenState) is read before the parameters are
// checked: the same state as `state`, or no `state` sent, and the city is the name before the comma (the state is
// taken from it when none was sent); another state than `state` is a 422 (conflicting parameters, as the README
// says), since the request names two states.
// A name whose part after the comma is no state ("Islamorada, Village of Islands") stays as written.
import type { FieldError } from './errors.ts';
import type { ParamSpec } from './params.ts';
import { STATE_CODES, writtenState } from '../live/places/names.ts';

/** The query with `city` (and, when none was sent, `state`) read from a city written with its state, and the 422s of a
 *  city whose state contradicts `state`. The query is returned as given on routes without both parameters. */
export function cityWithState(specs: readonly ParamSpec[], query: Record<string, unknown>): { query: Record<string, unknown>; errors: FieldError[] } {
  const city = query['city'];
  if (typeof city !== 'string' || !specs.some((s) => s.name === 'city') || !specs.some((s) => s.name === 'state')) return { query, errors: [] };
  const m = /^(.*\S)\s*,\s*([^,]+?)\s*$/.exec(city);
  const written = m ? writtenState(m[2]!) : null;
  if (!m || written === null) return { query, errors: [] };
  const state = query['state'];
  if (state === undefined) return { query: { ...query, city: m[1]!, state: written }, errors: [] };
  if (state === written) return { query: { ...query, city: m[1]! }, errors: [] };
  // a malformed state is the state rule's 400 (params.ts): compared only when it is a code as that rule takes it
  if (typeof state !== 'string' || !STATE_CODES.has(state)) return { query, errors: [] };
  return {
    query,
    errors: [{ field: 'city', code: 'conflict', message: `city "${city}" names the state ${written} after its comma, but state=${state}: give the city's name alone (city=${m[1]!}) with the state it is in` }],
  };
}
