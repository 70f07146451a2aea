// A county named in a research question ("King County", "sacramento county", "Orleans Parish") as the area of its
// zips, for the per-zip topics and a county's price trend (intent.ts); its filings are county-distress.ts. Rules:
// warehouse/docs/research.md.
import { BOROUGHS, coIsCounty } from './place-words.ts';
import type { Gazetteer, Target } from './places.ts';

/** A county named ("King County", "Cook County, Illinois", "sacramento county", "Orleans Parish") as an area of its zips, in the
 *  state named or else the most populous county of that name; null when none is named or the build has no county names. */
export function findCounty(q: string, gaz: Gazetteer, states: readonly string[]): Target | null {
  if (!gaz.countiesByName) return null;
  // capitals or not ("sacramento county"): only a name the Census county list holds is taken
  // "Co"/"Co." is County after a county's name that no Colorado city bears ("King Co WA", "allegheny co": coIsCounty)
  for (const m of q.matchAll(/\b((?:[A-Za-z.'-]+ ){1,3})(county\b|parish\b|co\.?(?![-'\w]))/gi)) {
    const words = m[1]!.trim().split(' ');
    const co = /^co\.?$/i.test(m[2]!);
    for (let k = 0; k < words.length; k++) {
      const name = words.slice(k).join(' ').toLowerCase();
      if (co && !coIsCounty(name, m[2]!, gaz)) continue;
      const cands = gaz.countiesByName.get(`${name} ${co ? 'county' : m[2]!.toLowerCase()}`);
      if (!cands?.length) continue;
      const c = cands.find((x) => states.includes(x.state)) ?? (states.length ? undefined : cands[0]);
      // a New York City borough's county ("Kings County") is the borough, whose market is kept on its own
      const borough = c && BOROUGHS.find(([, a]) => a.county_fips === c.fips)?.[1];
      if (borough) return { state: 'NY', city: 'New York', area: borough, from: 'query' };
      if (c) return { state: c.state, area: { name: c.name, county_fips: c.fips }, from: 'query' };
    }
  }
  return null;
}
