// Helpers for the market-domain tests: raw.* input tables from plain rows, and running the domain's step files.
import type { TestContext } from './context.ts';
import { runSqlFile } from './context.ts';

const lit = (v: string | number | null | undefined): string =>
  v == null ? 'null' : `'${String(v).replaceAll("'", "''")}'`;

/** Creates raw."<name>" like the sources stage does: every column VARCHAR, plus _file and _row (1-based). */
export async function rawTable(ctx: TestContext, name: string, rows: Record<string, string | number | null>[], file = `/data/${name}.csv`): Promise<void> {
  const cols = Object.keys(rows[0] ?? {});
  const defs = cols.map((c) => `"${c}" varchar`).join(', ');
  await ctx.db.run(`create or replace table raw."${name}" (${defs}${defs ? ', ' : ''}_file varchar, _row bigint)`);
  if (!rows.length) return;
  const values = rows.map((r, i) => `(${cols.map((c) => lit(r[c])).join(', ')}${cols.length ? ', ' : ''}${lit(file)}, ${i + 1})`).join(',\n');
  await ctx.db.run(`insert into raw."${name}" values ${values}`);
}

/** The market domain's first step: macros and the empty canonical tables. */
export async function marketTables(ctx: TestContext): Promise<void> {
  await runSqlFile(ctx, 'pipelines/intermediate/30_market_00_canonical_tables.sql');
  // the HUD-USPS ZIP-county crosswalk and the Census ZCTA and place tables 30_market_98_permit_area.sql reads: no rows,
  // so no zip's permit area is known (placeZctaTables below fills ZCTAs and places where a test needs them)
  await ctx.db.run(`create table if not exists stg_hud_crosswalk__zip_county (zip varchar, county_fips varchar, res_ratio double, tot_ratio double)`);
  await ctx.db.run('create table if not exists stg_usgeo__zctas (zcta varchar, primary_county_subdivision varchar, land_area_sqmi double)');
  await ctx.db.run('create table if not exists stg_usgeo__zcta_places (zcta varchar, place_geoid varchar, land_area_sqmi double)');
  await ctx.db.run('create table if not exists stg_usgeo__places (place_geoid varchar, housing_units bigint, land_area_sqmi double)');
  // the county names an inferred permit area is named by (a canonical permits.csv: no crosswalk row here, so none)
  await ctx.db.run('create table if not exists counties (county_fips varchar, county_name varchar, state_code varchar)');
}

export async function run(ctx: TestContext, ...files: string[]): Promise<void> {
  for (const f of files) await runSqlFile(ctx, f);
}

export async function rejects(ctx: TestContext, source?: string): Promise<{ source: string; file: string; line: number; reason: string; detail: string }[]> {
  return ctx.rows(`select source, file, cast(line as integer) as line, reason, detail from meta.rejects
                   ${source ? 'where source = $source' : ''} order by source, line`, source ? { source } : undefined);
}

/** A small `zips` table as the geo domain builds it (for steps that declare `-- requires: zips`). */
/** An incorporated place (funcstat A unless given) and the ZCTAs it overlaps: int_geo_places and us_geo zcta_places rows,
 *  and its `cities` row. `land`: the place's land in a ZCTA (square miles, 1 unless given); `zipCodes`: the zips its
 *  geo lookup lists (`cities.zip_codes`; its ZCTAs unless given). */
export interface PlaceZctas { geoid: string; state_code: string; name: string; funcstat?: string; zctas: string[]; land?: Record<string, number>; zipCodes?: string[]; population?: number }

/** The tables of places, their ZCTAs and their cities the zip guess and the city fill (30_market_80_fill_geo.sql)
 *  read; empty by default. `towns`: a ZCTA's primary county subdivision (us_geo zctas), which names a Connecticut
 *  row's town by the USPS city of its ZCTAs. */
export async function placeZctaTables(ctx: TestContext, places: PlaceZctas[] = [], towns: Record<string, string> = {}): Promise<void> {
  await ctx.db.run('create or replace table stg_usgeo__zctas (zcta varchar, primary_county_subdivision varchar, land_area_sqmi double)');
  for (const [zcta, town] of Object.entries(towns)) await ctx.db.run('insert into stg_usgeo__zctas values ($z, $t, null)', { z: zcta, t: town });
  await ctx.db.run('create or replace table int_geo_places (place_geoid varchar, state_code varchar, plain_name varchar, funcstat varchar)');
  await ctx.db.run('create or replace table stg_usgeo__zcta_places (zcta varchar, place_geoid varchar, land_area_sqmi double)');
  await ctx.db.run(`create or replace table cities (city_id varchar, city_name varchar, city_slug varchar, state_code varchar, place_geoid varchar,
    population bigint, zip_codes varchar[])`);
  for (const p of places) {
    await ctx.db.run('insert into int_geo_places values ($g, $st, $name, $f)', { g: p.geoid, st: p.state_code, name: p.name, f: p.funcstat ?? 'A' });
    for (const z of p.zctas) await ctx.db.run('insert into stg_usgeo__zcta_places values ($z, $g, $land)', { z, g: p.geoid, land: p.land?.[z] ?? 1.0 });
    await ctx.db.run(`insert into cities select $g, $name, slug($name), $st, $g, $pop, from_json($zips, '["varchar"]')`,
      { g: p.geoid, name: p.name, st: p.state_code, pop: p.population ?? null, zips: JSON.stringify(p.zipCodes ?? p.zctas) });
  }
}

/** The `zips` table, and the places and towns the zip guess reads (30_market_80_fill_geo.sql: a row of an incorporated
 *  place takes one of that place's ZCTAs, a Connecticut row one of its town's); no places: every row but a Connecticut
 *  one takes the nearest ZCTA of its state. */
export async function zipsTable(ctx: TestContext, rows: { zip: string; city: string; state_code: string; lat: number; lng: number; is_zcta?: boolean }[], places: PlaceZctas[] = [],
  towns: Record<string, string> = {}): Promise<void> {
  await placeZctaTables(ctx, places, towns);
  await ctx.db.run(`create or replace table zips (zip varchar, city varchar, state_code varchar, county_fips varchar, county_name varchar, lat double, lng double, population bigint,
    is_zcta boolean, centroid_source varchar)`);
  for (const z of rows) {
    // a ZCTA has the Gazetteer's internal point; a PO-box or unique zip GeoNames' point (geo.md `zips`)
    const zcta = z.is_zcta ?? true;
    await ctx.db.run(`insert into zips values ($zip, $city, $state, null, null, $lat, $lng, null, $zcta, $src)`,
      { zip: z.zip, city: z.city, state: z.state_code, lat: z.lat, lng: z.lng, zcta, src: zcta ? 'gazetteer_zcta' : 'geonames' });
  }
}
