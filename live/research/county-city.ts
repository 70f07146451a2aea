// A county that is one place with its city (the City and County of Denver, of Philadelphia, of San Francisco): the
// Census counts the same people in both, so a sales figure asked of the county is the city's, answered as the city's
// and said. Before (review 20), "Denver County median price" had no figure: Denver's sales carry no zip code, so no zip
// of the county had one, and "Denver County sales count" was "not summed for Denver County". Rules:
// warehouse/docs/research.md "Counties".
import type { City, ResearchData } from './data.ts';
import type { Target } from './places.ts';

/** The city a county target is one place with (its name, its state, its county, the same population), when the build
 *  has sales of it; null for any other target. */
export function countyCity(data: ResearchData, t: Target): City | null {
  if (!t.area || t.city || t.zip || t.hood) return null;
  const county = data.countiesByName.get(t.area.name.toLowerCase())?.find((c) => c.fips === t.area!.county_fips);
  const city = county ? data.cityInState(county.name.replace(/ County$/, ''), t.state) : null;
  return county && city && city.county_fips === county.fips && city.population === county.population && data.hasSales(t.state, city.name) ? city : null;
}

/** How the county is read: as its city, and why. */
export function countyCityReading(t: Target, city: City): string {
  return `"${t.area!.name}" as ${city.name}, ${t.state}: the county and the city are one place (the Census counts the same ${city.population.toLocaleString('en-US')} people in each), so the city's figures are the county's`;
}
