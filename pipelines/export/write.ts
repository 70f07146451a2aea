// Bulk export files of every build (warehouse/docs/export.md): each dataset below is written from its mart or
// canonical table with DuckDB COPY as Parquet (zstd), CSV (header) and NDJSON under <build>/export/, and
// <build>/export/manifest.json lists every file with its rows, bytes and sha256. A dataset whose table is
// absent (its source or step did not run) is skipped with a warning. The datasets and file types are the
// contract in warehouse/export.ts; this is the last step of the shards stage.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { EXPORT_DATASETS, EXPORT_FORMATS, EXPORT_SCHEMA_VERSION, EXTENSION, type ExportFormat, type ExportManifest } from '../../warehouse/export.ts';
import { sha256File } from '../hash.ts';

const SCALAR = /^(VARCHAR|BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DATE|TIMESTAMP.*|TIME|DECIMAL.*|UUID)$/;
const NESTED = /(\[\]$|^STRUCT|^MAP|^UNION|^JSON$)/;

const ident = (s: string): string => `"${s.replaceAll('"', '""')}"`;
const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

// Plain SQL through the build connection.
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
    // a published column (ds.publish: the minimum cohort rule, rounding) keeps its name and type
    const value = (c: { name: string; type: string }): string => {
      const expr = ds.publish?.[c.name];
      return expr ? `cast(${expr} as ${c.type})` : ident(c.name);
    };
    const inner = `select ${columns.map((c) => `${value(c)} as ${ident(c.name)}`).join(', ')} from ${ident(table)}`;
    const select = (csv: boolean): string => `select ${columns.map((c) => (csv && NESTED.test(c.type) ? `to_json(${ident(c.name)})::varchar as ${ident(c.name)}` : ident(c.name))).join(', ')} from (${inner})${order.length ? ` order by ${order.join(', ')}` : ''}`;
    const n = (await rows<{ n: number }>(ctx, `select count(*)::double as n from ${ident(table)}`))[0]?.n ?? 0;
    const kv = `kv_metadata {build_id: ${lit(ctx.buildId)}, dataset: ${lit(ds.dataset)}, schema_version: '${EXPORT_SCHEMA_VERSION}'}`;
    const targets: Record<ExportFormat, string> = {
      parquet: `(format parquet, compression zstd, ${kv})`,
      csv: `(format csv, header true)`,
      ndjson: `(format json)`,
    };
    for (const format of ds.formats ?? EXPORT_FORMATS) {
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
