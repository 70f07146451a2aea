// The place names a typed address may end with (warehouse/address.ts splitPlace), from the places knowledge: a state
// as written anywhere (names.ts writtenState: code, name, misspelling, short form) and a city of that state by the
// resolver's keys, or, with no state written, the zip's own city (the valuation, the property record) or, where no zip
// is known (address autocomplete), a city of any state. Rules: warehouse/docs/address.md "What a caller types".
import type { PlaceNames } from '../../warehouse/address.ts';
import { placeKey, writtenState } from './names.ts';
import type { PlaceResolver } from './resolver.ts';

/** `zip`: the city and state of the request's zip when known (its city is read without a state written).
 *  `anyState`: a city written without its state is also read when it is a city of any state (resolveAnywhere). */
export function addressPlaceNames(resolver: PlaceResolver | null, zip: { city: string; state: string } | null,
  opts: { anyState?: boolean } = {}): PlaceNames {
  const known = (state: string, phrase: string): boolean => resolver !== null && resolver.findCity(state, phrase)?.ok === true;
  const zipCity = (phrase: string): boolean => zip !== null && (placeKey(phrase) === placeKey(zip.city)
    || (resolver !== null && ((r) => r?.ok === true && r.city === zip.city)(resolver.findCity(zip.state, phrase))));
  const anywhere = (phrase: string): boolean => opts.anyState === true && resolver !== null && resolver.resolveAnywhere(phrase).length > 0;
  return {
    state: writtenState,
    city: (phrase, state) => state === null || state === zip?.state
      ? zipCity(phrase) || (state !== null ? known(state, phrase) : anywhere(phrase))
      : known(state, phrase),
  };
}
