// `reii build`: sources -> staging -> intermediate -> marts (+ checks) -> shards, into a new build folder;
// `current` moves to it only when every stage and data check passed.
import fs from 'node:fs';
import path from 'node:path';
import type { BuildPaths, Reject, StageContext } from '../warehouse/context.ts';
import type { Logger } from '../warehouse/log.ts';
import type { Settings } from '../warehouse/settings.ts';
import { openWarehouse, type Warehouse } from '../warehouse/db.ts';
import { CliError, EXIT, StageError } from '../warehouse/errors.ts';
import { acquireLock, newBuildId, prune, publish } from './publish.ts';
import { buildsDir, currentBuildDir } from '../warehouse/build-folder.ts';
import { runStage, type StageOutcome } from './stages.ts';
import { STAGE_NAMES, type StageName } from './stage-names.ts';
import { SOURCES } from './sources/registry.ts';
import { matchFiles } from './sources/index.ts';
import { appendRejects, ensureRejectsTable } from './sources/rejects.ts';
import { verifyShards } from './shards/index.ts';
import { writeReport } from './report.ts';
import type { Manifest } from './manifest.ts';
import { buildManifest, writeFailedManifest } from './build-manifest.ts';

export interface BuildOptions {
  settings: Readonly<Settings>;
  log: Logger;
  only?: StageName[];
  /** Stop after this stage: the build is measured and kept as builds/<id>.partial, never published (benchmarks, debugging SQL). */
  until?: StageName;
  now?: Date; // pinned in tests
  /** Runs on the finished build folder before its shards are verified and it is published (fault-injection tests, operator checks). */
  beforePublish?: (dir: string) => void;
}

export interface BuildResult {
  buildId: string;
  dir: string;
  published: boolean;
  manifest: Manifest;
}

export async function runBuild(opts: BuildOptions): Promise<BuildResult> {
  const { settings, log } = opts;
  const now = opts.now ?? new Date();
  const release = acquireLock(settings.artifacts);
  const buildId = newBuildId();
  const dir = path.join(buildsDir(settings.artifacts), buildId);
  const paths: BuildPaths = { sources: settings.sources, build: dir, warehouse: path.join(dir, 'warehouse.duckdb'), shards: path.join(dir, 'shards') };
  let wh: Warehouse | null = null;
  let ctx: StageContext | null = null; // set once the warehouse is open: a failed build's manifest reads it
  const outcomes: StageOutcome[] = [];
  let peakRss = process.memoryUsage().rss;
  const rssTimer = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 250);
  const onSignal = (sig: NodeJS.Signals): void => {
    // The served build is never touched before publish: leave a marker, free the lock, then let the signal
    // do what it does by default (the process ends as killed by it; a shell sees 130 for SIGINT). Only the
    // CLI calls process.exit.
    log.error(`build interrupted by ${sig}; current build untouched`, { build: buildId });
    try { fs.writeFileSync(path.join(dir, 'INTERRUPTED'), sig); } catch { /* folder may not exist yet */ }
    release();
    process.kill(process.pid, sig);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (!fs.existsSync(settings.sources)) {
      throw new CliError(`sources folder ${settings.sources} does not exist (set --sources or REII_SOURCES)`, { exitCode: EXIT.usage });
    }
    const stages = stagesToRun(opts.only, opts.until);
    const first = stages[0]!;
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new StageError(first, dir, err);
    }
    if (first !== 'sources') {
      const current = currentBuildDir(settings.artifacts);
      if (!current) throw new CliError('--only needs a published build to start from, and there is none: run a full build first', { exitCode: EXIT.notFound });
      try {
        fs.copyFileSync(path.join(current, 'warehouse.duckdb'), paths.warehouse);
      } catch (err) {
        throw new StageError(first, path.join(current, 'warehouse.duckdb'), err);
      }
      log.info(`starting from the warehouse of ${path.basename(current)}`);
    }
    log.info(`build ${buildId}`, { sources: settings.sources, stages: stages.join(',') });
    try {
      wh = await openWarehouse(paths.warehouse, { threads: settings.duckdbThreads, memoryLimit: settings.duckdbMemory });
    } catch (err) {
      throw new StageError(first, paths.warehouse, err);
    }
    const db = await wh.connect();
    ctx = {
      db, settings, paths, buildId, builtAt: now, log,
      sourceFiles: (sourceId, key) => {
        const source = SOURCES.find((s) => s.id === sourceId);
        const file = source?.files.find((f) => f.key === key);
        return source && file ? matchFiles(settings.sources, source, file) : [];
      },
      addRejects: (rows: Reject[]) => appendRejects(db, rows),
    };
    try {
      await ensureRejectsTable(db);
    } catch (err) {
      throw new StageError(first, paths.warehouse, err);
    }
    for (const name of stages) {
      const started = performance.now();
      log.info(`stage ${name}`);
      try {
        if (name !== 'sources') await db.run(`delete from meta.rejects where stage = $stage`, { stage: name });
        if (name === 'shards') fs.rmSync(paths.shards, { recursive: true, force: true });
        const out = await runStage(ctx, name);
        outcomes.push({ name, seconds: (performance.now() - started) / 1000, ...out });
      } catch (err) {
        // Every failure inside a stage names it (exit 3), whatever threw: SQL, a TS step, the disk.
        if (err instanceof CliError) throw err;
        throw new StageError(name, null, err);
      }
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    if (opts.until && opts.until !== 'shards') {
      const warehouse = wh;
      const partialCtx = ctx;
      wh = null;
      ctx = null;
      return await keepPartial(partialCtx, dir, outcomes, opts.only ?? null, peakRss, () => { db.closeSync(); warehouse.close(); });
    }
    opts.beforePublish?.(dir);
    let verify: ReturnType<typeof verifyShards>;
    try {
      verify = verifyShards(paths.shards);
    } catch (err) {
      throw new StageError('shards', 'shards/', err);
    }
    if (verify.errors.length) {
      throw new StageError('shards', verify.errors[0]!.split(':')[0] ?? null, new Error(`${verify.errors.length} malformed shard file(s): ${verify.errors.slice(0, 3).join('; ')}`));
    }
    if (verify.files === 0) {
      throw new StageError('shards', 'shards/', new Error('the build wrote no shard files; refusing to publish a build the API could not serve'));
    }
    const failed = outcomes.flatMap((o) => o.checks ?? []).filter((c) => c.status === 'fail').map((c) => c.name);
    const failedDir = `${dir}.failed`;
    const checksError = failed.length ? new CliError(`data checks failed (${failed.join(', ')}); build kept in ${failedDir}, current untouched`, { exitCode: EXIT.checks }) : null;
    let manifest: Manifest;
    try {
      manifest = await buildManifest(ctx, outcomes, opts.only ?? null, peakRss, failed.length ? 'checks_failed' : 'published',
        checksError ? { stage: null, file: null, message: checksError.message, exit_code: EXIT.checks, checks: failed } : null);
    } catch (err) {
      throw new StageError('publish', 'manifest.json', err);
    }
    ctx = null;
    db.closeSync();
    wh.close();
    wh = null;
    writeStep('manifest.json', () => fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n'));
    await writeReport(dir, manifest).catch((err: unknown) => { throw new StageError('publish', 'report.html', err); });
    if (checksError) {
      writeStep(failedDir, () => fs.renameSync(dir, failedDir));
      throw checksError;
    }
    const previous = currentBuildDir(settings.artifacts);
    writeStep('current', () => publish(settings.artifacts, dir));
    // A running server may still answer from the build that was current a moment ago: never prune it.
    let removed: string[] = [];
    try {
      removed = prune(settings.artifacts, settings.keepBuilds, previous ? [path.basename(previous)] : []);
    } catch (err) {
      // The build is already live: a failed clean-up is reported, not turned into a failed build.
      log.warn(`pruning old builds failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    log.info(`published ${buildId}`, { shards: manifest.shards.total, rejected_rows: manifest.rejects.total, pruned: removed.length });
    return { buildId, dir, published: true, manifest };
  } catch (err) {
    const kept = fs.existsSync(dir) && !(err instanceof CliError && err.exitCode === EXIT.checks);
    // A stage or gate that failed: the folder keeps a manifest saying why (and its warehouse, for `reii query --build`).
    if (kept) await writeFailedManifest({ ctx, dir, buildId, builtAt: now, outcomes, only: opts.only ?? null, peakRss }, err, (m) => log.warn(m));
    if (ctx) { try { ctx.db.closeSync(); } catch { /* already failing */ } }
    if (wh) { try { wh.close(); } catch { /* already failing */ } }
    if (kept) {
      try { fs.renameSync(dir, `${dir}.failed`); } catch { /* keep going: report the real error */ }
    }
    throw err;
  } finally {
    clearInterval(rssTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    release();
  }
}

/** A step after the stages (manifest, report, the `current` swap, pruning): a failure names it, exit 3. */
function writeStep<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new StageError('publish', file, err);
  }
}

/**
 * The stages a build runs: all of them, or with --only from the earliest named stage through `shards`
 * (later stages read what earlier ones write, and a build without shards cannot be served).
 */
export function stagesToRun(only?: readonly StageName[], until?: StageName): StageName[] {
  const from = only?.length ? Math.min(...only.map((s) => STAGE_NAMES.indexOf(s))) : 0;
  const to = until ? STAGE_NAMES.indexOf(until) : STAGE_NAMES.length - 1;
  if (to < from) throw new CliError(`--until ${until} comes before the first stage to run (${STAGE_NAMES[from]})`, { exitCode: EXIT.usage });
  return STAGE_NAMES.slice(from, to + 1);
}

/** `--until` before shards: the stages ran (and their data checks), nothing is served from it. The folder is
 *  renamed <id>.partial with its manifest (status partial, timings, peak RSS) and report; `current` is untouched. */
async function keepPartial(ctx: StageContext, dir: string, outcomes: StageOutcome[], only: string[] | null, peakRss: number, close: () => void): Promise<BuildResult> {
  const failed = outcomes.flatMap((o) => o.checks ?? []).filter((c) => c.status === 'fail');
  let manifest: Manifest;
  try {
    manifest = await buildManifest(ctx, outcomes, only, peakRss, failed.length ? 'checks_failed' : 'partial');
  } catch (err) {
    throw new StageError('publish', 'manifest.json', err);
  } finally {
    close();
  }
  writeStep('manifest.json', () => fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n'));
  await writeReport(dir, manifest).catch((err: unknown) => { throw new StageError('publish', 'report.html', err); });
  const kept = `${dir}.partial`;
  writeStep(kept, () => fs.renameSync(dir, kept));
  if (failed.length) throw new CliError(`data checks failed (${failed.map((c) => c.name).join(', ')}); partial build kept in ${kept}`, { exitCode: EXIT.checks });
  ctx.log.info(`stopped after ${outcomes.at(-1)?.name ?? 'no stage'}: kept ${path.basename(kept)}, not published`);
  return { buildId: path.basename(dir), dir: kept, published: false, manifest };
}
