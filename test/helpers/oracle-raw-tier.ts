// The market tier of a county read from the raw Census files (warehouse/docs/geo.md "Market tier rule"): the county's
// CBSA in the 2023 delineation list, the CBSA's population the sum of its counties' ACS 2023 5-year population
// (B01003_001E); primary from 1,000,000, secondary from 250,000, tertiary any smaller CBSA, rural in none. Written
// here again with plain DuckDB, not the build's macro.
import { dataFile, rawQuery } from './oracle-raw-comps.ts';

const CBSA = dataFile('census-cbsa-delineation-2023/list1_Jul_2023.csv');
const POP = dataFile('census-acs2023-population/acs5_2023_county_population.csv');

/** The tier of the county `fips` (5 digits), with its CBSA code and population (null outside every CBSA). */
export async function countyTier(fips: string): Promise<{ tier: string; cbsa: string | null; population: number | null }> {
  const [row] = await rawQuery<{ cbsa: string | null; population: number | null }>(`
    with d as (select "CBSA Code" as cbsa, lpad("FIPS State Code", 2, '0') || lpad("FIPS County Code", 3, '0') as fips
               from read_csv('${CBSA}', all_varchar = true)),
         p as (select lpad(geoid, 5, '0') as fips, try_cast("B01003_001E" as bigint) as pop from read_csv('${POP}', all_varchar = true))
    select (select cbsa from d where fips = '${fips}') as cbsa,
           (select sum(pop)::double from d join p using (fips) where d.cbsa = (select cbsa from d where fips = '${fips}')) as population`);
  const cbsa = row?.cbsa ?? null, population = row?.population ?? null;
  const tier = population !== null && population >= 1_000_000 ? 'primary' : population !== null && population >= 250_000 ? 'secondary' : cbsa !== null ? 'tertiary' : 'rural';
  return { tier, cbsa, population };
}
