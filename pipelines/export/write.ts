// Bulk export files of every build (warehouse/docs/export.md): each dataset below is written from its mart or
// canonical table with DuckDB COPY as Parquet (zstd), CSV (header) and NDJSON under <build>/export/, and
// <build>/export/manifest.json lists every file with its rows, bytes and sha256. A dataset whose table is
// absent (its source or step did not run) is skipped with a warning. Named zz- so it runs after every shard.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';

export const EXPORT_SCHEMA_VERSION = 1;
export const EXPORT_FORMATS = ['parquet', 'csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportDataset {
  dataset: string;
  description: string;
  /** The table the dataset is read from: the first of these that exists; none -> skipped. */
  requires: readonly string[];
}

/** The datasets, in manifest order. Table alternatives cover the market marts' names as they land. */
export const EXPORT_DATASETS: readonly ExportDataset[] = [
  { dataset: 'comps', description: 'Comparable-sales aggregates per zip, property type and lookback window', requires: ['mart_comps', 'mart_market_comps', 'mart_comps_by_zip'] },
  { dataset: 'rehab', description: 'Rehab momentum score and label per zip and lookback window', requires: ['mart_rehab', 'mart_market_rehab', 'mart_rehab_score', 'mart_rehab_score_by_zip'] },
  { dataset: 'investor', description: 'Investor activity per city and lookback window', requires: ['mart_investor', 'mart_market_investor', 'mart_investor_overview', 'mart_investor_overview_by_city'] },
  { dataset: 'location_risk', description: 'Flood zone, Superfund proximity and environmental risk per zip', requires: ['mart_location_risk'] },
  { dataset: 'regulations', description: 'Every regulation record (active, pending and expired) with citations', requires: ['regulations'] },
  { dataset: 'cities', description: 'Cities: FIPS, county, metro area, tier, zip codes', requires: ['mart_geo_cities', 'cities'] },
  { dataset: 'states', description: 'The 50 states and DC', requires: ['mart_geo_states', 'states'] },
];

export const EXPORT_DATASET_NAMES = EXPORT_DATASETS.map((d) => d.dataset);

export interface ExportFile {
  dataset: string;
  format: ExportFormat;
  file: string; // relative to <build>/export/
  rows: number;
  bytes: number;
  sha256: string;
}

export interface ExportManifest {
  schema_version: number;
  build_id: string;
  as_of: string;
  generated_at: string;
  datasets: { dataset: string; description: string; source_table: string; rows: number; columns: { name: string; type: string }[] }[];
  skipped: { dataset: string; reason: string }[];
  files: ExportFile[];
}

export const EXTENSION: Record<ExportFormat, string> = { parquet: 'parquet', csv: 'csv', ndjson: 'ndjson' };

const SCALAR = /^(VARCHAR|BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DATE|TIMESTAMP.*|TIME|DECIMAL.*|UUID)$/;
const NESTED = /(\[\]$|^STRUCT|^MAP|^UNION|^JSON$)/;

const ident = (s: string): string => `"${s.replaceAll('"', '""')}"`;
const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// Plain SQL through the build connection (no warehouse/db.ts import: the API imports this module's constants).
async function rows<T>(ctx: StageContext, sql: string, params?: Record<string, string>): Promise<T[]> {
  return (await ctx.db.runAndReadAll(sql, params)).getRowObjectsJson() as T[];
}

async function tableExists(ctx: StageContext, name: string): Promise<boolean> {
  const r = await rows<{ n: number }>(ctx, `select count(*)::int as n from (select table_name as name from duckdb_tables() where schema_name = 'main' union all select view_name from duckdb_views() where schema_name = 'main') where name = $name`, { name });
  return (r[0]?.n ?? 0) > 0;
}

export async function run(ctx: StageContext): Promise<void> {
  const dir = path.join(ctx.paths.build, 'export');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const manifest: ExportManifest = {
    schema_version: EXPORT_SCHEMA_VERSION, build_id: ctx.buildId, as_of: ctx.builtAt.toISOString().slice(0, 10),
    generated_at: new Date().toISOString(), datasets: [], skipped: [], files: [],
  };
  for (const ds of EXPORT_DATASETS) {
    let table: string | null = null;
    for (const t of ds.requires) if (await tableExists(ctx, t)) { table = t; break; }
    if (!table) {
      ctx.log.warn(`shards: export ${ds.dataset} skipped`, { missing: ds.requires.join('|') });
      manifest.skipped.push({ dataset: ds.dataset, reason: `none of ${ds.requires.join(', ')} exists in this build` });
      continue;
    }
    const columns = (await rows<{ name: string; type: string }>(ctx, `select column_name as name, column_type as type from (describe ${ident(table)})`))
      .filter((c) => !c.name.startsWith('_'));
    const order = columns.filter((c) => SCALAR.test(c.type)).map((c) => ident(c.name));
    const select = (csv: boolean): string => `select ${columns.map((c) => (csv && NESTED.test(c.type) ? `to_json(${ident(c.name)})::varchar as ${ident(c.name)}` : ident(c.name))).join(', ')} from ${ident(table)}${order.length ? ` order by ${order.join(', ')}` : ''}`;
    const n = (await rows<{ n: number }>(ctx, `select count(*)::double as n from ${ident(table)}`))[0]?.n ?? 0;
    const kv = `kv_metadata {build_id: ${lit(ctx.buildId)}, dataset: ${lit(ds.dataset)}, schema_version: '${EXPORT_SCHEMA_VERSION}'}`;
    const targets: Record<ExportFormat, string> = {
      parquet: `(format parquet, compression zstd, ${kv})`,
      csv: `(format csv, header true)`,
      ndjson: `(format json)`,
    };
    for (const format of EXPORT_FORMATS) {
      const file = `${ds.dataset}.${EXTENSION[format]}`;
      const abs = path.join(dir, file);
      await ctx.db.run(`copy (${select(format === 'csv')}) to ${lit(abs)} ${targets[format]}`);
      manifest.files.push({ dataset: ds.dataset, format, file, rows: n, bytes: fs.statSync(abs).size, sha256: await sha256File(abs) });
    }
    manifest.datasets.push({ dataset: ds.dataset, description: ds.description, source_table: table, rows: n, columns });
    ctx.log.info(`shards: export ${ds.dataset}`, { table, rows: n });
  }
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
}
