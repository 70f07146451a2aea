// Connecticut's former counties and their towns from the warehouse (live/places/build.ts, live/research/build.ts): the
// rules are former-counties.ts's header.
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import type { FormerCounties } from './former-counties.ts';

const TABLES = ['int_market_town_zctas', 'stg_usgeo__zctas', 'stg_fema_nri__counties', 'sales'];

/** The former counties of the build (empty in a build without the tables). */
export async function formerCounties(db: DuckDBConnection): Promise<FormerCounties> {
  for (const t of TABLES) if (!(await tableExists(db, t))) return { counties: [], unplaced: [] };
  // a town's name as its sales name it (the most common spelling of its lower-case key)
  const names = `(select state_code, lower(city) as city_key, mode(city) as town from sales where state_code = 'CT' and city is not null group by all)`;
  const rows = await queryRows<{ f: string; n: string; s: string; towns: string[]; p: number }>(db, `
    with town_county as (
      select t.state_code, t.city_key, min(substr(z.primary_county_subdivision, 1, 5)) as f
      from int_market_town_zctas t join stg_usgeo__zctas z on z.zcta = t.zip
      where t.state_code = 'CT' and z.primary_county_subdivision is not null
      group by all having count(distinct substr(z.primary_county_subdivision, 1, 5)) = 1)
    select c.county_fips as f, c.county_name as n, tc.state_code as s, cast(coalesce(c.population, 0) as integer) as p,
           list(coalesce(nm.town, tc.city_key) order by coalesce(nm.town, tc.city_key)) as towns
    from town_county tc join stg_fema_nri__counties c on c.county_fips = tc.f
    left join ${names} nm on nm.state_code = tc.state_code and nm.city_key = tc.city_key
    group by all order by 1`);
  const unplaced = await queryRows<{ town: string }>(db, `
    select town from ${names} nm
    where not exists (select 1 from int_market_town_zctas t where t.state_code = nm.state_code and t.city_key = nm.city_key)
    order by 1`);
  return { counties: rows.map((r) => [r.f, r.n, r.s, r.towns, Number(r.p)]), unplaced: unplaced.map((r) => r.town) };
}
