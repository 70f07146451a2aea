// Which place a city name means when the exact name is the wrong one (POST /v1/research/query; rules:
// warehouse/docs/research.md "Cities"):
//   nearNamedCity  a typo of a larger city of a state named or implied elsewhere in the question beats an exact small
//                  namesake in another state ("eviction notice Pennsylvania vs Pittsburg": Pittsburgh, PA)
//   distressCity   a distress (foreclosure, lien filings) question reads the city as the distress source names it: a
//                  municipality of the filings written shorter ("Penn Hills" for Penn Hills Township, "Mt. Lebanon" for
//                  Mount Lebanon Township, not in the Census place table), or the closest city name with filings
//                  when the city read has none ("Pittsburg foreclosure filings": Pittsburgh, PA)
// Every such reading is said ("Reading ... as ..."), never silent.
import type { City, ResearchData } from './data.ts';
import type { Target } from './place-words.ts';
import { cityTypoIndex } from '../places/question.ts';
import { compactKey, editDistance, municipalityNames, placeKey } from '../places/names.ts';

/** Cities within one edit of `name` (by the place resolver's compact key, 5 letters or more) in `states` (every state
 *  when null), larger than `minPop`, most populous first. */
function nearCities(byName: ReadonlyMap<string, readonly City[]>, name: string, states: Iterable<string> | null, minPop: number): City[] {
  const key = compactKey(placeKey(name));
  if (key.length < 5) return [];
  const index = cityTypoIndex(byName);
  const pools = states ? [...states].map((s) => index.byState.get(s) ?? []) : [index.big];
  const out = pools.flatMap((p) => [-1, 0, 1].flatMap((d) => p[key.length + d] ?? []))
    .filter((k) => k.key !== key && k.city.population > minPop && editDistance(k.key, key, 1) <= 1).map((k) => k.city as City);
  return out.sort((a, b) => b.population - a.population);
}

/** The larger city of a named or implied state one edit from `name`, or null. */
export function nearNamedCity(byName: ReadonlyMap<string, readonly City[]>, name: string, states: ReadonlySet<string>, minPop: number): City | null {
  return states.size ? nearCities(byName, name, states, minPop)[0] ?? null : null;
}

const hasFilings = async (data: ResearchData, state: string, city: string): Promise<boolean> => (await data.shard('investor', { state, city, months: '12' })) !== null;

/** The distress source's own name for the city of `t` asked about, with the reading to say; null to keep `t`. */
export async function distressCity(data: ResearchData, u: { asks: readonly string[]; query: string }, t: Target): Promise<{ target: Target; readAs: string; written: string } | null> {
  if (!t.city || t.zip || t.area || !u.asks.includes('distress')) return null;
  const esc = t.city.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:\\b(Mt\\.?|Mount)\\s+)?\\b${esc}\\b(?:\\s+([A-Z][a-z]+))?`, 'i').exec(u.query);
  if (m) {
    const mount = m[1] ? 'Mount ' : '';
    const next = m[2] && !/^(Township|Borough|County|City)$/i.test(m[2]) ? ` ${m[2]}` : '';
    const bases = [...new Set([`${mount}${t.city}${next}`, `${mount}${t.city}`])];
    // the state read first; with no state named, any state's filings (a municipality of no Census place has no state here)
    const named = new RegExp(`\\b(${t.state}|${data.stateName(t.state)})\\b`).test(u.query);
    const states = named ? [t.state] : [t.state, ...[...data.stateNames.keys()].filter((s) => s !== t.state)];
    for (const base of bases) {
      for (const name of municipalityNames(base)) {
        for (const state of name === t.city ? [] : states) {
          if (!(await hasFilings(data, state, name))) continue;
          const written = m[0].replace(/\s+(Township|Borough|County|City)$/i, '');
          const cut = next && !base.endsWith(next) ? written.slice(0, written.length - next.length) : written;
          return { target: { state, city: name, from: t.from }, written: cut, readAs: `"${cut}" as ${name}, ${state} (the municipality's name in the foreclosure and lien filings)` };
        }
      }
    }
  }
  if (await hasFilings(data, t.state, t.city)) return null;
  // no filings for the city read: the closest city name that has them (a larger city one edit away)
  const own = data.cityInState(t.city, t.state);
  for (const c of nearCities(data.citiesByName, t.city, null, own?.population ?? 0)) {
    if (await hasFilings(data, c.state, c.name)) {
      return { target: { state: c.state, city: c.name, from: t.from }, written: t.city, readAs: `"${t.city}" as ${c.name}, ${c.state} (the closest city name with foreclosure or lien filings; ${t.city}, ${t.state} has none)` };
    }
  }
  return null;
}
