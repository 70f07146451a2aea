// The place table of the resolver (live/places/resolver.ts), written under <build>/live/places/:
//   places.json  every city of the `cities` table with a lookup slug: canonical name (the name its shards carry),
//                state, population, and the keys it answers to, derived from its own name and its Census place name
//                (int_geo_places / the Gazetteer): live/places/names.ts aliasKeys(); and Connecticut's former counties
//                with their towns (live/places/former-counties.ts). Rules: warehouse/docs/places.md.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { aliasKeys, consolidatedHead, placeKey } from './names.ts';
import type { PlacesFile } from './resolver.ts';
import { formerCounties } from './former-counties-build.ts';
import { COUNTY_ROWS_SQL, type CountyRow } from './counties.ts';

export const requires = ['cities', 'counties', 'zips'];

export const PLACES_FORMAT = 1;

export async function run(ctx: StageContext): Promise<void> {
  const dir = path.join(ctx.paths.build, 'live', 'places');
  fs.mkdirSync(dir, { recursive: true });
  const withPlaces = await tableExists(ctx.db, 'int_geo_places');
  const rows = await queryRows<{ city_name: string; simplemaps_name: string | null; state_code: string; population: number | bigint | null; place_name: string | null }>(ctx.db, `
    select c.city_name, c.simplemaps_name, c.state_code, c.population, ${withPlaces ? 'p.place_name' : 'null as place_name'}
    from cities c
    ${withPlaces ? 'left join int_geo_places p on p.place_geoid = c.place_geoid' : ''}
    where regexp_matches(c.city_slug, '^[a-z0-9]+(-[a-z0-9]+)*$') and length(c.city_slug) <= 80
    order by c.state_code, c.city_slug`);
  // consolidated governments and their balances ("Louisville/Jefferson County metro government (balance)") name the
  // city of the same state their first part names, when the city was matched to another place or to none
  const consolidated = new Map<string, string[]>();
  if (withPlaces) {
    const places = await queryRows<{ state_code: string; place_name: string; lsad: string | null }>(ctx.db,
      `select state_code, place_name, lsad from int_geo_places where place_name ilike '%(balance)' or lsad in ('UC', '00')`);
    for (const p of places) {
      const head = consolidatedHead(p.place_name, p.lsad);
      if (!head) continue;
      const k = `${p.state_code}|${placeKey(head)}`;
      consolidated.set(k, [...(consolidated.get(k) ?? []), p.place_name]);
    }
  }
  const file: PlacesFile = {
    format: PLACES_FORMAT, build_id: ctx.buildId,
    cities: rows.map((r) => [r.city_name, r.state_code, Number(r.population ?? 0),
      aliasKeys(r.city_name, r.place_name, consolidated.get(`${r.state_code}|${placeKey(r.city_name)}`) ?? [], r.simplemaps_name)]),
    // Connecticut's former counties and their towns (former-counties.ts): the geo lookup of "Fairfield County" names them
    former_counties: (await formerCounties(ctx.db)).counties,
    // every county, for the 422 of a county sent as a city (counties.ts)
    counties: await tableExists(ctx.db, 'zips') && await tableExists(ctx.db, 'counties')
      ? (await queryRows<{ fips: string; state: string; name: string; cities: string[]; zip_count: number | bigint; zips: string[] }>(ctx.db, COUNTY_ROWS_SQL))
        .map((c): CountyRow => [c.fips, c.state, c.name, c.cities, Number(c.zip_count), c.zips])
      : [],
  };
  fs.writeFileSync(path.join(dir, 'places.json'), JSON.stringify(file));
  ctx.log.info('live/places', { cities: file.cities.length, aliases: file.cities.reduce((n, c) => n + c[3].length, 0) });
}
