// A well-known neighbourhood of a city the build covers, named alone ("Ballard home prices", "median price in Queen
// Anne", "Capitol Hill home prices"), where no source of the build names it (the only neighbourhoods kept are New York
// City's, hoods.ts): read as its city as a whole, said, when no namesake town is a market the build covers (Ballard,
// UT: 1,648 people, no sales or filings) nor one of 50,000 people or more; a name of several covered cities ("Capitol
// Hill": Seattle, Denver, Washington DC) is asked back, naming them. Review 25: "Ballard" alone was Ballard, UT's no
// data, "Capitol Hill" alone a refusal to rank cities. Named with its city ("Capitol Hill Seattle", "Denver's Capitol
// Hill") or a state, other rules read it (place-prefer.ts neighbourhoods, hood-cities.ts). Pure (places.ts findPlaces).
// Rules: warehouse/docs/research.md "Neighbourhoods".
import type { City } from './data.ts';
import { coveredTown } from './covered-town.ts';
import { TOWN_OVER_HOOD } from './hood-places.ts';
import { hoodReading } from './hood-cities.ts';
import { UNREAD_LEAD, type Gazetteer } from './place-words.ts';
import { stateAt } from './state-clash.ts';

interface HoodCity { state: string; city: string }
const SEATTLE: HoodCity = { state: 'WA', city: 'Seattle' };
const DENVER: HoodCity = { state: 'CO', city: 'Denver' };
const DC: HoodCity = { state: 'DC', city: 'Washington' };

/** Neighbourhoods asked alone, with the cities they are in: Seattle's and Denver's (the cities with sales that name
 *  none), the Gulch of Nashville. The name as asked, lower case. */
const LONE_HOODS: readonly [string, readonly HoodCity[]][] = [
  ['ballard', [SEATTLE]], ['queen anne', [SEATTLE]], ['belltown', [SEATTLE]],
  ['cherry creek', [DENVER]], ['wash park', [DENVER]],
  ['the gulch', [{ state: 'TN', city: 'Nashville' }]],
  ['capitol hill', [SEATTLE, DENVER, DC]],
];

export interface LoneHood { start: number; end: number; state?: string; city?: string; readAs?: string; unknown?: string }

/** The neighbourhoods of LONE_HOODS named alone in `q` outside the spans taken: each read as its city (`readAs` said), or
 *  when it is several cities' and the question names none of them, an `unknown` entry asking which. None is read
 *  before a capitalised word (a city: "Ballard Seattle") or a state none of its cities is in ("Ballard, UT"), nor
 *  where a state named is none of its cities'. */
export function loneHoods(q: string, taken: readonly { start: number; end: number }[], gaz: Pick<Gazetteer, 'citiesByName' | 'hasSales' | 'filingPlaces'>, namedStates: ReadonlySet<string>): LoneHood[] {
  const out: LoneHood[] = [];
  const lower = q.toLowerCase();
  for (const [name, cities] of LONE_HOODS) {
    const m = new RegExp(`\\b${name.replace(' ', '\\s+')}\\b`).exec(lower);
    if (!m) continue;
    const [start, end] = [m.index, m.index + m[0].length];
    if (taken.some((t) => t.start < end && t.end > start)) continue;
    // a state just after it names which ("Capitol Hill, Colorado"); a capitalised word there is a city's (place-prefer.ts)
    const st = stateAt(q.slice(end));
    if (!st && /^[ \t]*,?[ \t]*[A-Z]/.test(q.slice(end))) continue;
    const inState = st ? cities.filter((c) => c.state === st.code) : namedStates.size ? cities.filter((c) => namedStates.has(c.state)) : cities;
    if (!inState.length) continue;
    // the question names one of its cities elsewhere ("Capitol Hill ... I mean the one in Denver"): hood-cities.ts loneHood
    if (cities.some((c) => new RegExp(`\\b${c.city}\\b`, 'i').test(q) || (c.state === 'DC' && /\bD\.?C\b/.test(q)))) continue;
    const towns: readonly City[] = gaz.citiesByName.get(name) ?? [];
    if (towns.some((t) => t.population >= TOWN_OVER_HOOD || coveredTown(gaz, t.state, t.name))) continue;
    const written = q.slice(start, end);
    if (inState.length > 1) {
      const list = inState.map((c) => `${c.city}, ${c.state}`).join('; ');
      out.push({ start, end, unknown: `${UNREAD_LEAD}"${written}" is a neighbourhood of several cities (${list}): name the city ("${written} ${inState[0]!.city}"), whose figures are then given as a whole, as no source of this build maps its neighbourhoods` });
      continue;
    }
    const c = inState[0]!;
    const not = towns.slice(0, 1).map((t) => ({ state: t.state, city: t.name, at: 0, end: 0, kind: 'city' }));
    out.push({ start, end, state: c.state, city: c.city, readAs: hoodReading(written, { ...c, at: 0, end: 0, kind: 'city' }, not) });
  }
  return out;
}
