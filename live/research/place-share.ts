// Which state a city name takes when no state is written next to it, beyond the first reading of the city pass
// (places.ts findPlaces; rules: warehouse/docs/research.md "Cities"). Pure.
//   dwarfedNamesake  a state named elsewhere in the question (or the context's) pulls a city name to its namesake in
//                    that state, but never a large city (100,000 people or more) to a small place (under 10,000) the
//                    build has no sales of: "I own in New York and want to expand to Philadelphia" is Philadelphia, PA,
//                    not the village Philadelphia, NY (803 people); the state is another place of the question
//   shareStates      cities named together share a state: a city read as its most populous namesake (no state next to
//                    it or named elsewhere) is read in the state more of the question's other places lie in, when it
//                    has a namesake there the build has sales of or of 10,000 people or more, not dwarfed ("Greenwich
//                    vs Stamford vs Norwalk": Norwalk, CT, not Norwalk, CA; "Darien vs Greenwich": Darien, CT); said
//   soldNamesake     a sales or price question: the only namesake with sales, when the most populous has none and is
//                    no large city ("Darien": Darien, CT, not Darien, IL)
//   filedNamesake    the same for a question on foreclosure or lien filings and the towns they name ("baldwin
//                    foreclosures": Baldwin, PA, not Baldwin, NY; review 25)
//   oneSoldState     (in shareStates) names read in different states, none with sales there, that are towns with
//                    sales of one state: read there ("is Fairfield or Milford cheaper": Connecticut; review 27)
import type { City } from './data.ts';
import { filedTown } from './covered-town.ts';
import type { Gazetteer } from './place-words.ts';

/** A large city: a namesake of it in a state named elsewhere must be of some size, or have sales, to be read. */
const LARGE_CITY = 100_000;
/** A place under this many people (with no sales in the build) is no reading of a large city's name. */
const SMALL_PLACE = 10_000;
/** A city of this many people is what its name means with no state, whatever namesakes the build has sales of. */
const MAJOR_CITY = 250_000;

const sells = (gaz: Pick<Gazetteer, 'hasSales'>, c: City): boolean => gaz.hasSales?.(c.state, c.name) ?? false;

/** Whether `c`, a namesake of `biggest` in another state, is too small to be read for the name: `biggest` is a large
 *  city and `c` a small place the build has no sales of. */
export function dwarfedNamesake(c: City, biggest: City, gaz: Pick<Gazetteer, 'hasSales'>): boolean {
  return c !== biggest && biggest.population >= LARGE_CITY && c.population < SMALL_PLACE && !sells(gaz, c);
}

/** A question about a market's sales or prices, and one about a legal topic (whose state matters whatever the sales). */
const SALES_ASKED = /\b(sold|sales?|sell(ing)?|prices?|priced|median|comps?|per sqft|homes?|houses?|condos?)\b/i;
const LEGAL_ASKED = /\b(evict\w*|deposits?|rent (control|cap)\w*|foreclos\w*|liens?|deeds?|landlords?|tenants?|adverse possession|notice)\b/i;

/** soldNamesake: the one namesake of a city name read as its most populous (no state written or named) that the build
 *  has sales of, when the most populous (no large city) has none and the question asks sales or prices ("how many homes sold in Darien
 *  in 2022": Darien, CT, not Darien, IL; said as read); null otherwise. */
export function soldNamesake(q: string, cands: readonly City[], pick: City, gaz: Pick<Gazetteer, 'hasSales'>): City | null {
  // (never a large city's name: "median price in Portland" stays Portland, OR; a Connecticut town has no Census population)
  if (pick.population >= LARGE_CITY || !SALES_ASKED.test(q) || LEGAL_ASKED.test(q) || sells(gaz, pick)) return null;
  const sold = cands.filter((c) => c !== pick && sells(gaz, c));
  return sold.length === 1 ? sold[0]! : null;
}

/** Filings asked of, as data ("foreclosures", "distressed", "liens"), not a legal question about them. */
const FILINGS_ASKED = /\b(foreclosures|foreclosure (filings|cases|counts?|activity|rates?)|distress(ed)?|liens|lien filings|pre-?foreclosures?|tax[- ]delinquen\w*)\b/i;
const LAW_ASKED = /\b(laws?|process|judicial|redemption|rules?|timelines?|notices?|statutes?|legal)\b/i;

/** filedNamesake: the one namesake of a city name read as its most populous that the foreclosure and lien filings name,
 *  when the most populous is none of theirs and no large city, in a question asking the filings; null otherwise. */
export function filedNamesake(q: string, cands: readonly City[], pick: City, gaz: Pick<Gazetteer, 'filingPlaces'>): City | null {
  if (pick.population >= LARGE_CITY || !FILINGS_ASKED.test(q) || LAW_ASKED.test(q) || filedTown(gaz, pick.state, pick.name)) return null;
  const filed = cands.filter((c) => c !== pick && filedTown(gaz, c.state, c.name));
  return filed.length === 1 ? filed[0]! : null;
}

/** A place found in the question (places.ts): a city read freely carries its namesakes (`free`, most populous first). */
interface Placed { state: string; city?: string; zip?: string; at: number; end: number; kind: string; free?: readonly City[] }

/** Moves each city read freely to its namesake in the state more of the other places lie in (a city or a zip of that
 *  state), in place: `found` changes, and the reading is said in `readAs` (replacing the most-populous one). */
export function shareStates(q: string, found: Placed[], gaz: Pick<Gazetteer, 'hasSales'>, readAs: string[]): void {
  const places = found.filter((f) => f.kind === 'city' || f.kind === 'zip');
  if (places.length < 2) return;
  if (oneSoldState(q, places, gaz, readAs)) return;
  // two rounds: a city moved may decide another ("Darien vs Greenwich vs Norwalk")
  for (let round = 0; round < 2; round++) {
    for (const f of places) {
      if (!f.free || f.free.length < 2) continue;
      const others = (st: string): Placed[] => places.filter((g) => g !== f && g.state === st);
      let best: City | null = null;
      let most = others(f.state).length;
      for (const c of f.free) {
        if (c.state === f.state || !(sells(gaz, c) || c.population >= SMALL_PLACE) || dwarfedNamesake(c, f.free[0]!, gaz)) continue;
        const n = others(c.state).length;
        if (n > most) { best = c; most = n; }
      }
      if (!best) continue;
      const written = q.slice(f.at, f.end);
      const was = `"${written}" as ${f.city}, ${f.state} (`;
      for (let i = readAs.length - 1; i >= 0; i--) if (readAs[i]!.startsWith(was)) readAs.splice(i, 1);
      const with_ = others(best.state).map((g) => g.city ?? g.zip).filter((x, i, a) => x && a.indexOf(x) === i);
      f.state = best.state;
      f.city = best.name;
      readAs.push(`"${written}" as ${best.name}, ${best.state} (the state of the other places named with it: ${with_.join(', ')}; name the state for another)`);
    }
  }
}

/** Cities all read freely, in different states, none with sales where read nor a major city, that are towns with
 *  sales of one state and no other ("is Fairfield or Milford cheaper": Fairfield, CA and Milford, MA have none; both
 *  are Connecticut towns of its sales file; review 27): each read in that state, said, in place. */
function oneSoldState(q: string, places: Placed[], gaz: Pick<Gazetteer, 'hasSales'>, readAs: string[]): boolean {
  if (!places.every((f) => f.kind === 'city' && f.free && f.free.length > 1)) return false;
  if (places.some((f) => f.free!.some((c) => c.state === f.state && sells(gaz, c)))) return false;
  // (read in one state already, "Portland or Salem": Oregon's; a major city is the name's meaning, "Fairfield or Portland")
  if (new Set(places.map((f) => f.state)).size === 1 || places.some((f) => f.free![0]!.population >= MAJOR_CITY)) return false;
  const states = (f: Placed): Set<string> => new Set(f.free!.filter((c) => sells(gaz, c)).map((c) => c.state));
  const common = [...states(places[0]!)].filter((st) => places.every((f) => states(f).has(st)));
  if (common.length !== 1) return false;
  const st = common[0]!;
  const names = places.map((f) => q.slice(f.at, f.end));
  for (const [i, f] of places.entries()) {
    const was = `"${names[i]}" as ${f.city}, ${f.state} (`;
    for (let j = readAs.length - 1; j >= 0; j--) if (readAs[j]!.startsWith(was)) readAs.splice(j, 1);
    const town = f.free!.find((c) => c.state === st && sells(gaz, c))!;
    f.state = st;
    f.city = town.name;
    const others = names.filter((n, j) => j !== i && n !== names[i]);
    readAs.push(`"${names[i]}" as ${town.name}, ${st} (${others.length ? `the one state where it and ${others.join(', ')} are towns with recorded sales` : 'a town with recorded sales'}; name the state for another)`);
  }
  return true;
}
