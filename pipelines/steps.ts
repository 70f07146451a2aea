// Runs the steps of a stage folder in file-name order: `.sql` files as SQL, `.ts` files by calling their
// exported `run(ctx)`. A step whose `-- requires:` tables are missing is skipped with a warning.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../warehouse/context.ts';
import { tableExists } from '../warehouse/db.ts';
import { sqlRequires } from '../warehouse/sql.ts';
import { StageError } from '../warehouse/errors.ts';

export interface StepResult {
  step: string;
  status: 'ran' | 'skipped';
  seconds: number;
  peak_rss_mb?: number; // the process's peak resident memory while the step ran (DuckDB included)
  reason?: string;
}

export interface TsStep {
  /** Tables that must exist; when one is missing the step is skipped. */
  requires?: readonly string[];
  run(ctx: StageContext): Promise<void>;
}

/** The REII_STEP_FILTER setting: only step files whose name contains one of the parts run. */
export function stepSelected(ctx: StageContext, file: string): boolean {
  const parts = ctx.settings.stepFilter.split(',').map((p) => p.trim()).filter(Boolean);
  return parts.length === 0 || parts.some((p) => file.includes(p));
}

export function listSteps(dir: string): string[] {
  return fs.readdirSync(dir)
    .filter((f) => (f.endsWith('.sql') || f.endsWith('.ts')) && f !== 'index.ts' && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .sort();
}

export async function missingTables(ctx: StageContext, tables: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const t of tables) if (!(await tableExists(ctx.db, t.replaceAll('"', '')))) missing.push(t);
  return missing;
}

export async function runFolder(ctx: StageContext, stage: string, dir: string, only?: (file: string) => boolean): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const files = listSteps(dir).filter((f) => (!only || only(f)) && stepSelected(ctx, f));
  for (const [i, file] of files.entries()) {
    ctx.log.progress(`${stage}: ${file}`, i, files.length, 'steps');
    const started = performance.now();
    const rel = path.relative(path.resolve(import.meta.dirname, '..'), path.join(dir, file));
    try {
      let requires: readonly string[];
      let exec: () => Promise<void>;
      if (file.endsWith('.sql')) {
        const sql = fs.readFileSync(path.join(dir, file), 'utf8');
        requires = sqlRequires(sql);
        exec = async () => { await ctx.db.run(sql); };
      } else {
        const mod = (await import(path.join(dir, file))) as TsStep;
        if (typeof mod.run !== 'function') throw new Error(`${file} exports no run(ctx)`);
        requires = mod.requires ?? [];
        exec = () => mod.run(ctx);
      }
      const missing = await missingTables(ctx, requires);
      if (missing.length) {
        ctx.log.warn(`${stage}: skipped ${file}`, { missing: missing.join(',') });
        results.push({ step: file, status: 'skipped', seconds: 0, reason: `missing ${missing.join(', ')}` });
        continue;
      }
      let peak = process.memoryUsage.rss();
      const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 100);
      try {
        await exec();
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage.rss());
      const seconds = (performance.now() - started) / 1000;
      const peakMb = Math.round(peak / 1048576);
      ctx.log.info(`${stage}: ${file}`, { seconds: Number(seconds.toFixed(2)), peak_rss_mb: peakMb });
      results.push({ step: file, status: 'ran', seconds, peak_rss_mb: peakMb });
    } catch (err) {
      if (err instanceof StageError) throw err;
      throw new StageError(stage, rel, err);
    }
  }
  ctx.log.progress(stage, files.length, files.length, 'steps');
  return results;
}
