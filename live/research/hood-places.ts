// A neighbourhood named alone in a research question ("median price in Astoria", "Bushwick home prices"), when a sales
// source of the build names it (hoods.ts): read as that neighbourhood of its city part (a New York City borough), with
// its zips said, unless the question names a state other than the neighbourhood's, names its city or borough too (the
// neighbourhood rule of place-prefer.ts answers those; its own borough written just after it, "williamsburg brooklyn",
// is this neighbourhood), or the words name a town of 50,000 people or more (Madison,
// WI; Glendale, CA) or one the build has sales of. A smaller town read in the words gives way, and the answer says so.
// Rules: warehouse/docs/research.md "Neighbourhoods".
import type { Area, Gazetteer } from './place-words.ts';
import { BOROUGHS, type Token } from './place-words.ts';
import type { Hood } from './hoods.ts';
import { citiesByKey } from '../places/question.ts';

/** Short names of neighbourhoods, as written (capitals): the neighbourhood's name in the sales records. */
const HOOD_ALIASES: Readonly<Record<string, string>> = { LIC: 'long island city' };

/** A town of this many people or more keeps its name over a neighbourhood's. */
export const TOWN_OVER_HOOD = 50_000;

interface Found { state: string; city?: string; zip?: string; area?: Area; hood?: Hood; at: number; end: number; kind: 'state' | 'city' | 'zip' }

/** Whether a place found is the city part a neighbourhood lies in: its borough ("Brooklyn" for WILLIAMSBURG-NORTH),
 *  or its city when the source names no part other than the city. */
function isPartOf(f: Found, hood: Hood): boolean {
  const bare = (s: string): string => s.toLowerCase().replace(/^the /, '');
  // a borough read as a town of its sales' city name ("astoria queens": Queens, NY, h74ask) is the part too
  return f.state === hood.state && (f.city === hood.city ? (f.area ? bare(f.area.name) === bare(hood.part) : bare(hood.part) === bare(hood.city)) : !f.area && !!f.city && bare(f.city) === bare(hood.part));
}

/** Whether a place found is written next to the words start..end: only spaces, commas, brackets or one short word (a
 *  state's two letters, "Kensington PA 19134"; "zip", "zip code") between ("(19134) Kensington" too). */
const nextTo = (q: string, start: number, end: number, f: Found): boolean =>
  /^[\s,()]*(?:(?:zip(?:\s*code)?|[a-z]{2}\.?)[\s,:#()]+)?$/i.test(f.at >= end ? q.slice(end, f.at) : f.end <= start ? q.slice(f.end, start) : 'x');

/** Whether a zip lies in a neighbourhood's city part: one of its zips, or a zip of its borough's county (of its city
 *  where the source names no borough). */
function holds(hood: Hood, zip: string, gaz: Gazetteer): boolean {
  const z = gaz.zips.get(zip);
  if (hood.zips.includes(zip) || !z) return true;
  const area = BOROUGHS.find(([re]) => re.test(hood.part))?.[1];
  return z.state === hood.state && (area ? z.county_fips === area.county_fips : z.city.toLowerCase() === hood.city.toLowerCase());
}

/** The neighbourhoods named alone (or with their own borough just after them): the found towns they replace (indexes
 *  into `found`), the new places and readings, and the words a town kept over a neighbourhood with a note naming it. */
export function hoodsNamed(q: string, toks: readonly Token[], taken: readonly { start: number; end: number }[], found: readonly Found[], gaz: Gazetteer,
  namedStates: ReadonlySet<string>, hasSales: (state: string, city: string) => boolean,
  stateHits: readonly { state: string; at: number; end: number }[] = []): { drop: number[]; add: Found[]; readAs: string[]; dropped: string[]; states: number[]; namesakes: { text: string; note: string }[] } {
  const out = { drop: [] as number[], add: [] as Found[], readAs: [] as string[], dropped: [] as string[], states: [] as number[], namesakes: [] as { text: string; note: string }[] };
  if (!gaz.hoodsByName?.size) return out;
  for (let i = 0; i < toks.length; i++) {
    for (let n = Math.min(4, toks.length - i); n >= 1; n--) {
      const words = toks.slice(i, i + n);
      if (words.some((w, j) => j > 0 && !/^ +$/.test(q.slice(words[j - 1]!.end, w.start)))) continue;
      const hoods = gaz.hoodsByName.get(n === 1 ? HOOD_ALIASES[words[0]!.text] ?? words[0]!.lower : words.map((w) => w.lower).join(' '));
      if (hoods?.length !== 1) continue;
      const hood = hoods[0]!;
      const [start, end] = [words[0]!.start, words.at(-1)!.end];
      // a state read in its words ("Washington" in "Washington Heights") is not named: the neighbourhood's words
      const inside = stateHits.map((h, j) => (h.at >= start && h.end <= end ? j : -1)).filter((j) => j >= 0);
      const named = inside.length ? new Set([...namedStates].filter((st) => stateHits.some((h, j) => h.state === st && !inside.includes(j)) || !stateHits.some((h) => h.state === st))) : namedStates;
      // its own borough or city written just after it ("williamsburg brooklyn", "Forest Hills, Queens", "Astoria in Queens"): this
      // neighbourhood, the borough's words with it
      const partAt = found.findIndex((f) => f.kind === 'city' && !f.zip && !f.hood && f.at >= end && /^(?:[\s,]*|\s+in\s+)$/i.test(q.slice(end, f.at)));
      // or before it in the possessive ("Brooklyn's Kensington")
      const own = (f: Found): boolean => f.kind === 'city' && !f.zip && !f.hood && f.end <= start && /['’]s\s+$/.test(q.slice(f.at, start)) && /^(?:['’]s)?\s+$/.test(q.slice(f.end, start)) && isPartOf(f, hood);
      const partIdx = partAt >= 0 && isPartOf(found[partAt]!, hood) ? partAt : found.findIndex(own);
      const part = partIdx >= 0 ? found[partIdx]! : null;
      // another city written just after it ("Kensington Philadelphia"), after "in" or before it in the possessive
      // ("Kensington in Philadelphia", "Philadelphia's Kensington"): that city's neighbourhood (place-prefer.ts,
      // hood-cities.ts)
      if (partAt >= 0 && !part && !found[partAt]!.area) break;
      if (found.some((f) => f.kind === 'city' && !f.zip && !f.hood && !f.area && !(f.state === hood.state && f.city === hood.city)
        && ((f.at >= end && /^\s+in\s+$/i.test(q.slice(end, f.at))) || (f.end <= start && /['’]s\s+$/i.test(q.slice(f.at, start)) && /^(?:['’]s)?\s+$/i.test(q.slice(f.end, start)))))) break;
      // a zip of another city part written next to it ("Kensington 19134 Philadelphia", "19134 Kensington"): the zip
      // and city named win (place-prefer.ts, zip-clash.ts); review 27: Brooklyn's Kensington was read beside 19134
      const zip = found.find((f) => f.kind === 'zip' && f.zip && nextTo(q, start, end, f) && !holds(hood, f.zip, gaz));
      if (zip) {
        // no town read in the words either ("Kensington 19134 home prices") nor a city after the zip (place-prefer.ts says
        // "Kensington 19134 Philadelphia"): the words are said, not dropped unsaid
        const city = found.some((f) => f.kind === 'city' && ((f.at <= start && f.end >= end) || (f.at >= zip.end && /^[\s,]*$/.test(q.slice(zip.end, f.at)))));
        if (!city) out.readAs.push(`"${q.slice(start, end)}" beside zip ${zip.zip} (${zip.city}, ${zip.state}) as a part of the zip's city, not the ${hood.city} neighbourhood ${hood.names.join(' / ')} (${hood.part}): the figures are the zip's`);
        break;
      }
      // its city or borough named too (elsewhere), or another state: not this neighbourhood alone
      if (!part && ((named.size && !named.has(hood.state)) || found.some((f) => f.state === hood.state && f.city === hood.city))) break;
      // a town of that name anywhere of 50,000 people or more, or one with sales in the build, keeps the words
      // by the place key too: "St George" is St. George, UT as "St. George" is
      const phrase = words.map((w) => w.lower).join(' ');
      const namesakes = gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase) ?? [];
      if (!part && namesakes.some((c) => c.population >= TOWN_OVER_HOOD || hasSales(c.state, c.name))) {
        // a town with no sales in the build keeps the words: the neighbourhood the records hold is said beside it, with
        // how to ask for it (review 21: "median price in St. George" answered St. George, UT without a word of Staten
        // Island's NEW BRIGHTON-ST. GEORGE)
        if (!namesakes.some((c) => hasSales(c.state, c.name))) {
          const text = q.slice(start, end);
          out.namesakes.push({ text, note: `not the ${hood.city} neighbourhood ${hood.names.join(' / ')} (${hood.part}) its sales records name: ask "${text}, ${hood.part}" for that` });
        }
        break;
      }
      // the towns read in these words ("East Side, PA" in "Upper East Side") give way; words taken otherwise do not
      const towns = found.map((f, j) => (f.kind === 'city' && !f.area && !f.zip && f.at >= start && f.end <= end ? j : -1)).filter((j) => j >= 0);
      const spans = towns.map((j) => found[j]!);
      if (taken.some((t) => t.start < end && t.end > start && !spans.some((f) => f.at === t.start && f.end === t.end) && !inside.some((j) => stateHits[j]!.at === t.start && stateHits[j]!.end === t.end))) continue;
      if (spans.some((f) => named.has(f.state))) break;
      out.states.push(...inside);
      for (const j of towns) {
        out.drop.push(j);
        out.dropped.push(`"${q.slice(found[j]!.at, found[j]!.end)}" as ${found[j]!.city}, ${found[j]!.state} (`);
      }
      const town = towns.length === 1 && spans[0]!.at === start && spans[0]!.end === end ? spans[0]! : null;
      const area = BOROUGHS.find(([re]) => re.test(hood.part))?.[1];
      if (part) out.drop.push(partIdx);
      out.add.push({ state: hood.state, city: hood.city, ...(area ? { area } : {}), hood, at: Math.min(start, part?.at ?? start), end: Math.max(end, part?.end ?? end), kind: 'city' });
      const zips = hood.zips.length ? `: its sales lie in zip${hood.zips.length > 1 ? 's' : ''} ${hood.zips.join(', ')}` : '';
      // several of the source's names read as one: said, so a figure is never taken for one name's
      const summed = hood.names.length > 1 ? ` (these ${hood.names.length} names' sales summed)` : '';
      out.readAs.push(`"${q.slice(start, end)}" as the ${hood.city} neighbourhood ${hood.names.join(' / ')} (${hood.part}), as its sales records name it${summed}${zips}${town ? `, not ${town.city}, ${town.state}` : ''}`);
      i += n - 1;
      break;
    }
  }
  return out;
}
