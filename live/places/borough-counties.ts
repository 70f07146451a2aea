// New York City's boroughs by their counties' names (pure): "Kings County" is Brooklyn. Rules: warehouse/docs/places.md
// "Boroughs by their counties".
import { placeKey } from './names.ts';

/** New York City's five boroughs by their counties' names: each borough is a county of its own (New York County is
 *  Manhattan, Kings County Brooklyn, Queens County Queens, Bronx County the Bronx, Richmond County Staten Island; FIPS
 *  as the Census Gazetteer counts them). The resolver reads a county's name with its County word ("Kings County",
 *  "Kings Co.") as the borough, in New York only, as research reads it (live/research/county-place.ts); a bare "Kings"
 *  or "Richmond" is no borough (no Census place of New York bears either name; New York's town of Richmond is in
 *  Ontario County), and its 404 names the borough first (warehouse/docs/places.md "Boroughs by their counties"). */
export const BOROUGH_COUNTIES: readonly { county: string; fips: string; borough: string }[] = [
  { county: 'New York County', fips: '36061', borough: 'Manhattan' }, { county: 'Kings County', fips: '36047', borough: 'Brooklyn' },
  { county: 'Queens County', fips: '36081', borough: 'Queens' }, { county: 'Bronx County', fips: '36005', borough: 'Bronx' },
  { county: 'Richmond County', fips: '36085', borough: 'Staten Island' },
];
export const BOROUGH_COUNTY_STATE = 'NY';

/** The keys a borough's county answers to: its name with "County" or "Co" ("kings county", "kings co"). */
export const boroughCountyKeys = (county: string): string[] => [placeKey(county), placeKey(county.replace(/ County$/, ' Co'))];

/** The borough county whose bare name (no County word) a typed name is, in its state: "Kings", "Richmond"; else null. */
export function bareBoroughCounty(state: string, typed: string): { county: string; borough: string } | null {
  if (state !== BOROUGH_COUNTY_STATE) return null;
  const key = placeKey(typed);
  return BOROUGH_COUNTIES.find((b) => placeKey(b.county.replace(/ County$/, '')) === key) ?? null;
}
