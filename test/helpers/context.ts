// A stage context over a fresh in-memory DuckDB, for given-rows -> expected-rows tests of one step.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StageContext, Reject } from '../../warehouse/context.ts';
import { openWarehouse, queryRows } from '../../warehouse/db.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { REJECTS_DDL } from '../../pipelines/sources/rejects.ts';
import { PINNED_NOW } from './clock.ts';
import { repoPath } from './paths.ts';

export interface TestContext extends StageContext {
  rejects: Reject[];
  rows<T = Record<string, unknown>>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
  close(): void;
}

export async function makeContext(opts: { sources?: string; now?: Date } = {}): Promise<TestContext> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-ctx-'));
  const wh = await openWarehouse(':memory:');
  const db = await wh.connect();
  await db.run(`create schema if not exists raw; create schema if not exists meta;
    create table meta.source_files (source varchar, key varchar, file varchar, sha256 varchar, bytes bigint, rows bigint);`);
  await db.run(REJECTS_DDL); // meta.rejects as the build defines it
  const settings = loadSettings({ artifacts: dir, sources: opts.sources });
  const rejects: Reject[] = [];
  return {
    db, settings, buildId: 'test', builtAt: opts.now ?? PINNED_NOW, log: silentLogger,
    paths: { sources: settings.sources, build: dir, warehouse: ':memory:', shards: path.join(dir, 'shards') },
    sourceFiles: () => [],
    addRejects: async (rows) => { rejects.push(...rows); },
    rejects,
    rows: (sql, params) => queryRows(db, sql, params),
    close: () => { db.closeSync(); wh.close(); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

/** Runs one step file (SQL) of a stage folder against the context. */
export async function runSqlFile(ctx: StageContext, file: string): Promise<void> {
  await ctx.db.run(fs.readFileSync(repoPath(file), 'utf8'));
}

/** meta.rejects as the row-contract tests compare it: file name (no folder), line, rule, column and value. */
export function rejectsByFile(ctx: TestContext): Promise<{ file: string; line: number; rule: string; column_name: string; value: string }[]> {
  return ctx.rows(`select regexp_extract(file, '[^/]+$') as file, line::int as line, rule, column_name, value from meta.rejects order by file, line`);
}
