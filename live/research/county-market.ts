// A county asked a market figure the build keeps per city or zip only (a sales count, investor activity: "how many
// sales in king county in may 2015", "how many homes did investors buy in king county"): said plainly, with the
// county's cities the build has sales of, never "name one" as if no county was read, and never one zip's figure as the
// county's. Rules: warehouse/docs/research.md "Counties".
import type { ResearchData } from './data.ts';
import { areaName, missing, type Fact } from './facts.ts';
import type { Intent } from './intent.ts';
import type { Target } from './places.ts';
import { formerCountyNote } from '../places/former-counties.ts';
import { noSalesWhy } from './county-no-sales.ts';

/** How many of a county's cities an answer lists. */
const LISTED = 8;

/** The cities of a county (Census county of the city list) the build has sales of, most populous first. */
export function countySalesCities(data: ResearchData, t: Target): string[] {
  const fips = t.area?.county_fips;
  if (!fips) return [];
  const out: { name: string; population: number }[] = [];
  for (const list of data.citiesByName.values()) {
    for (const c of list) if (c.state === t.state && c.county_fips === fips && data.hasSales(c.state, c.name)) out.push(c);
  }
  return [...new Set(out.sort((a, b) => b.population - a.population || a.name.localeCompare(b.name)).map((c) => c.name))];
}

/** A county's figure kept per city or zip (`what`: "A sales count"): said so, with its cities that have sales. */
export function perCityFact(data: ResearchData, intent: Intent, t: Target, what: string): Fact {
  const place = areaName(t);
  const cities = countySalesCities(data, t);
  const zips = t.area ? data.zipsOfCounty(t.area.county_fips).length : 0;
  // no city of it has sales: why (no sales source covers it) and what the build holds there, never "name one of them"
  // of no city that would answer ("flip velocity jefferson county ky", h68ask; county-no-sales.ts)
  const why = cities.length || !t.area ? '' : noSalesWhy(data, t, data.zipsOfCounty(t.area.county_fips));
  if (why) return missing(intent, t, `We have no ${what === 'Investor activity' ? 'investor activity (investor share, flips and their hold or margin, all told from sales)' : what.replace(/^An? /, '').toLowerCase()} for ${place}${why}`);
  const list = cities.length ? `; the cities of ${t.area!.name} with sales in this build: ${cities.slice(0, LISTED).join(', ')}${cities.length > LISTED ? ` and ${cities.length - LISTED} more` : ''}` : `; this build has no sales of a city of ${t.area?.name ?? place}`;
  return missing(intent, t, `${what} is kept per city or zip code, not summed for ${place} as a whole${list}${zips ? ` (${zips} zip codes)` : ''}; name one of them`);
}

/** Connecticut's eight former counties: no government since 1960, and no Census area since 2022 (nine planning
 *  regions replaced them), so the build's county list has none of them. */
const CT_FORMER = ['fairfield', 'hartford', 'litchfield', 'middlesex', 'new haven', 'new london', 'tolland', 'windham'];

/** A market question naming a former Connecticut county ("median sale price in Fairfield County CT"): said plainly
 *  that the build keeps no such county and its figures are per town or zip, with how many Connecticut towns have
 *  sales; null for any other question. */
export function formerCountyAnswer(data: ResearchData, u: { query: string; intents: readonly Intent[]; targets: readonly Target[] }): string | null {
  const m = /\b(fairfield|hartford|litchfield|middlesex|new haven|new london|tolland|windham)\s+(?:county|co\b\.?)/i.exec(u.query);
  // read as its towns (county-place.ts formerCountiesIn: a build with the former counties): they answer
  if (!m || !CT_FORMER.includes(m[1]!.toLowerCase()) || u.targets.some((t) => t.state !== 'CT' || t.area || t.zip || t.city)) return null;
  if (!u.targets.length && !/\b(ct|conn\.?|connecticut)\b/i.test(u.query)) return null;
  if (!u.intents.some((i) => ['comps', 'trends', 'rehab', 'investor', 'location'].includes(i))) return null;
  const county = m[1]!.replace(/\b\w/g, (c) => c.toUpperCase());
  let towns = 0;
  for (const list of data.citiesByName.values()) for (const c of list) if (c.state === 'CT' && data.hasSales('CT', c.name)) towns++;
  return `I don't have figures for ${county} County, CT as a whole: Connecticut's counties have had no government since 1960 and are no Census areas since 2022 (nine planning regions replaced them), so this build keeps market figures per town or zip code there (${towns} Connecticut towns have sales); name a town of ${county} County or a zip code.`;
}

/** The topics a former county's towns answer one by one (the per-zip and per-city market topics). */
const TOWN_TOPICS: readonly Intent[] = ['comps', 'trends', 'rehab', 'investor', 'location'];

/** A former Connecticut county read as its towns (county-place.ts formerCountiesIn) in a question of no market topic
 *  ("eviction notice in Fairfield County CT"): the state's rules answer once, not once per town; the reading says the
 *  county is a former one and lists its towns. Changes `u` in place. */
export function formerCountyScope(data: ResearchData, u: { intents: readonly Intent[]; targets: Target[]; readAs: string[] }): void {
  if (u.intents.some((i) => TOWN_TOPICS.includes(i))) return;
  for (let i = u.readAs.length - 1; i >= 0; i--) {
    const m = /^"(.+?)" as its \d+ towns: /.exec(u.readAs[i]!);
    const c = m ? data.formerCounties.get(m[1]!.toLowerCase().replace(/\s+/g, ' ').replace(/ co\.?$/, ' county')) : undefined;
    if (!m || !c) continue;
    const [, , state, towns] = c;
    for (let k = u.targets.length - 1; k >= 0; k--) if (u.targets[k]!.state === state && towns.includes(u.targets[k]!.city ?? '')) u.targets.splice(k, 1);
    if (!u.targets.some((t) => t.state === state)) u.targets.push({ state, from: 'query' });
    u.readAs[i] = `"${m[1]}" as ${data.stateName(state)}: ${formerCountyNote(c)}; its ${towns.length} towns: ${towns.join(', ')}; ${data.stateName(state)}'s rules answer for them`;
  }
}

/** What a town topic is of, in a former county's "none of its towns has one". */
const TOWN_WHAT: Partial<Record<Intent, string>> = {
  comps: 'comparable sales', trends: 'sales', investor: 'investor activity', location: 'flood and Superfund data',
  rehab: 'rehab momentum scores',
};
/** Why none of a former county's towns has the figure, where it is not only a matter of sales. */
const TOWN_WHY: Partial<Record<Intent, string>> = {
  rehab: ` (a zip's score needs renovation permits (this build's permit sources cover Chicago and Nashville only) or, without them, a share of rehab resales among 5 or more arm's-length sales in the window of a zip whose records show resales, and no zip of these towns has either)`,
};

/** A former Connecticut county read as its towns (county-place.ts formerCountiesIn) and asked a town topic none of its
 *  towns has a figure of ("rehab momentum in Litchfield County CT"): one fact for the county, saying none of its towns
 *  has one and why, in place of the towns' own "no data" (before, the first town's alone answered: "We have no rehab
 *  momentum scores for any zip of Barkhamsted, CT"). Changes `facts` in place. */
export function formerCountyNone(data: ResearchData, u: { intents: readonly Intent[]; targets: readonly Target[]; readAs: readonly string[] }, facts: Fact[]): void {
  for (const read of u.readAs) {
    const m = /^"(.+?)" as its \d+ towns: /.exec(read);
    const c = m ? data.formerCounties.get(m[1]!.toLowerCase().replace(/\s+/g, ' ').replace(/ co\.?$/, ' county')) : undefined;
    if (!c) continue;
    const [, name, state, towns] = c;
    const own = u.targets.filter((t) => t.state === state && !t.zip && towns.includes(t.city ?? ''));
    if (own.length < 2) continue;
    for (const intent of u.intents.filter((i) => TOWN_TOPICS.includes(i))) {
      const of = facts.filter((f) => f.intent === intent && f.target !== null && own.includes(f.target));
      if (of.length === 0 || of.some((f) => f.source !== null || f.confidence !== 'low')) continue;
      const at = facts.indexOf(of[0]!);
      for (const f of of) facts.splice(facts.indexOf(f), 1);
      facts.splice(at, 0, missing(intent, { state, from: 'query' }, `We have no ${TOWN_WHAT[intent] ?? 'figure'} for ${name} County, ${state}: none of its ${own.length} towns has one${TOWN_WHY[intent] ?? ''}`));
    }
  }
}
