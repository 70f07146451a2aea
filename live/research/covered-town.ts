// Whether a source of the build covers a town: its sales (a market window) or its foreclosure and lien filings. A
// lower-case town name with no "in" before it is read next to a topic word only then ("mckeesport foreclosures":
// live/places/question.ts uncuedTown), and a town's name not read is named with a covered namesake (unread-words.ts).
// Pure. Rules: warehouse/docs/research.md "Entity rules".
import { compactKey, placeKey } from '../places/names.ts';
import type { Gazetteer } from './place-words.ts';

export function coveredTown(gaz: Pick<Gazetteer, 'hasSales' | 'filingPlaces'>, state: string, city: string): boolean {
  return (gaz.hasSales?.(state, city) ?? false) || filedTown(gaz, state, city);
}

/** Whether the foreclosure and lien filings name the town as a municipality. */
export function filedTown(gaz: Pick<Gazetteer, 'filingPlaces'>, state: string, city: string): boolean {
  // (by the compact key: the filings write "Greentree" for Green Tree, PA)
  const key = compactKey(placeKey(city));
  return (gaz.filingPlaces ?? []).some((f) => f.state === state && compactKey(placeKey(f.name)) === key);
}
