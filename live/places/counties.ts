// A county typed where a city goes ("King County", "Cook County, IL", "Orleans Parish"): the routes that take a city
// answer cities, so such a name is a 422 that says it is a county and what to send instead, its largest cities, a zip
// of it, its FIPS for the regulations lookup (review h68: city=King County&state=WA was a 404 "No city named King
// County in WA" with no hint). The counties are the build's `counties` table (Census 2025 county-equivalents), with the
// cities of `cities` whose primary county each is and the zips of `zips` whose county each is; written into
// places.json by build.ts (the query: countyRows), read here by the server (no DuckDB). A name the place table knows
// as a city stays that city (the resolver answers first: "Kings County" is Brooklyn); Connecticut's former counties
// have their own answer (former-counties.ts).
import type { FieldError } from '../../warehouse/live.ts';
import { placeKey } from './names.ts';

/** One county: FIPS, state, name as the Census writes it ("King County", "Orleans Parish"), its largest cities (by
 *  population, at most CITIES_LISTED), its zip count and its most populous zips (at most ZIPS_LISTED). */
export type CountyRow = [fips: string, state: string, name: string, cities: string[], zipCount: number, zips: string[]];

export const CITIES_LISTED = 5;
export const ZIPS_LISTED = 3;

/** The rows of places.json `counties`, from the build's warehouse (build.ts runs it). */
export const COUNTY_ROWS_SQL = `
  with ranked_cities as (
    select county_fips, city_name, row_number() over (partition by county_fips order by population desc nulls last, city_name) as n
    from cities where county_fips is not null),
  ranked_zips as (
    select county_fips, zip, count(*) over (partition by county_fips) as zip_count,
      row_number() over (partition by county_fips order by population desc nulls last, zip) as n
    from zips where county_fips is not null)
  select c.county_fips as fips, c.state_code as state, c.county_name as name,
    coalesce((select list(city_name order by n) from ranked_cities r where r.county_fips = c.county_fips and r.n <= ${CITIES_LISTED}), []) as cities,
    coalesce((select any_value(zip_count) from ranked_zips z where z.county_fips = c.county_fips), 0) as zip_count,
    coalesce((select list(zip order by n) from ranked_zips z where z.county_fips = c.county_fips and z.n <= ${ZIPS_LISTED}), []) as zips
  from counties c where c.county_name is not null order by c.county_fips`;

/** The words that end a county's name and what people shorten them to: "King County" is also "King Co." and "King Co". */
const COUNTY_WORD = /\s+(?:county|co|parish|borough|census area|city and borough|municipality)$/;

/** The keys a county answers to: its name as written ("king county", "orleans parish") and, for a name ending in
 *  County, with "Co" ("king co"). */
export function countyKeys(name: string): string[] {
  const k = placeKey(name);
  return / county$/.test(k) ? [k, k.replace(/ county$/, ' co')] : [k];
}

/** The county of a state a typed name means when it carries its county word ("King County", "king co.", "Orleans
 *  Parish"), else null: a bare "King" or "Cook" is no county here (it may be a city). */
export function findCounty(counties: readonly CountyRow[], state: string, typed: string): CountyRow | null {
  const key = placeKey(typed);
  if (!COUNTY_WORD.test(key)) return null;
  return counties.find((c) => c[1] === state && countyKeys(c[2]).includes(key)) ?? null;
}

/** The counties of every state a typed name with its county word means ("King County": King County, WA and King
 *  County, TX), the one with the most zips first; none for a name without its county word. */
export function countiesAnywhere(counties: readonly CountyRow[], typed: string): CountyRow[] {
  const key = placeKey(typed);
  if (!COUNTY_WORD.test(key)) return [];
  return counties.filter((c) => countyKeys(c[2]).includes(key)).sort((a, b) => b[4] - a[4] || a[1].localeCompare(b[1]));
}

const and = (xs: readonly string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]!}`);

/** At most this many counties are named in the 400 of a county sent as a city without its state. */
const COUNTIES_NAMED = 5;

/** The message of `state is required` for a county sent as a city without its state (`city=King County`): the counties
 *  of that name and what to send instead, a city of the first with its state or its county_fips. */
export function countyWithoutState(found: readonly CountyRow[], typed: string): string {
  const named = found.slice(0, COUNTIES_NAMED);
  const which = named.map(([fips, state, name, cities]) => `${name}, ${state} (${cities.length ? `largest city ${cities[0]!}; ` : ''}county_fips=${fips})`);
  const listed = found.length > named.length ? `${which.join(', ')} and ${found.length - named.length} more` : and(which);
  const [fips, state, , cities] = found[0]!;
  const city = cities.length ? `one of its cities with its state, e.g. city=${cities[0]!}&state=${state}, or ` : '';
  return `state is required: "${typed}" is a county, not a city: ${listed}; this parameter takes a city: send ${city}state=${state} and county_fips=${fips} on /v1/regulations/lookup`;
}

/** The 422 of a county sent as a city: what it is and what to send instead. */
export function countyAsCity(c: CountyRow, typed: string): { message: string; errors: FieldError[] } {
  const [fips, state, name, cities, zipCount, zips] = c;
  const instead: string[] = [];
  if (cities.length) instead.push(`one of its cities, the largest ${cities.length === 1 ? 'is' : 'are'} ${and(cities)} (city=${cities[0]!}&state=${state})`);
  if (zips.length) instead.push(`one of its ${zipCount} zip${zipCount === 1 ? '' : 's'} on the endpoints that take a zip (e.g. zip=${zips[0]!}${zips.length > 1 ? `; ${zips.slice(1).join(', ')}` : ''})`);
  instead.push(`county_fips=${fips} on /v1/regulations/lookup`);
  const message = `city "${typed}" is ${name}, ${state}, a county, not a city: this parameter takes a city; send ${instead.join(', or ')}`;
  return { message: `Validation failed: ${message}`, errors: [{ field: 'city', code: 'county', message }] };
}
