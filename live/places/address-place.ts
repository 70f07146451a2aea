// The place names a typed address may end with (warehouse/address.ts splitPlace), from the places knowledge: a state
// as written anywhere (names.ts writtenState: code, name, misspelling, short form) and a city of that state by the
// resolver's keys, or, with no state written, the zip's own city. Rules: warehouse/docs/address.md "What a caller types".
import type { PlaceNames } from '../../warehouse/address.ts';
import { placeKey, writtenState } from './names.ts';
import type { PlaceResolver } from './resolver.ts';

/** `zip`: the city and state of the request's zip when known (its city is read without a state written). */
export function addressPlaceNames(resolver: PlaceResolver | null, zip: { city: string; state: string } | null): PlaceNames {
  const zipCity = (phrase: string): boolean => zip !== null && (placeKey(phrase) === placeKey(zip.city)
    || (resolver !== null && ((r) => r.ok && r.city === zip.city)(resolver.resolveCity(zip.state, phrase))));
  return {
    state: writtenState,
    city: (phrase, state) => state === null || state === zip?.state
      ? zipCity(phrase) || (state !== null && resolver !== null && resolver.resolveCity(state, phrase).ok)
      : resolver !== null && resolver.resolveCity(state, phrase).ok,
  };
}
