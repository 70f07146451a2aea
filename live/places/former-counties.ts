// Connecticut's eight former counties (Fairfield County, Hartford County...) as their towns. The counties have had no
// government since 1960 and, since 2022, are no Census county-equivalents either: nine planning regions replaced them
// (the 2025 Gazetteer, us_geo's counties and the build's `counties` table have only the regions). Investors still say
// the old names, so research reads a former county as its towns and the geo lookup names them (warehouse/docs/places.md
// "Former counties"). What still keys Connecticut to the old counties: the 2020 Census ZCTA file (us_geo zctas: each
// ZCTA's primary county and county subdivision, whose GEOID starts with the old county's FIPS) and the HUD-USPS
// crosswalk (2023 Q1, zips to 09001-09015). A town's former county is that of its ZCTAs' county subdivision
// (int_market_town_zctas: the ZCTAs of each town of the sales files, all of one subdivision); a town no USPS city names
// (Griswold, whose post office is Jewett City) has no ZCTA there, and so no former county: it is listed as unplaced.
// The names: FEMA's National Risk Index county table, which keeps the eight counties (09001 Fairfield ...). Read from
// the warehouse by former-counties-build.ts (the build steps); this file is what the server needs (no DuckDB).

/** One former county: FIPS (2020), name without "County", state, its towns (as the sales files name them, sorted),
 *  its population (the NRI's, 2020 Census). */
export type FormerCounty = [fips: string, name: string, state: string, towns: string[], population: number];

export interface FormerCounties {
  counties: FormerCounty[];
  /** towns of the sales files with no ZCTA of their own name, so in no former county here */
  unplaced: string[];
}

/** A former county a name with its County word means ("Fairfield County", "fairfield co."), in a state; null for none
 *  (a bare "Tolland" is the town). */
export function findFormerCounty(counties: readonly FormerCounty[], state: string, typed: string): FormerCounty | null {
  const m = /^(.+?)\s+(?:county|co\.?)$/.exec(typed.trim().toLowerCase().replace(/\s+/g, ' '));
  return m ? counties.find(([, name, st]) => st === state && name.toLowerCase() === m[1]) ?? null : null;
}

/** What every answer about a former county says of it: "Fairfield County, CT is one of Connecticut's former counties
 *  (no government since 1960; nine planning regions replaced the eight counties in 2022)". */
export function formerCountyNote(c: FormerCounty): string {
  return `${c[1]} County, ${c[2]} is one of Connecticut's former counties (no county government since 1960; nine planning regions replaced the eight counties as Census county-equivalents in 2022)`;
}
