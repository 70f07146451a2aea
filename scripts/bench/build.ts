// Build part: the full build over ../shared/data (per-stage seconds, peak RSS) next to a bare DuckDB
// read_csv of the same CSV files in the same run.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { BenchContext, BenchRow } from '../bench.ts';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { createLogger } from '../../warehouse/log.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';
import { matchFiles } from '../../pipelines/sources/index.ts';
import { sqlString } from '../../warehouse/sql.ts';

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const settings = loadSettings({ artifacts: ctx.artifacts, logFormat: 'json' });
  // Baseline: DuckDB alone reading every CSV the build reads.
  const files = SOURCES.flatMap((s) => s.files.filter((f) => f.format === 'csv').map((f) => ({ f, paths: matchFiles(settings.sources, s, f) })));
  const inst = await DuckDBInstance.create(':memory:', { threads: String(settings.duckdbThreads) });
  const conn = await inst.connect();
  const t0 = performance.now();
  let rowsRead = 0;
  for (const { f, paths } of files) {
    if (!paths.length) continue;
    const delim = f.delim ? `, delim = ${sqlString(f.delim)}` : '';
    const r = await conn.runAndReadAll(`select count(*)::int as n from read_csv([${paths.map(sqlString).join(', ')}], all_varchar = true, header = true, ignore_errors = true, max_line_size = 4000000${delim})`);
    rowsRead += Number(r.getRowObjectsJson()[0]!['n']);
  }
  const bare = (performance.now() - t0) / 1000;
  conn.closeSync();
  inst.closeSync();

  fs.mkdirSync(ctx.artifacts, { recursive: true });
  const logFile = fs.createWriteStream(path.join(ctx.artifacts, 'bench-build.log'));
  const t1 = performance.now();
  const result = await runBuild({ settings, log: createLogger('json', logFile as unknown as NodeJS.WriteStream) });
  const total = (performance.now() - t1) / 1000;
  logFile.end();
  const rows: BenchRow[] = [
    { part: 'build', metric: 'bare DuckDB read_csv of the same files', value: bare, unit: 's', goal: `${rowsRead} rows` },
    { part: 'build', metric: 'full build', value: total, unit: 's', baseline: bare, ratio: total / bare, goal: '< 180 s', pass: total < 180 },
  ];
  for (const s of result.manifest.stages) rows.push({ part: 'build', metric: `stage ${s.name}`, value: s.seconds, unit: 's' });
  rows.push({ part: 'build', metric: 'peak RSS', value: result.manifest.peak_rss_mb, unit: 'MB' });
  rows.push({ part: 'build', metric: 'shards written', value: result.manifest.shards.total, unit: 'files' });
  rows.push({ part: 'build', metric: 'rejected rows', value: result.manifest.rejects.total, unit: 'rows' });
  return rows;
}
