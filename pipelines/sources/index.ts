// Stage "sources": fingerprint every present source file (sha256, bytes) and load CSVs into raw.* tables,
// all columns as VARCHAR so nothing is lost before staging casts. Parser rejects land in meta.rejects.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { sqlString } from '../../warehouse/sql.ts';
import { StageError } from '../errors.ts';
import { SOURCES, rawTable, type SourceDef, type SourceFile } from './registry.ts';

export interface SourceFileRecord {
  source: string;
  key: string;
  file: string; // path relative to the sources folder
  sha256: string;
  bytes: number;
  rows: number | null; // loaded rows (CSV) or features (GeoJSON)
}

export interface SourceStatus {
  id: string;
  folder: string;
  present: boolean;
  files: SourceFileRecord[];
  missingFiles: string[]; // globs that matched nothing in a present folder
}

function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
}

/** Files of one registry entry present in the sources folder, sorted by name. */
export function matchFiles(sourcesDir: string, source: SourceDef, file: SourceFile): string[] {
  const dir = path.join(sourcesDir, source.folder);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const re = globToRegExp(file.glob);
  return names.filter((n) => re.test(n) && !n.endsWith('.md') && !n.endsWith('.part') && !n.startsWith('.')).sort().map((n) => path.join(dir, n));
}

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Which sources are present, without loading anything (used by `reii sources list`). */
export function scanSources(sourcesDir: string): { source: SourceDef; present: boolean; files: Map<string, string[]> }[] {
  return SOURCES.map((source) => {
    const present = fs.existsSync(path.join(sourcesDir, source.folder));
    const files = new Map(source.files.map((f) => [f.key, present ? matchFiles(sourcesDir, source, f) : []]));
    return { source, present, files };
  });
}

const META_DDL = `
create schema if not exists raw;
create schema if not exists meta;
create table if not exists meta.source_files (source varchar, key varchar, file varchar, sha256 varchar, bytes bigint, rows bigint);
create table if not exists meta.rejects (stage varchar, source varchar, file varchar, line bigint, reason varchar, detail varchar);
`;

export async function createMetaTables(ctx: StageContext): Promise<void> {
  await ctx.db.run(META_DDL);
}

export async function runSources(ctx: StageContext): Promise<SourceStatus[]> {
  await createMetaTables(ctx);
  await ctx.db.run('delete from meta.source_files');
  const statuses: SourceStatus[] = [];
  const totalFiles = SOURCES.reduce((a, s) => a + s.files.reduce((b, f) => b + matchFiles(ctx.paths.sources, s, f).length, 0), 0);
  let doneFiles = 0;
  for (const source of SOURCES) {
    const dir = path.join(ctx.paths.sources, source.folder);
    const status: SourceStatus = { id: source.id, folder: source.folder, present: fs.existsSync(dir), files: [], missingFiles: [] };
    statuses.push(status);
    if (!status.present) {
      if (source.id !== 'canonical') ctx.log.warn(`source ${source.id} absent: skipped`, { folder: dir });
      continue;
    }
    for (const file of source.files) {
      const files = matchFiles(ctx.paths.sources, source, file);
      if (files.length === 0) {
        if (source.id !== 'canonical') {
          status.missingFiles.push(file.glob);
          ctx.log.warn(`source ${source.id}: no file matches ${file.glob}: skipped`);
        }
        continue;
      }
      ctx.log.progress(`sources: ${source.id}/${file.key}`, doneFiles, totalFiles, 'files');
      const rows = file.format === 'csv' ? await loadCsv(ctx, source, file, files) : null;
      for (const f of files) {
        const rel = path.relative(ctx.paths.sources, f);
        try {
          const stat = fs.statSync(f);
          const record: SourceFileRecord = {
            source: source.id, key: file.key, file: rel,
            sha256: await sha256File(f), bytes: stat.size,
            rows: file.format === 'csv' ? (rows?.get(f) ?? 0) : countFeatures(f),
          };
          status.files.push(record);
          await ctx.db.run(`insert into meta.source_files values ($source, $key, $file, $sha, $bytes, $rows)`,
            { source: record.source, key: record.key, file: record.file, sha: record.sha256, bytes: record.bytes, rows: record.rows });
        } catch (err) {
          throw new StageError('sources', rel, err);
        }
        ctx.log.progress(`sources: ${source.id}/${file.key}`, ++doneFiles, totalFiles, 'files');
      }
      ctx.log.info(`loaded ${source.id}/${file.key}`, { files: files.length, rows: [...(rows?.values() ?? [])].reduce((a, b) => a + b, 0) });
    }
  }
  return statuses;
}

function countFeatures(file: string): number | null {
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { features?: unknown[] };
    return Array.isArray(doc.features) ? doc.features.length : null;
  } catch {
    return null;
  }
}

async function loadCsv(ctx: StageContext, source: SourceDef, file: SourceFile, files: string[]): Promise<Map<string, number>> {
  const table = rawTable(source, file);
  const loading = `"load_${source.id}__${file.key}"`;
  const list = `[${files.map(sqlString).join(', ')}]`;
  const delim = file.delim ? `, delim = ${sqlString(file.delim)}` : '';
  const tag = `${source.id}__${file.key}`;
  const names = files.map((f) => path.relative(ctx.paths.sources, f)).join(', ');
  try {
    // A plain scan keeps the file order (insertion order is preserved), so rowid counts the loaded rows in
    // file order; a window over the scan would not (parallel reads reach it out of order).
    await ctx.db.run(`
      create or replace temp table ${loading} as
      select * exclude (filename), filename as _file
      from read_csv(${list}, all_varchar = true, header = true, filename = true,
                    store_rejects = true, rejects_scan = 'rejects_scan_${tag}', rejects_table = 'rejects_${tag}',
                    max_line_size = 4000000${delim})`);
  } catch (err) {
    throw new StageError('sources', path.relative(ctx.paths.sources, files[0]!), err);
  }
  try {
    if (file.requiredColumns) await checkColumns(ctx, loading, file, files);
    // One reject per bad line: DuckDB logs an error per missing column.
    await ctx.db.run(`
      insert into meta.rejects
      select 'sources', $source, s.file_path, e.line, 'csv_parse',
             arg_min(e.error_type || ': ' || e.error_message || ' | ' || left(coalesce(e.csv_line, ''), 200), e.column_idx)
      from rejects_${tag} e join rejects_scan_${tag} s using (scan_id, file_id)
      group by s.file_path, e.line`, { source: source.id });
    await numberRows(ctx, loading, table, `rejects_${tag}`, `rejects_scan_${tag}`);
    const counts = await queryRows<{ f: string; n: number }>(ctx.db, `select _file as f, count(*)::int as n from ${table} group by all`);
    return new Map(counts.map((c) => [c.f, c.n]));
  } catch (err) {
    if (err instanceof StageError) throw err;
    throw new StageError('sources', names, err);
  } finally {
    await ctx.db.run(`drop table if exists ${loading}; drop table if exists rejects_${tag}; drop table if exists rejects_scan_${tag};`);
  }
}

/**
 * Copies the loaded rows into the raw table with `_row`, so that `_row + 1` is the row's line in its file
 * (the header is line 1), lines the CSV parser rejected included: the n-th loaded row of a file is on line
 * n + 1 + (rejected lines before it). The i-th rejected line L of a file (in line order) has L - 1 - i
 * loaded rows before it, so an ASOF join on that count gives each row the number of rejected lines before
 * it: one sorted merge over the rows, no scan of the rejects per row, and no join at all when nothing was
 * rejected. Lines are counted as DuckDB counts them: a quoted value spanning lines is one line.
 */
async function numberRows(ctx: StageContext, loading: string, table: string, rejects: string, scans: string): Promise<void> {
  const [{ n }] = await queryRows<{ n: number }>(ctx.db, `select count(*)::int as n from ${rejects}`) as [{ n: number }];
  const numbered = `
    select l.*, l.rowid - f.first_rowid + 1 as _n
    from ${loading} l join (select _file, min(rowid) as first_rowid from ${loading} group by _file) f on l._file = f._file`;
  if (n === 0) {
    await ctx.db.run(`create or replace table ${table} as select * exclude (_n), _n as _row from (${numbered})`);
    return;
  }
  await ctx.db.run(`
    create or replace table ${table} as
    with lines as (
        select distinct s.file_path as file, e.line from ${rejects} e join ${scans} s using (scan_id, file_id)
    ),
    ranked as (
        select file, line - 1 - row_number() over (partition by file order by line) as rows_before,
               row_number() over (partition by file order by line) as rejected_before
        from lines
    ),
    steps as (
        -- consecutive rejected lines share rows_before: the last of them counts them all
        select file, rows_before, max(rejected_before) as rejected_before from ranked group by all
    )
    select t.* exclude (_n), t._n + coalesce(s.rejected_before, 0) as _row
    from (${numbered}) t asof left join steps s on t._file = s.file and t._n > s.rows_before`);
}

async function checkColumns(ctx: StageContext, table: string, file: SourceFile, files: string[]): Promise<void> {
  const cols = await queryRows<{ name: string }>(ctx.db, `select column_name as name from (describe ${table})`);
  const have = new Set(cols.map((c) => c.name.trim().toLowerCase()));
  const missing = (file.requiredColumns ?? []).filter((c) => !have.has(c));
  if (missing.length) {
    throw new StageError('sources', files.map((f) => path.relative(ctx.paths.sources, f)).join(', '),
      new Error(`missing required column(s) ${missing.join(', ')} (line 1 header); see README "Canonical format"`));
  }
}
