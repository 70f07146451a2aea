// <build>/manifest.json from the build's warehouse: for a published, partial or checks_failed build (every stage
// ran), and for a failed one (a stage or gate stopped it: the manifest says which, with what the warehouse held by
// then), so `reii query --build <id>` and the report can show why a build was not published.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../warehouse/context.ts';
import { queryRows, tableExists } from '../warehouse/db.ts';
import { CliError, EXIT, StageError } from '../warehouse/errors.ts';
import { FORMAT_VERSION } from '../warehouse/layout.ts';
import { OPERATOR_VINTAGE, SOURCES } from './sources/registry.ts';
import { fileRejects, rejectCounts, relativeRejectFiles, type FileRejects, type RejectCount } from './sources/rejects.ts';
import type { StageOutcome } from './stages.ts';
import type { Manifest, ManifestFailure } from './manifest.ts';
import { writeReport } from './report.ts';

export async function buildManifest(ctx: StageContext, outcomes: StageOutcome[], only: string[] | null, peakRss: number, status: Manifest['status'], failure: ManifestFailure | null = null): Promise<Manifest> {
  // A build that failed in its sources stage may not have made meta.source_files yet.
  const hasFiles = await tableExists(ctx.db, 'meta.source_files');
  const files = hasFiles ? await queryRows<{ source: string; key: string; file: string; sha256: string; bytes: number; rows: number | null }>(ctx.db,
    `select source, key, file, sha256, bytes::double as bytes, rows::double as rows from meta.source_files order by source, key, file`) : [];
  let rejects: RejectCount[] = [];
  let rejectFiles: FileRejects[] = [];
  if (await tableExists(ctx.db, 'meta.rejects')) {
    await relativeRejectFiles(ctx.db);
    rejects = await rejectCounts(ctx.db);
    if (hasFiles) rejectFiles = await fileRejects(ctx.db);
  }
  const tables = await queryRows<{ name: string; rows: number }>(ctx.db,
    `select case when schema_name = 'main' then table_name else schema_name || '.' || table_name end as name, estimated_size::double as rows
     from duckdb_tables() where schema_name in ('main', 'raw', 'meta') order by 1`);
  // a source whose period only its files tell: the months they hold (30_mart_00_market_file_coverage.sql)
  const dataVintage = new Map((await tableExists(ctx.db, 'int_market_source_vintage')
    ? await queryRows<{ source: string; vintage: string }>(ctx.db, 'select source, vintage from int_market_source_vintage') : []).map((r) => [r.source, r.vintage]));
  const sources = SOURCES.map((s) => {
    const own = files.filter((f) => f.source === s.id);
    return {
      id: s.id, folder: s.folder, title: s.title, publisher: s.publisher, licence: s.licence,
      attribution: s.attribution ?? null, vintage: s.vintage === OPERATOR_VINTAGE ? dataVintage.get(s.id) ?? s.vintage : s.vintage, present: own.length > 0,
      files: own.map(({ file, sha256, bytes, rows }) => ({ file, sha256, bytes, rows })),
      rejected_rows: rejects.filter((r) => r.source === s.id).reduce((a, r) => a + r.rows, 0),
      caveat: s.caveat ?? null, caveat_files: s.caveatFiles ?? null,
    };
  });
  const shardStats = outcomes.find((o) => o.name === 'shards')?.shards;
  return {
    ...emptyManifest(ctx.buildId, ctx.builtAt, only, peakRss, status, failure),
    sources,
    stages: outcomes.map((o) => ({ name: o.name, seconds: Number(o.seconds.toFixed(3)), steps: o.steps?.map((s) => ({ ...s, seconds: Number(s.seconds.toFixed(3)) })) })),
    rejects: { total: rejects.reduce((a, r) => a + r.rows, 0), by_source: rejects, by_file: rejectFiles },
    checks: outcomes.flatMap((o) => o.checks ?? []).map((c) => ({ name: c.name, description: c.description, severity: c.severity, status: c.status, failing_rows: c.failingRows, seconds: Number(c.seconds.toFixed(3)), reason: c.reason ?? null, sample: c.sample })),
    shards: { total: shardStats?.total ?? 0, by_family: shardStats?.byFamily ?? {}, bytes: shardStats?.bytes ?? 0 },
    tables,
    attribution: SOURCES.filter((s) => s.attribution && files.some((f) => f.source === s.id)).map((s) => s.attribution!),
  };
}

/** A manifest with nothing read from a warehouse: what a build that failed before it had one can say. */
function emptyManifest(buildId: string, builtAt: Date, only: string[] | null, peakRss: number, status: Manifest['status'], failure: ManifestFailure | null): Manifest {
  return {
    format_version: FORMAT_VERSION, build_id: buildId, as_of: builtAt.toISOString().slice(0, 10), built_at: builtAt.toISOString(),
    status, only_stages: only, failure, sources: [], stages: [], rejects: { total: 0, by_source: [], by_file: [] }, checks: [],
    shards: { total: 0, by_family: {}, bytes: 0 }, tables: [], attribution: [], peak_rss_mb: Math.round(peakRss / 1048576),
  };
}

/** What stopped a build, as its manifest records it: the stage and file of a StageError, or the failed checks. */
export function failureOf(err: unknown, outcomes: readonly StageOutcome[]): ManifestFailure {
  const checks = outcomes.flatMap((o) => (o.checks ?? []).filter((c) => c.status === 'fail').map((c) => c.name));
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof StageError) return { stage: err.stage, file: err.file, message, exit_code: err.exitCode, checks };
  return { stage: null, file: null, message, exit_code: err instanceof CliError ? err.exitCode : EXIT.failed, checks };
}

export interface FailedBuild {
  ctx: StageContext | null; // null: the build failed before its warehouse was open
  dir: string;
  buildId: string;
  builtAt: Date;
  outcomes: StageOutcome[];
  only: string[] | null;
  peakRss: number;
}

/**
 * Writes manifest.json (status failed, the failure, the stages that ran, counts and rejects by file as far as the
 * warehouse got) and report.html into a build folder a stage or gate stopped, before it is renamed <id>.failed.
 * Best effort: what cannot be read from the warehouse is left empty, and nothing here hides the build's own error.
 */
export async function writeFailedManifest(b: FailedBuild, err: unknown, warn: (msg: string) => void): Promise<void> {
  const failure = failureOf(err, b.outcomes);
  let manifest: Manifest;
  try {
    manifest = b.ctx ? await buildManifest(b.ctx, b.outcomes, b.only, b.peakRss, 'failed', failure)
      : emptyManifest(b.buildId, b.builtAt, b.only, b.peakRss, 'failed', failure);
  } catch (readErr) {
    warn(`the failed build's warehouse could not be read for its manifest: ${(readErr as Error).message}`);
    manifest = { ...emptyManifest(b.buildId, b.builtAt, b.only, b.peakRss, 'failed', failure), stages: b.outcomes.map((o) => ({ name: o.name, seconds: Number(o.seconds.toFixed(3)) })) };
  }
  try {
    fs.writeFileSync(path.join(b.dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    await writeReport(b.dir, manifest);
  } catch (writeErr) {
    warn(`the failed build's manifest or report could not be written: ${(writeErr as Error).message}`);
  }
}
