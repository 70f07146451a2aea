// Stage "shards": each <family>.sql in this folder returns the family's key columns plus `body` (a JSON
// text already shaped like the spec response). Every row becomes one file at layout.shardPath(), with
// .gz and .br siblings when it is large enough to be worth compressing. Then the live endpoints' build
// steps (live/<domain>/build.ts) write their files under <build>/live/, and the bulk export is written last.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { StageContext } from '../../warehouse/context.ts';
import { StageError } from '../../warehouse/errors.ts';
import { listSteps, missingTables, stepSelected, type TsStep } from '../steps.ts';
import * as autocomplete from '../../live/autocomplete/build.ts';
import * as location from '../../live/location/build.ts';
import * as places from '../../live/places/build.ts';
import * as property from '../../live/property/build.ts';
import * as research from '../../live/research/build.ts';
import * as valuation from '../../live/valuation/build.ts';
import * as bulkExport from '../export/write.ts';
import { sqlRequires } from '../../warehouse/sql.ts';
import { FAMILIES, isFamily, shardPath } from '../../warehouse/layout.ts';

export const COMPRESS_MIN_BYTES = 1024;

/** The steps after the shard families, in order: each live endpoint's files, then the bulk export. */
const BUILD_STEPS: readonly { file: string; step: TsStep }[] = [
  { file: 'live/autocomplete/build.ts', step: autocomplete },
  { file: 'live/location/build.ts', step: location },
  { file: 'live/places/build.ts', step: places },
  { file: 'live/property/build.ts', step: property },
  { file: 'live/research/build.ts', step: research },
  { file: 'live/valuation/build.ts', step: valuation },
  { file: 'pipelines/export/write.ts', step: bulkExport },
];

export interface ShardStats {
  total: number;
  byFamily: Record<string, number>;
  bytes: number;
}

const madeDirs = new Set<string>();
function ensureDir(dir: string): void {
  if (madeDirs.has(dir)) return;
  fs.mkdirSync(dir, { recursive: true });
  madeDirs.add(dir);
}

/** Writes one shard (and compressed siblings) under root. Returns bytes written (uncompressed). */
export function writeShardFile(root: string, rel: string, body: string): number {
  const abs = path.join(root, rel);
  ensureDir(path.dirname(abs));
  const buf = Buffer.from(body, 'utf8');
  fs.writeFileSync(abs, buf);
  if (buf.length >= COMPRESS_MIN_BYTES) {
    fs.writeFileSync(abs + '.gz', zlib.gzipSync(buf, { level: 9 }));
    // Brotli quality 5: within a few per cent of quality 9 on small JSON at a seventh of the time (tens of thousands of shards).
    fs.writeFileSync(abs + '.br', zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  return buf.length;
}

export async function runShards(ctx: StageContext, dir = import.meta.dirname): Promise<ShardStats> {
  const stats: ShardStats = { total: 0, byFamily: {}, bytes: 0 };
  fs.mkdirSync(ctx.paths.shards, { recursive: true });
  const steps = [
    ...listSteps(dir).filter((f) => f.endsWith('.sql')).map((f) => ({ file: `pipelines/shards/${f}`, sql: path.join(dir, f) })),
    ...BUILD_STEPS,
  ].filter((s) => stepSelected(ctx, s.file));
  for (const [i, s] of steps.entries()) {
    ctx.log.progress(`shards: ${path.basename(s.file)}`, i, steps.length, 'steps');
    const started = performance.now();
    try {
      if ('step' in s) {
        const missing = await missingTables(ctx, s.step.requires ?? []);
        if (missing.length) { ctx.log.warn(`shards: skipped ${s.file}`, { missing: missing.join(',') }); continue; }
        await s.step.run(ctx);
        ctx.log.info(`shards: ${s.file}`, { seconds: Number(((performance.now() - started) / 1000).toFixed(2)) });
      } else {
        await writeFamily(ctx, s.sql, stats);
        const name = path.basename(s.sql, '.sql');
        if (stats.byFamily[name] !== undefined) {
          ctx.log.info(`shards: ${name}`, { shards: stats.byFamily[name], seconds: Number(((performance.now() - started) / 1000).toFixed(2)) });
        }
      }
    } catch (err) {
      throw new StageError('shards', s.file, err);
    }
  }
  ctx.log.progress('shards', steps.length, steps.length, 'steps');
  return stats;
}

/** One shard family: every row of <family>.sql becomes the file at its shardPath(). */
async function writeFamily(ctx: StageContext, sqlFile: string, stats: ShardStats): Promise<void> {
  const file = path.basename(sqlFile);
  const name = path.basename(sqlFile, '.sql');
  if (!isFamily(name)) throw new Error(`${file}: no shard family "${name}" in warehouse/layout.ts`);
  const sql = fs.readFileSync(sqlFile, 'utf8');
  const missing = await missingTables(ctx, sqlRequires(sql));
  if (missing.length) { ctx.log.warn(`shards: skipped ${file}`, { missing: missing.join(',') }); return; }
  const keys = FAMILIES[name].keys;
  const result = await ctx.db.stream(sql);
  let count = 0;
  const columns = result.columnNames();
  for (const k of [...keys, 'body']) if (!columns.includes(k)) throw new Error(`${file} must return column ${k}`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const row of chunk.getRowObjects(columns)) {
      const k: Record<string, string | null> = {};
      for (const key of keys) k[key] = row[key] == null ? null : String(row[key]);
      const p = shardPath(name, k);
      if (!p.ok) throw new Error(`${file}: ${p.reason}`);
      const body = row['body'];
      if (typeof body !== 'string') throw new Error(`${file}: body is not text for ${p.path}`);
      stats.bytes += writeShardFile(ctx.paths.shards, p.path, body);
      count++;
    }
    ctx.log.progress(`shards: ${name}`, count, 0, 'shards'); // the total is not known while streaming
  }
  stats.byFamily[name] = count;
  stats.total += count;
}

/** Re-reads every written shard and parses it: a malformed file fails the build before publication. */
export function verifyShards(root: string): { files: number; errors: string[] } {
  const errors: string[] = [];
  let files = 0;
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.name.endsWith('.json')) {
        files++;
        try {
          const v: unknown = JSON.parse(fs.readFileSync(abs, 'utf8'));
          if (v === null || typeof v !== 'object') errors.push(`${path.relative(root, abs)}: not a JSON object or array`);
        } catch (err) {
          errors.push(`${path.relative(root, abs)}: ${(err as Error).message}`);
        }
      }
    }
  };
  if (fs.existsSync(root)) walk(root);
  return { files, errors };
}
