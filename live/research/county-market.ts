// A county asked a market figure the build keeps per city or zip only (a sales count, investor activity: "how many
// sales in king county in may 2015", "how many homes did investors buy in king county"): said plainly, with the
// county's cities the build has sales of, never "name one" as if no county was read, and never one zip's figure as the
// county's. Rules: warehouse/docs/research.md "Counties".
import type { ResearchData } from './data.ts';
import { areaName, missing, type Fact } from './facts.ts';
import type { Intent } from './intent.ts';
import type { Target } from './places.ts';

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
  const list = cities.length ? `; the cities of ${t.area!.name} with sales in this build: ${cities.slice(0, LISTED).join(', ')}${cities.length > LISTED ? ` and ${cities.length - LISTED} more` : ''}` : `; this build has no sales of a city of ${t.area?.name ?? place}`;
  return missing(intent, t, `${what} is kept per city or zip code, not summed for ${place} as a whole${list}${zips ? ` (${zips} zip codes)` : ''}; name one of them`);
}
