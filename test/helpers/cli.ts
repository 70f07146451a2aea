// The CLI as a real process (node bin/reii.js, what npm's bin runs) with an explicit environment, for the
// tests under test/bin/: one-shot runs (`reii`), long-running servers (`served`, `stop`), and what the tests
// read back (`get` over HTTP, `parseTable` of a printed table, `rawQuery` over the raw files). Each test file
// that uses it calls `afterAll(cleanupCli)`: processes still running are killed, temporary folders removed.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect } from 'vitest';
import { REPO, SHARED } from './paths.ts';
import { removeTmpDirs, tmp as tmpDir } from './tmp.ts';

export const BIN = path.join(REPO, 'bin', 'reii.js');
/** The tiny hand-written source folders of test/fixtures/cli/. */
export const FIX = path.join(REPO, 'test', 'fixtures', 'cli');
/** ../shared/data, read in place (never REII_SOURCES: the CLI tests choose their sources themselves). */
export const RAW = path.join(SHARED, 'data');
export const STACK_LINE = /^\s+at .+[(:]\d+/m; // a V8 stack frame ("    at fn (file:line:col)")

/** A new temporary folder, removed by `cleanupCli`. */
export function tmp(prefix = 'reii-cli-'): string {
  return tmpDir(prefix);
}
let workDir: string | undefined;
/** Where every process runs unless told otherwise, so a forgotten setting never writes into the repo. */
function work(): string {
  workDir ??= tmp('reii-cli-cwd-');
  return workDir;
}

/** The whole environment of a CLI process: nothing inherited but PATH and HOME. */
export function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  // REII_GEOGRAPHY_REQUIRED 0: the fixtures' canonical folders carry no geography (the refusal of a real canonical
  // folder without it: test/pipelines/canonical-geography.test.ts)
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? os.tmpdir(), TZ: 'UTC', REII_LOG: 'human', REII_DUCKDB_MEMORY: '1GB', REII_GEOGRAPHY_REQUIRED: '0', ...extra };
}

export interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
const children = new Set<ChildProcess>();

/** Runs `reii ARGS` to its end (killed and reported after `deadlineMs`). */
export function reii(args: string[], e: NodeJS.ProcessEnv, deadlineMs = 90_000, cwd = work()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`reii ${args.join(' ')} still running after ${deadlineMs} ms; stderr: ${stderr}`)); }, deadlineMs);
    child.on('error', reject);
    child.on('close', (code, signal) => { clearTimeout(timer); children.delete(child); resolve({ code, signal, stdout, stderr }); });
  });
}

/** A long-running `reii serve`/`start`: resolves once it prints the address it serves. */
export interface Served { child: ChildProcess; url: string; buildId: string; out: () => string; err: () => string; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }
export function served(args: string[], e: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): { child: ChildProcess; ready: Promise<Served> } {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd: work(), env: e, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => { children.delete(child); resolve({ code, signal }); });
  });
  const ready = new Promise<Served>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /^reii serving (http:\/\/\S+) \(build (\S+)\)$/m.exec(stderr);
      if (m) resolve({ child, url: m[1]!, buildId: m[2]!, out: () => stdout, err: () => stderr, exit });
    });
    void exit.then(({ code, signal }) => reject(new Error(`reii ${args.join(' ')} exited (${code ?? signal}) before serving: ${stderr}`)));
  });
  return { child, ready };
}
/** SIGTERM, then the exit status; a process still there after 30 s is killed (and reported as SIGKILL). */
export async function stop(s: Served): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 30_000);
  try { return await s.exit; } finally { clearTimeout(timer); }
}

/** Kills the processes still running and removes the temporary folders (a test file's `afterAll`). */
export function cleanupCli(): void {
  for (const c of children) c.kill('SIGKILL');
  removeTmpDirs();
}

/** Polls `probe` every `everyMs` until it returns a value other than undefined, or fails after `deadlineMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 10_000, everyMs = 100): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function get(url: string, key?: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const r = await fetch(url, { headers: key ? { 'X-Service-Key': key } : {} });
  const text = await r.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: r.status, headers: r.headers, body };
}

/** Parses `formatTable` output by the dash line's column spans: header names and each row's cells. Also
 *  checks that every line's cells start at the same offsets (an aligned table, not a ragged one). */
export function parseTable(text: string): { columns: string[]; rows: Record<string, string>[] } {
  const lines = text.replace(/\n$/, '').split('\n');
  expect(lines.length, text).toBeGreaterThanOrEqual(2);
  const spans: [number, number][] = [];
  for (const m of lines[1]!.matchAll(/-+/g)) spans.push([m.index, m.index + m[0].length]);
  expect(lines[1]!.replace(/[- ]/g, ''), 'second line is only dashes and spaces').toBe('');
  const cut = (line: string): string[] => spans.map(([a, b], i) => {
    if (i > 0) expect(line[a - 1] ?? ' ', `column ${i} of ${JSON.stringify(line)} starts after a space`).toBe(' ');
    return line.slice(a, i === spans.length - 1 ? undefined : b).trim();
  });
  const columns = cut(lines[0]!);
  return { columns, rows: lines.slice(2).map((l) => Object.fromEntries(cut(l).map((v, i) => [columns[i]!, v]))) };
}

/** Independent DuckDB over raw files (never the warehouse). */
export async function rawQuery<T>(sql: string): Promise<T[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const reader = await conn.runAndReadAll(sql);
    return reader.getRowObjectsJS() as T[];
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}
