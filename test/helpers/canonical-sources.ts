// Hand-written canonical source files for the row-contract tests (test/pipelines/contracts-*.test.ts): the
// canonical sales header and a sale line with every field overridable, a sources folder of such files, the
// sources stage plus the canonical staging and format steps (the parcels' places step 39 included) run over it (a fresh in-memory DuckDB per call),
// and the rejects it recorded. The folders are removed by `removeTmpDirs` (test/helpers/tmp.ts). For the real builds of
// a canonical folder: the geography folders it needs beside it and the steps of its market until the property record.
import fs from 'node:fs';
import path from 'node:path';
import { makeContext, runSqlFile, type TestContext } from './context.ts';
import { PINNED_NOW } from './clock.ts';
import { SHARED_DATA } from './paths.ts';
import { tmp } from './tmp.ts';
import { runSources } from '../../pipelines/sources/index.ts';
import { silentLogger, type Logger } from '../../warehouse/log.ts';
import type { StageContext } from '../../warehouse/context.ts';

export const HEADER = 'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng,buyer_name,seller_name';
export const TODAY = PINNED_NOW.toISOString().slice(0, 10);

/** A sources folder with hand-written canonical files (text or bytes). */
export function canonicalSources(files: Record<string, string | Buffer>): string {
  const dir = tmp('reii-contracts-src-');
  fs.mkdirSync(path.join(dir, 'canonical'));
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'canonical', name), body);
  return dir;
}

/** The folders of ../shared/data a canonical folder needs beside it (the build's CANONICAL_GEOGRAPHY, README "Canonical format"). */
export const GEOGRAPHY = ['simplemaps-uscities', 'usgeo-census-tables', 'census-gazetteer-2025', 'census-cbsa-delineation-2023', 'census-acs2023-population',
  'geonames-us-postal-codes', 'hud-usps-zip-county-crosswalk', 'usps-zip-locale-detail', 'us-zip-reference'];

/** The market steps, the geography they read, the address facts and the property record (a build's `stepFilter`). */
export const PROPERTY_STEPS = ['market', 'canonical', 'geo', 'simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk',
  'usps_locale', 'zip_reference', 'unit_sqft', 'property'];

/** Links the GEOGRAPHY folders of ../shared/data into a sources folder. */
export function linkGeography(sources: string): void {
  for (const g of GEOGRAPHY) fs.symlinkSync(path.join(SHARED_DATA, g), path.join(sources, g));
}

export interface Loaded { ctx: TestContext; warnings: string[] }

/** The sources stage over a folder, then the canonical staging and format steps of the files present. */
export async function load(sources: string): Promise<Loaded> {
  const warnings: string[] = [];
  const base = await makeContext({ sources, now: PINNED_NOW });
  const ctx: TestContext = { ...base, log: { ...silentLogger, warn: (m: string) => { warnings.push(m); } } as Logger };
  await runSources(ctx);
  await runSqlFile(ctx, 'pipelines/intermediate/30_market_00_canonical_tables.sql');
  const present = async (entity: string): Promise<boolean> =>
    (await ctx.rows(`select 1 from duckdb_tables() where schema_name = 'raw' and table_name = 'canonical__${entity}'`)).length > 0;
  for (const entity of ['sales', 'parcels', 'permits', 'distress']) if (await present(entity)) await runSqlFile(ctx, `pipelines/staging/stg_canonical__${entity}.sql`);
  // the parcels' places first: a sales.csv row keyed by parcel takes its place from them (step 39, before 40)
  if (await present('parcels')) await runSqlFile(ctx, 'pipelines/intermediate/30_market_39_canonical_parcel_places.sql');
  for (const [n, entity] of [['40', 'sales'], ['41', 'parcels'], ['42', 'permits'], ['43', 'distress']] as const) {
    if (await present(entity)) await runSqlFile(ctx, `pipelines/intermediate/30_market_${n}_canonical_${entity}.sql`);
  }
  return { ctx, warnings };
}

export async function rejectsOf(ctx: StageContext, where = `source = 'canonical'`): Promise<{ stage: string; line: number; rule: string; column: string | null; value: string | null }[]> {
  const rows = await ctx.db.runAndReadAll(`select stage, line::int as line, rule, column_name as "column", value from meta.rejects where ${where} order by line, rule`);
  return rows.getRowObjectsJson() as never;
}

export const sale = (o: Partial<Record<'address' | 'city' | 'state' | 'zip' | 'sale_date' | 'sale_price' | 'property_type' | 'beds' | 'baths' | 'sqft' | 'year_built' | 'condition' | 'lat' | 'lng' | 'buyer_name' | 'seller_name', string>> = {}): string => {
  const v = { address: '1 MAIN ST', city: 'SEATTLE', state: 'WA', zip: '98101', sale_date: '2024-01-05', sale_price: '500000', property_type: 'sfr',
    beds: '3', baths: '2', sqft: '1500', year_built: '1990', condition: 'good', lat: '47.6', lng: '-122.3', buyer_name: '"SMITH, JOHN"', seller_name: '"DOE, JANE"', ...o };
  return [v.address, v.city, v.state, v.zip, v.sale_date, v.sale_price, v.property_type, v.beds, v.baths, v.sqft, v.year_built, v.condition, v.lat, v.lng, v.buyer_name, v.seller_name].join(',');
};
