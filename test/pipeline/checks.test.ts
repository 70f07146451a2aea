// Data checks: offending rows fail a check (exit 4 at build level); a check whose SQL cannot run is a
// broken marts stage (StageError, exit 3) naming the check file, never an "unexpected" exit 1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runChecks } from '../../pipelines/checks.ts';
import { EXIT, StageError } from '../../pipelines/errors.ts';
import { makeContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext | null = null;
afterEach(() => { ctx?.close(); ctx = null; });

function checksDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-checks-'));
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
  return dir;
}

describe('data checks', () => {
  test('offending rows fail a check, none pass it, a missing table skips it', async () => {
    ctx = await makeContext();
    await ctx.db.run(`create table t as select * from (values (1), (-2), (-3)) v(x)`);
    const dir = checksDir({
      'a_negative.sql': '-- check: x is never negative\n-- requires: t\nselect x from t where x < 0\n',
      'b_big.sql': '-- check: x under 10\n-- requires: t\nselect x from t where x >= 10;\n',
      'c_absent.sql': '-- check: u is empty\n-- requires: u\nselect * from u\n',
    });
    const results = await runChecks(ctx, dir);
    expect(results.map((r) => [r.name, r.status, r.failingRows])).toEqual([['a_negative', 'fail', 2], ['b_big', 'pass', 0], ['c_absent', 'skipped', 0]]);
    expect(results[0]!.description).toBe('x is never negative');
  });

  test('a check whose SQL fails is a stage error naming the file', async () => {
    ctx = await makeContext();
    await ctx.db.run(`create table t as select 1 as x`);
    const dir = checksDir({ 'geo_broken.sql': '-- check: broken\n-- requires: t\nselect no_such_column from t\n' });
    const err = await runChecks(ctx, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    expect((err as StageError).exitCode).toBe(EXIT.stage);
    expect((err as StageError).stage).toBe('marts');
    expect((err as Error).message).toMatch(/^stage marts failed in .*geo_broken\.sql: .*no_such_column/);
  });
});
