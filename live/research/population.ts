// A place's population asked ("population of austin tx", "population of king county wa": before, no topic read, "I
// don't have data"): the Census ACS 2019-2023 5-year total population (B01003) the build keeps for its city list and
// counties (pipelines: stg_acs_population__places, counties), said with its source; a zip's is not answered here.
import type { ResearchData } from './data.ts';
import { countiesAsked } from './county-place.ts';
import type { Target } from './place-words.ts';

const ASKED = /\bpopulation\b|\bhow many (?:people|residents|inhabitants) (?:live|are there|reside)\b|\bhow (?:big|populous) is\b/i;
export const POPULATION_SOURCE = 'US Census Bureau, American Community Survey 2019-2023 5-year estimates, total population (table B01003)';

/** The population answer of the cities and counties asked, or null when none is asked or kept. */
export function populationAnswer(data: ResearchData, query: string, targets: readonly Target[]): { answer: string; citation: string } | null {
  if (!ASKED.test(query)) return null;
  const states = targets.map((t) => t.state);
  const counties = countiesAsked(query, data, states);
  const said: string[] = [];
  for (const t of counties) {
    const c = data.countiesByName.get(t.area!.name.toLowerCase())?.find((x) => x.fips === t.area!.county_fips) ?? [...data.countiesByName.values()].flat().find((x) => x.fips === t.area!.county_fips);
    if (c && c.population > 0) said.push(`${c.name}, ${c.state}: ${c.population.toLocaleString('en-US')} people`);
  }
  if (!counties.length) {
    for (const t of targets) {
      if (!t.city || t.zip || t.area) continue;
      const c = data.citiesByName.get(t.city.toLowerCase())?.find((x) => x.state === t.state);
      if (c && c.population > 0) said.push(`${c.name}, ${c.state}: ${c.population.toLocaleString('en-US')} people`);
    }
  }
  if (!said.length) return null;
  // a change asked ("population growth"): one estimate per place is kept, no series, said first
  const change = /\bpopulation (?:growth|change|trends?|increase|decline)\b|\b(?:growth|change|trend) (?:of|in) (?:the )?population\b/i.test(query) ? 'This build keeps one population estimate per place, no population growth or change over time. ' : '';
  return { answer: `${change}Population (${POPULATION_SOURCE}): ${said.join('; ')}. It is the survey's estimate over 2019-2023, not a count of this year.`, citation: POPULATION_SOURCE };
}
