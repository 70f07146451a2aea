// A county named in a research question ("King County", "sacramento county", "Orleans Parish") as the area of its
// zips, for the per-zip topics and a county's price trend (intent.ts); its filings are county-distress.ts. Rules:
// warehouse/docs/research.md.
import { BOROUGHS, coIsCounty } from './place-words.ts';
import type { Gazetteer, Target } from './place-words.ts';
import { formerCountyNote } from '../places/former-counties.ts';

/** A county named ("King County", "Cook County, Illinois", "sacramento county", "Orleans Parish") as an area of its zips, in the
 *  state named or else the most populous county of that name; null when none is named or the build has no county names. */
export function findCounty(q: string, gaz: Gazetteer, states: readonly string[]): Target | null {
  return findCounties(q, gaz, states)[0] ?? null;
}

/** Every county a question names (findCounty's rules), each once, in the order written: "King County vs Philadelphia
 *  County" is both, so a comparison of counties answers each (before, the first alone). */
export function findCounties(q: string, gaz: Gazetteer, states: readonly string[]): Target[] {
  const found: { at: number; t: Target }[] = [];
  const add = (at: number, t: Target): void => {
    if (!found.some((x) => x.t.area!.county_fips === t.area!.county_fips)) found.push({ at, t });
  };
  if (!gaz.countiesByName) return [];
  // a county of a name no named state holds, beside a county of a named state ("Allegheny County vs Jefferson County
  // KY"): the state is the other county's, so this one is the most populous of its name (below; before, it was dropped)
  const elsewhere: { at: number; c: CountyRow }[] = [];
  // capitals or not ("sacramento county"): only a name the Census county list holds is taken
  // "Co"/"Co." is County after a county's name that no Colorado city bears ("King Co WA", "allegheny co": coIsCounty)
  for (const m of q.matchAll(/\b((?:[A-Za-z.'-]+ ){1,3})(county\b|parish\b|co\.?(?![-'\w]))/gi)) {
    const words = m[1]!.trim().split(' ');
    const co = /^co\.?$/i.test(m[2]!);
    let other: CountyRow | undefined; // the longest name of a county in no named state
    for (let k = 0; k < words.length; k++) {
      const name = words.slice(k).join(' ').toLowerCase();
      if (co && !coIsCounty(name, m[2]!, gaz)) continue;
      const cands = gaz.countiesByName.get(`${name} ${co ? 'county' : m[2]!.toLowerCase()}`);
      if (!cands?.length) continue;
      const c = cands.find((x) => states.includes(x.state)) ?? (states.length ? undefined : cands[0]);
      if (!c) { other ??= cands[0]; continue; }
      add(m.index, countyTarget(c));
      other = undefined;
      break;
    }
    if (other) elsewhere.push({ at: m.index, c: other });
  }
  if (found.length) for (const { at, c } of elsewhere) add(at, countyTarget(c));
  // a county whose name is two words joined by a hyphen, written alone ("Miami-Dade", "Miami Dade")
  for (const m of q.matchAll(/\b(?=([A-Z][a-z]+[- ][A-Z][a-z]+)\b)/g)) {
    const key = bareCountyKey(m[1]!.toLowerCase(), gaz);
    const c = key ? gaz.countiesByName.get(key)!.find((x) => states.includes(x.state)) ?? (states.length ? undefined : gaz.countiesByName.get(key)![0]) : undefined;
    if (c) add(m.index, { state: c.state, area: { name: c.name, county_fips: c.fips }, from: 'query' });
  }
  return found.sort((a, b) => a.at - b.at).map((x) => x.t);
}

type CountyRow = NonNullable<ReturnType<NonNullable<Gazetteer['countiesByName']>['get']>>[number];

/** A county as a place: a New York City borough's county ("Kings County") is the borough, whose market is kept on its own. */
function countyTarget(c: CountyRow): Target {
  const borough = BOROUGHS.find(([, a]) => a.county_fips === c.fips)?.[1];
  return borough ? { state: 'NY', city: 'New York', area: borough, from: 'query' } : { state: c.state, area: { name: c.name, county_fips: c.fips }, from: 'query' };
}

/** The counties a question names, read into its places (in place): for a per-zip market topic (`perZip`), or a question
 *  naming no other place, every county named in place of the states read (findCounties); boroughs named beside a
 *  borough's county ("Kings County vs Queens County") gain that borough (before, Brooklyn was dropped). */
export function readCounties(q: string, gaz: Gazetteer, targets: Target[], perZip: boolean): void {
  if (perZip && targets.every((t) => !t.city && !t.zip)) {
    const counties = findCounties(q, gaz, targets.map((t) => t.state));
    if (counties.length) targets.splice(0, targets.length, ...counties);
  } else if (targets.length && targets.every((t) => t.area && t.city === 'New York' && !t.zip)) {
    for (const c of findCounties(q, gaz, ['NY'])) if (!targets.some((t) => t.area!.county_fips === c.area!.county_fips)) targets.push(c);
  }
}

/** The county key ("miami-dade county") of a name of two words joined by a hyphen or a space ("miami-dade", "miami
 *  dade") when a county bears it and no city does: the county, not the city of its first word (Miami, FL). */
export function bareCountyKey(phrase: string, gaz: Pick<Gazetteer, 'countiesByName' | 'citiesByName'>): string | null {
  const m = /^([a-z]+)[- ]([a-z]+)$/.exec(phrase);
  if (!m || gaz.citiesByName.has(`${m[1]}-${m[2]}`) || gaz.citiesByName.has(`${m[1]} ${m[2]}`)) return null;
  return gaz.countiesByName?.has(`${m[1]}-${m[2]} county`) ? `${m[1]}-${m[2]} county` : null;
}

/** A former Connecticut county named in a question ("median price in Fairfield County CT"), as its towns. */
export interface FormerCountyHit { start: number; end: number; state: string; towns: string[]; readAs: string; note: string | null }

/** The former Connecticut counties a question names with their County word (live/places/former-counties.ts), each read
 *  as its towns: where Connecticut is named (or is the context's state), or where no state is and the former county
 *  is more populous than every current county of its name ("Fairfield County" is Connecticut's, 916,829 people, before
 *  Ohio's; "Middlesex County" alone is Massachusetts'). `free`: whether a span is not yet taken by another place. */
export function formerCountiesIn(q: string, gaz: Gazetteer, namedStates: ReadonlySet<string>, free: (start: number, end: number) => boolean): FormerCountyHit[] {
  const out: FormerCountyHit[] = [];
  for (const [key, c] of gaz.formerCounties ?? []) {
    const [, name, state, towns, population] = c;
    const re = new RegExp(`\\b${name.replace(/ /g, '\\s+')}\\s+(?:county\\b|co\\.?(?![-'\\w]))`, 'gi');
    for (const m of q.matchAll(re)) {
      const end = m.index + m[0].length;
      if (!free(m.index, end)) continue;
      const rivals = gaz.countiesByName?.get(key) ?? [];
      if (namedStates.size ? !namedStates.has(state) : rivals.some((r) => r.population >= population)) continue;
      const chosen = !namedStates.size && rivals.length ? `; read as Connecticut's, the most populous county of that name, name the state for ${rivals.map((r) => `${r.name}, ${r.state}`).join(' or ')}` : '';
      const unplaced = gaz.unplacedTowns ?? [];
      out.push({
        start: m.index, end, state, towns,
        readAs: `"${m[0]}" as its ${towns.length} towns: ${formerCountyNote(c)}, so its figures are its towns' (those whose 2020 Census ZCTAs lie in it)${chosen}`,
        note: unplaced.length ? `${unplaced.length} Connecticut towns of the sales files have no ZCTA of their own name and so are in no former county here: ${unplaced.join(', ')}` : null,
      });
    }
  }
  return out;
}

/** The counties a question names with the word "county", a hyphenated name written with a space read too ("miami dade
 *  county" is Miami-Dade); none when it does not say "county". */
export function countiesAsked(q: string, gaz: Gazetteer, states: readonly string[]): Target[] {
  if (!/\bcounty\b/i.test(q)) return [];
  return [q, q.replace(/\b(\w+) (\w+)(?= county\b)/i, '$1-$2')].map((x) => findCounties(x, gaz, states)).find((c) => c.length) ?? [];
}
