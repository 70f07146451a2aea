// Data tests after the marts, like dbt tests: each checks/*.sql returns the offending rows (none means pass).
// Header lines of a check file:
//   -- check: <what must hold>          its description in the report (required to be meaningful; else the file name)
//   -- severity: error | warn           error (the default) fails the build; warn is shown in the report, never blocks
//   -- requires: table, previous.table  skipped (with the reason) when a table is missing; `previous` alone, or a
//                                       `previous.<table>`, needs the build being replaced (cross-build drift tests)
// A check reads the build's clock and drift limits through the macros build_date(), drift_median_factor() and
// drift_rows_share(), and the build being replaced (the published `current`, if any) as the read-only database
// `previous`, attached only while the checks run.
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { StageContext } from '../warehouse/context.ts';
import { queryRows } from '../warehouse/db.ts';
import { sqlRequires, sqlString } from '../warehouse/sql.ts';
import { stepSelected } from './steps.ts';
import { StageError } from '../warehouse/errors.ts';
import { currentBuildDir } from '../warehouse/build-folder.ts';

export type CheckSeverity = 'error' | 'warn';

export interface CheckResult {
  name: string;
  description: string;
  severity: CheckSeverity;
  /** fail: an error check found rows (blocks publishing); warn: a warn check found rows (reported only). */
  status: 'pass' | 'fail' | 'warn' | 'skipped';
  failingRows: number;
  /** The first SAMPLE_ROWS offending rows, as the check returned them. */
  sample: unknown[];
  /** Why a check was skipped (a missing table, no build to compare against). */
  reason?: string;
  seconds: number;
}

/** How many offending rows a check keeps for the report. */
export const SAMPLE_ROWS = 10;
/** The alias of the build being replaced while the checks run. */
export const PREVIOUS = 'previous';

export interface CheckFile {
  name: string;
  description: string;
  severity: CheckSeverity;
  requires: string[];
  sql: string;
}

/** Reads a check file's header (description, severity, requirements); a bad severity names the file. */
export function parseCheck(file: string, sql: string): CheckFile {
  const name = path.basename(file).replace(/\.sql$/, '');
  let severity: CheckSeverity = 'error';
  let description = name;
  for (const line of sql.split('\n')) {
    const t = line.trim();
    if (t !== '' && !t.startsWith('--')) break;
    const m = /^--\s*(check|severity):\s*(.*)$/.exec(t);
    if (m?.[1] === 'check') description = m[2]!.trim() || name;
    if (m?.[1] === 'severity') {
      const v = m[2]!.trim();
      if (v !== 'error' && v !== 'warn') throw new Error(`severity must be error or warn, got "${v}"`);
      severity = v;
    }
  }
  return { name, description, severity, requires: sqlRequires(sql), sql: sql.trim().replace(/;\s*$/, '') };
}

/** A table of this build (database `current_database()`) or of the build being replaced (`previous.<t>`). */
async function hasTable(db: DuckDBConnection, required: string): Promise<boolean> {
  const parts = required.replaceAll('"', '').split('.');
  const [database, schema, table] = parts[0] === PREVIOUS
    ? [PREVIOUS, parts.length === 3 ? parts[1]! : 'main', parts.at(-1)!]
    : [null, parts.length === 2 ? parts[0]! : 'main', parts.at(-1)!];
  const rows = await queryRows<{ n: number }>(db,
    `select count(*)::int as n from (
       select database_name, schema_name, table_name from duckdb_tables()
       union all select database_name, schema_name, view_name from duckdb_views()
     ) where database_name = coalesce($database, current_database()) and schema_name = $schema and table_name = $table`,
    { database, schema, table });
  return (rows[0]?.n ?? 0) > 0;
}

/** Why a check cannot run here, or null when every table it needs is present. */
async function skipReason(db: DuckDBConnection, check: CheckFile, previous: { attached: boolean; why: string }): Promise<string | null> {
  const missing: string[] = [];
  const missingPrevious: string[] = [];
  for (const t of check.requires) {
    const isPrevious = t === PREVIOUS || t.startsWith(`${PREVIOUS}.`);
    if (isPrevious && !previous.attached) return previous.why;
    if (t === PREVIOUS) continue;
    if (!(await hasTable(db, t))) (isPrevious ? missingPrevious : missing).push(t);
  }
  if (missing.length) return `missing ${missing.join(', ')}`;
  if (missingPrevious.length) return `the build being replaced has no ${missingPrevious.map((t) => t.slice(PREVIOUS.length + 1)).join(', ')}`;
  return null;
}

/** A setting's validated ids (warehouse/settings.ts idList: letters, digits, underscores only) as a SQL list of strings. */
const sqlList = (ids: string): string => `[${ids.split(',').filter((x) => x !== '').map((x) => `'${x}'`).join(', ')}]::varchar[]`;
const isoDate = (d: Date): string => d.toISOString().slice(0, 10);

export async function runChecks(ctx: StageContext, dir: string): Promise<CheckResult[]> {
  if (!fs.existsSync(dir)) return [];
  const rel = (file: string): string => path.relative(path.resolve(import.meta.dirname, '..'), path.join(dir, file));
  const checks: CheckFile[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sql') && stepSelected(ctx, f)).sort()) {
    try {
      checks.push(parseCheck(file, fs.readFileSync(path.join(dir, file), 'utf8')));
    } catch (err) {
      throw new StageError('marts', rel(file), err);
    }
  }
  if (!checks.length) return [];
  const db = ctx.db;
  const started = performance.now();
  // The build's clock and drift limits, for the checks' SQL (values from code and validated settings, not data).
  try {
    await db.run(`create or replace temp macro build_date() as date '${isoDate(ctx.builtAt)}';
      create or replace temp macro drift_median_factor() as ${Number(ctx.settings.driftMedianFactor)}::double;
      create or replace temp macro drift_rows_share() as ${Number(ctx.settings.driftRowsShare)}::double;
      create or replace temp macro drift_sources_gone() as ${sqlList(ctx.settings.driftSourcesGone)};`);
  } catch (err) {
    throw new StageError('marts', 'checks', err);
  }
  const previous = await attachPrevious(ctx, checks);
  const results: CheckResult[] = [];
  try {
    for (const check of checks) {
      const t0 = performance.now();
      const base = { name: check.name, description: check.description, severity: check.severity };
      const reason = await skipReason(db, check, previous);
      if (reason) {
        results.push({ ...base, status: 'skipped', failingRows: 0, sample: [], reason, seconds: 0 });
        if (check.requires.some((t) => t === PREVIOUS || t.startsWith(`${PREVIOUS}.`))) ctx.log.info(`check skipped: ${check.name}: ${reason}`);
        continue;
      }
      let sample: Record<string, unknown>[];
      let count: number;
      try {
        sample = await queryRows(db, `select * from (${check.sql}) limit ${SAMPLE_ROWS}`);
        count = sample.length < SAMPLE_ROWS ? sample.length : (await queryRows<{ n: number }>(db, `select count(*)::int as n from (${check.sql})`))[0]!.n;
      } catch (err) {
        // A check that cannot run is a broken build step (exit 3), not a failed check (exit 4).
        throw new StageError('marts', rel(`${check.name}.sql`), err);
      }
      const status = count === 0 ? 'pass' : check.severity === 'warn' ? 'warn' : 'fail';
      const seconds = (performance.now() - t0) / 1000;
      if (status === 'fail') ctx.log.error(`check failed: ${check.name}: ${check.description}`, { failing_rows: count });
      if (status === 'warn') ctx.log.warn(`check warning: ${check.name}: ${check.description}`, { failing_rows: count });
      results.push({ ...base, status, failingRows: count, sample, seconds });
    }
  } finally {
    if (previous.attached) {
      try { await db.run(`detach ${PREVIOUS}`); } catch { /* the connection is closed with the build anyway */ }
    }
  }
  const n = (s: CheckResult['status']): number => results.filter((r) => r.status === s).length;
  ctx.log.info(`checks: ${n('pass')} passed, ${n('fail')} failed, ${n('warn')} warnings, ${n('skipped')} skipped`, { seconds: Number(((performance.now() - started) / 1000).toFixed(2)) });
  return results;
}

/** Attaches the build being replaced read-only as `previous` when a check needs it; says why when it cannot. */
async function attachPrevious(ctx: StageContext, checks: CheckFile[]): Promise<{ attached: boolean; why: string }> {
  if (!checks.some((c) => c.requires.some((t) => t === PREVIOUS || t.startsWith(`${PREVIOUS}.`)))) return { attached: false, why: 'no check needs it' };
  const current = currentBuildDir(ctx.settings.artifacts);
  if (!current) return { attached: false, why: `no build to compare against (nothing published in ${ctx.settings.artifacts})` };
  const file = path.join(current, 'warehouse.duckdb');
  if (path.resolve(file) === path.resolve(ctx.paths.warehouse)) return { attached: false, why: 'the build being replaced is this build' };
  if (!fs.existsSync(file)) return { attached: false, why: `the build being replaced (${path.basename(current)}) has no warehouse.duckdb` };
  try {
    await ctx.db.run(`attach ${sqlString(file)} as ${PREVIOUS} (read_only)`);
  } catch (err) {
    // The old build's file is not this build's data: its drift tests are skipped, loudly, rather than failing the build.
    const why = `could not open the warehouse of the build being replaced (${path.basename(current)}): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    ctx.log.warn(why);
    return { attached: false, why };
  }
  ctx.log.info(`checks compare against ${path.basename(current)}`);
  return { attached: true, why: '' };
}
