// Data checks after the marts: each checks/*.sql returns the offending rows (none means pass).
// The first line `-- check: <what must hold>` names it in the report. Any failing check stops publication.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from './context.ts';
import { queryRows } from '../warehouse/db.ts';
import { sqlRequires } from '../warehouse/sql.ts';
import { missingTables, stepSelected } from './steps.ts';
import { StageError } from './errors.ts';

export interface CheckResult {
  name: string;
  description: string;
  status: 'pass' | 'fail' | 'skipped';
  failingRows: number;
  sample: unknown[];
}

export async function runChecks(ctx: StageContext, dir: string): Promise<CheckResult[]> {
  if (!fs.existsSync(dir)) return [];
  const results: CheckResult[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sql') && stepSelected(ctx, f)).sort()) {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const description = /--\s*check:\s*(.+)/.exec(sql)?.[1]?.trim() ?? file;
    const name = file.replace(/\.sql$/, '');
    if ((await missingTables(ctx, sqlRequires(sql))).length) {
      results.push({ name, description, status: 'skipped', failingRows: 0, sample: [] });
      continue;
    }
    const body = sql.trim().replace(/;\s*$/, '');
    let rows: Record<string, unknown>[];
    let count: number;
    try {
      rows = await queryRows(ctx.db, `select * from (${body}) limit 5`);
      count = rows.length === 0 ? 0 : (await queryRows<{ n: number }>(ctx.db, `select count(*)::int as n from (${body})`))[0]!.n;
    } catch (err) {
      // A check that cannot run is a broken build step (exit 3), not a failed check (exit 4).
      throw new StageError('marts', path.relative(path.resolve(import.meta.dirname, '..'), path.join(dir, file)), err);
    }
    const status = count === 0 ? 'pass' : 'fail';
    if (status === 'fail') ctx.log.error(`check failed: ${name}: ${description}`, { failing_rows: count });
    results.push({ name, description, status, failingRows: count, sample: rows });
  }
  return results;
}
