// Every `reii` command as a real process (node bin/reii.js, what npm's bin runs) with an explicit
// environment: exit statuses, stdout and stderr as an operator sees them. Servers are real processes on
// port 0 of 127.0.0.1; the serving build is the shared test build; the few builds this file runs are over
// the tiny hand-written source folders in test/fixtures/cli/. Values are checked against the raw files
// (DuckDB over ../shared/data in place) or against counts this file makes itself, never against the CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { startFileServer } from '../helpers/file-server.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';
import { REPO } from '../helpers/paths.ts';

const BIN = path.join(REPO, 'bin', 'reii.js');
const FIX = path.join(REPO, 'test', 'fixtures', 'cli');
const SHARED = path.resolve(REPO, '../shared/data');
const STACK_LINE = /^\s+at .+[(:]\d+/m; // a V8 stack frame ("    at fn (file:line:col)")

const tmpDirs: string[] = [];
function tmp(prefix = 'reii-cli-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}
const WORK = tmp('reii-cli-cwd-'); // every process runs here, so a forgotten setting never writes into the repo

/** The whole environment of a CLI process: nothing inherited but PATH and HOME. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? os.tmpdir(), TZ: 'UTC', REII_LOG: 'human', REII_DUCKDB_MEMORY: '1GB', ...extra };
}

interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
const children = new Set<ChildProcess>();

/** Runs `reii ARGS` to its end (killed and reported after `deadlineMs`). */
function reii(args: string[], e: NodeJS.ProcessEnv, deadlineMs = 90_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: WORK, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
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
interface Served { child: ChildProcess; url: string; buildId: string; out: () => string; err: () => string; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }
function served(args: string[], e: NodeJS.ProcessEnv): { child: ChildProcess; ready: Promise<Served> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: WORK, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
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
async function stop(s: Served): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 30_000);
  try { return await s.exit; } finally { clearTimeout(timer); }
}

/** Polls `probe` every `everyMs` until it returns a value other than undefined, or fails after `deadlineMs`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 10_000, everyMs = 100): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function get(url: string, key?: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const r = await fetch(url, { headers: key ? { 'X-Service-Key': key } : {} });
  const text = await r.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: r.status, headers: r.headers, body };
}

/** Parses `formatTable` output by the dash line's column spans: header names and each row's cells. Also
 *  checks that every line's cells start at the same offsets (an aligned table, not a ragged one). */
function parseTable(text: string): { columns: string[]; rows: Record<string, string>[] } {
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
async function rawQuery<T>(sql: string): Promise<T[]> {
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

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------

describe('reii start and serve', () => {
  test('start over an artifacts folder with a published build serves it without building; SIGTERM drains and exits 0', async () => {
    const artifacts = artifactsDir();
    const buildsBefore = fs.readdirSync(path.join(artifacts, 'builds')).sort();
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { build_id: string; as_of: string };
    // A sources folder that does not exist: had `start` tried to build, it would have exited 2.
    const s = await served(['start'], env({ REII_ARTIFACTS: artifacts, REII_STATE: tmp(), REII_SOURCES: path.join(tmp(), 'absent'), PORT: '0' })).ready;
    try {
      const port = Number(new URL(s.url).port);
      expect(new URL(s.url).hostname).toBe('127.0.0.1');
      expect(port).toBeGreaterThan(0);
      expect(s.buildId).toBe(path.basename(buildDir()));
      const health = await get(`${s.url}/v1/health`);
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', build_id: manifest.build_id, as_of: manifest.as_of });
      expect(manifest.build_id).toBe(path.basename(buildDir()));
      // one JSON access-log line per request on stdout
      const line = await until('the access-log line of /v1/health', async () => s.out().split('\n').filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['route'] === 'GET /v1/health'), 10_000, 50);
      expect(line).toMatchObject({ method: 'GET', status: 200, key_id: null });
    } finally {
      const exit = await stop(s);
      expect(exit).toEqual({ code: 0, signal: null });
    }
    expect(s.err()).toContain('SIGTERM: draining');
    expect(s.err() + s.out()).not.toMatch(/stage sources|published build|does not exist/);
    expect(fs.readdirSync(path.join(artifacts, 'builds')).sort()).toEqual(buildsBefore);
    expect(fs.existsSync(path.join(artifacts, 'build.lock'))).toBe(false);
  });

  test('serve on a port already taken: exit 2 (a setting to change, not a bug) with a message naming the address, no stack trace', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const r = await reii(['serve', '--port', String(port)], env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp() }), 30_000);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`reii: cannot listen on 127.0.0.1 port ${port}: it is already in use (choose another with --port or PORT, --host or REII_HOST)`);
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stderr).not.toMatch(/^reii serving/m);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('reii keys against a running server (keys.json)', () => {
  const state = tmp('reii-cli-state-');
  let e: NodeJS.ProcessEnv;
  let s: Served;
  beforeAll(async () => {
    e = env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: state });
    s = await served(['serve', '--port', '0'], e).ready;
  });
  afterAll(async () => {
    if (s) expect(await stop(s)).toEqual({ code: 0, signal: null });
  });

  const created = (r: Run): { id: string; key: string } => {
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^ries_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/); // alone on its line
    const id = /(?:created key|->) (\S+?)[ ;]/.exec(lines[0]!)?.[1];
    expect(id, r.stdout).toBeDefined();
    return { id: id!, key };
  };
  const listJson = async (): Promise<Record<string, unknown>[]> => {
    const r = await reii(['keys', 'list', '--json'], e);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, unknown>[];
  };
  const states = (key?: string) => get(`${s.url}/v1/geo/states`, key);

  test('keys create prints the key alone on the last line, and the running server accepts it at once', async () => {
    const r = await reii(['keys', 'create', '--plan', 'pro', '--name', 'cli-pro'], e);
    const { id, key } = created(r);
    expect(r.stdout.split('\n')[0]).toBe(`created key ${id} (plan pro); it is shown once:`);
    expect(r.stderr).toBe('');
    // no wait, no retry: the first request with the new key is answered
    const first = await states(key);
    expect(first.status).toBe(200);
    // control: the server does check keys
    expect((await states(`${key.slice(0, -4)}XXXX`)).status).toBe(401);
    expect(fs.readFileSync(path.join(state, 'keys.json'), 'utf8')).not.toContain(key.split('_').at(-1)!);
  });

  test('keys create --rpm: the limit shows in keys list (table and JSON) and as X-RateLimit-Limit; usage is counted', async () => {
    const { id, key } = created(await reii(['keys', 'create', '--plan', 'builder', '--rpm', '7', '--name', 'cli-rpm'], e));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await states(key);
      statuses.push(a.status);
      expect(a.headers.get('x-ratelimit-limit')).toBe('7'); // the builder plan alone would say 60
    }
    expect(statuses).toEqual([200, 200, 200]);

    // the server writes usage about every second: keys list (a separate process) sees the three 2xx
    const row = await until('keys list to show 3 calls', async () => {
      const found = (await listJson()).find((k) => k['id'] === id);
      return found && found['usage_this_month'] === 3 ? found : undefined;
    }, 15_000, 250);
    expect(row).toMatchObject({ id, name: 'cli-rpm', plan: 'builder', rpm: 7, status: 'active' });
    expect(Date.parse(String(row['last_used']))).toBeGreaterThan(Date.parse(String(row['created'])) - 1);
    expect(JSON.stringify(await listJson())).not.toContain(key.split('_').at(-1)!);

    const table = await reii(['keys', 'list'], e);
    expect(table.code, table.stderr).toBe(0);
    const parsed = parseTable(table.stdout);
    expect(parsed.columns).toEqual(['id', 'name', 'plan', 'rpm', 'status', 'created', 'last_used', 'usage_this_month']);
    expect(parsed.rows.find((r) => r['id'] === id)).toMatchObject({ name: 'cli-rpm', plan: 'builder', rpm: '7', status: 'active', usage_this_month: '3' });
    expect(table.stdout).not.toContain(key.split('_').at(-1)!);
  });

  test('keys revoke: the running server refuses the key (401 key_revoked) within a deadline; list says revoked', async () => {
    const { id, key } = created(await reii(['keys', 'create', '--plan', 'starter', '--rpm', '600', '--name', 'cli-revoke'], e));
    expect((await states(key)).status).toBe(200);
    const r = await reii(['keys', 'revoke', id], e);
    expect(r).toMatchObject({ code: 0, stdout: `revoked ${id}\n`, stderr: '' });
    const refused = await until('the revoked key to be refused', async () => { const a = await states(key); return a.status === 200 ? undefined : a; }, 10_000, 100);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'The API key has been revoked' });
    expect((await listJson()).find((k) => k['id'] === id)).toMatchObject({ status: 'revoked', name: 'cli-revoke' });
  });

  test('keys rotate: the new key works at once with the same plan, name and limit; the old one is refused', async () => {
    const old = created(await reii(['keys', 'create', '--plan', 'builder', '--rpm', '600', '--name', 'cli-rotate'], e));
    expect((await states(old.key)).status).toBe(200);
    const r = await reii(['keys', 'rotate', old.id], e);
    const fresh = created(r);
    expect(r.stdout.split('\n')[0]).toBe(`rotated ${old.id} -> ${fresh.id}; the new key is shown once:`);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.key).not.toBe(old.key);
    const now = await states(fresh.key);
    expect(now.status).toBe(200);
    expect(now.headers.get('x-ratelimit-limit')).toBe('600');
    const refused = await until('the rotated-out key to be refused', async () => { const a = await states(old.key); return a.status === 200 ? undefined : a; }, 10_000, 100);
    expect(refused.status).toBe(401);
    const list = await listJson();
    expect(list.find((k) => k['id'] === old.id)).toMatchObject({ status: 'revoked' });
    expect(list.find((k) => k['id'] === fresh.id)).toMatchObject({ status: 'active', plan: 'builder', name: 'cli-rotate', rpm: 600 });
  });

  test('revoke and rotate of an unknown id exit 6 naming the id, and change nothing', async () => {
    const before = fs.readFileSync(path.join(state, 'keys.json'), 'utf8');
    for (const cmd of ['revoke', 'rotate']) {
      const r = await reii(['keys', cmd, 'no-such-key-id'], e);
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(6);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('reii: no key with id no-such-key-id\n');
    }
    expect(fs.readFileSync(path.join(state, 'keys.json'), 'utf8')).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('reii keys on Redis (REII_REDIS_URL)', () => {
  let redis: TestRedis;
  let s: Served;
  const state = tmp('reii-cli-redis-state-');
  let e: NodeJS.ProcessEnv;
  beforeAll(async () => {
    redis = await startRedis();
    e = env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: state, REII_REDIS_URL: redis.url });
    s = await served(['serve', '--port', '0'], e).ready;
  });
  afterAll(async () => {
    try {
      if (s) expect(await stop(s)).toEqual({ code: 0, signal: null });
    } finally {
      await redis?.stop();
    }
  });

  test('a key created with REII_REDIS_URL is accepted by a server on the same Redis, lives in Redis (not keys.json), and its revocation reaches the server', async () => {
    const r = await reii(['keys', 'create', '--plan', 'builder', '--rpm', '40', '--name', 'cli-redis'], e);
    expect(r.code, r.stderr).toBe(0);
    const key = r.stdout.trimEnd().split('\n').at(-1)!;
    const id = /^created key (\S+) /.exec(r.stdout)![1]!;
    expect(key).toMatch(/^ries_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    // at once: the first request after `keys create` exits is accepted (the server looks an unknown id up in Redis)
    const ok = await get(`${s.url}/v1/geo/states`, key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('40');

    // listed through Redis; the same state folder without Redis knows nothing of it
    const withRedis = await reii(['keys', 'list', '--json'], e);
    expect(withRedis.code, withRedis.stderr).toBe(0);
    expect((JSON.parse(withRedis.stdout) as Record<string, unknown>[]).find((k) => k['id'] === id)).toMatchObject({ name: 'cli-redis', plan: 'builder', rpm: 40, status: 'active' });
    const withoutRedis = await reii(['keys', 'list', '--json'], { ...e, REII_REDIS_URL: '' });
    expect(withoutRedis.code, withoutRedis.stderr).toBe(0);
    expect(JSON.parse(withoutRedis.stdout)).toEqual([]);
    expect(fs.existsSync(path.join(state, 'keys.json'))).toBe(false);

    const revoked = await reii(['keys', 'revoke', id], e);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
    const refused = await until('the revocation to reach the server', async () => { const a = await get(`${s.url}/v1/geo/states`, key); return a.status === 200 ? undefined : a; }, 10_000, 100);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'The API key has been revoked' });
    const unknown = await reii(['keys', 'revoke', 'no-such-key-id'], e);
    expect(unknown.code, unknown.stderr).toBe(6);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('reii query', () => {
  const e = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp() });
  const SQL = `select state_code, state_name, state_fips from states where state_code in ('TX', 'DC', 'WY') order by state_code`;

  test('--format json, csv and table print the warehouse values (oracle: the raw states.csv and foreclosures file)', async () => {
    const want = await rawQuery<{ state_code: string; state_name: string; state_fips: string }>(
      `select Code as state_code, Name as state_name, FIPS as state_fips from read_csv('${SHARED}/usgeo-census-tables/states.csv', all_varchar = true)
       where Code in ('TX', 'DC', 'WY') order by Code`);
    expect(want.map((w) => w.state_code)).toEqual(['DC', 'TX', 'WY']);
    const [json, csv, table, count] = await Promise.all([
      reii(['query', SQL, '--format', 'json'], e()),
      reii(['query', SQL, '--format', 'csv'], e()),
      reii(['query', SQL], e()), // table is the default
      reii(['query', `select count(*)::int as n from raw."louisville__foreclosures"`, '--format', 'json'], e()),
    ]);
    for (const r of [json, csv, table, count]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(JSON.parse(json.stdout)).toEqual(want);
    expect(csv.stdout).toBe(['state_code,state_name,state_fips', ...want.map((w) => `${w.state_code},${w.state_name},${w.state_fips}`)].join('\n') + '\n');
    const t = parseTable(table.stdout);
    expect(t.columns).toEqual(['state_code', 'state_name', 'state_fips']);
    expect(t.rows).toEqual(want);
    const raw = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${SHARED}/louisville-metro-lien-foreclosures/foreclosures.csv.gz')`);
    expect(raw[0]!.n).toBeGreaterThan(0);
    expect(JSON.parse(count.stdout)).toEqual([{ n: raw[0]!.n }]);
  });

  test('with no published build: exit 6 naming the folder', async () => {
    const empty = tmp('reii-cli-art-');
    const r = await reii(['query', 'select 1'], env({ REII_ARTIFACTS: empty, REII_STATE: tmp() }));
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`reii: no published build in ${empty}: run \`reii build\` first\n`);
  });

  test('write statements are refused with a clear error and a non-zero status; the warehouse is unchanged', async () => {
    const wh = path.join(buildDir(), 'warehouse.duckdb');
    const before = fs.statSync(wh);
    const writes = [`delete from states`, `create table cli_probe as select 1 as x`, `update states set state_name = 'x'`];
    const runs = await Promise.all(writes.map((sql) => reii(['query', sql], e())));
    for (const [i, sql] of writes.entries()) {
      const r = runs[i]!;
      expect(r.code, sql).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, sql).toMatch(/^reii: query failed: .*read-only/);
      expect(r.stderr).not.toMatch(STACK_LINE);
    }
    // nor may it write or read any other file on the machine
    const outside = path.join(tmp(), 'leak.csv');
    fs.writeFileSync(path.join(path.dirname(outside), 'secret.csv'), 'a\n1\n');
    const escapes = [`copy (select state_code from states) to '${outside}'`, `select * from read_csv('${path.join(path.dirname(outside), 'secret.csv')}')`, `attach '${path.join(path.dirname(outside), 'other.duckdb')}' as other`, `set enable_external_access = true`];
    const escaped = await Promise.all(escapes.map((sql) => reii(['query', sql], e())));
    for (const [i, sql] of escapes.entries()) {
      const r = escaped[i]!;
      expect(r.code, `${sql}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, sql).toMatch(/^reii: query failed: .*(disabled by configuration|configuration has been locked)/);
    }
    expect(fs.readdirSync(path.dirname(outside)).sort()).toEqual(['secret.csv']);
    const after = fs.statSync(wh);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    const n = await reii(['query', `select count(*)::int as n from states where state_name = 'x'`, '--format', 'json'], e());
    expect(JSON.parse(n.stdout)).toEqual([{ n: 0 }]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('reii sources', () => {
  test('sources list and --json: present sources with their file and row counts (oracle: the files), the rest absent', async () => {
    const src = tmp('reii-cli-src-');
    fs.symlinkSync(path.join(FIX, 'good', 'canonical'), path.join(src, 'canonical'));
    fs.symlinkSync(path.join(SHARED, 'louisville-metro-lien-foreclosures'), path.join(src, 'louisville-metro-lien-foreclosures'));
    const louisvilleRows = (await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${SHARED}/louisville-metro-lien-foreclosures/foreclosures.csv.gz')`))[0]!.n;
    const canonicalRows = fs.readFileSync(path.join(FIX, 'good', 'canonical', 'sales.csv'), 'utf8').trimEnd().split('\n').length - 1; // 3 hand-written rows
    const e = env({ REII_SOURCES: src, REII_ARTIFACTS: tmp(), REII_STATE: tmp() });

    const json = await reii(['sources', 'list', '--json'], e);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as { id: string; present: boolean; files: number; rows: number | null }[];
    expect(rows.map((r) => r.id)).toEqual(SOURCES.map((s) => s.id));
    expect(rows.find((r) => r.id === 'canonical')).toMatchObject({ present: true, files: 1, rows: canonicalRows });
    expect(rows.find((r) => r.id === 'louisville')).toMatchObject({ present: true, files: 1, rows: louisvilleRows });
    for (const r of rows.filter((x) => x.id !== 'canonical' && x.id !== 'louisville')) expect(r, r.id).toMatchObject({ present: false, files: 0, rows: null });

    const table = await reii(['sources', 'list'], e);
    expect(table.code, table.stderr).toBe(0);
    const t = parseTable(table.stdout);
    expect(t.columns).toEqual(['source', 'status', 'files', 'rows', 'vintage', 'licence', 'attribution']);
    expect(t.rows.map((r) => r['source'])).toEqual(SOURCES.map((s) => s.id));
    expect(t.rows.find((r) => r['source'] === 'canonical')).toMatchObject({ status: 'present', files: '1', rows: String(canonicalRows) });
    expect(t.rows.find((r) => r['source'] === 'louisville')).toMatchObject({ status: 'present', files: '1', rows: String(louisvilleRows) });
    expect(t.rows.filter((r) => r['status'] === 'absent')).toHaveLength(SOURCES.length - 2);
  });

  test('sources pull from a mirror whose files answer 500: exit 1 with a message, every file a failed row, nothing saved', async () => {
    // A loopback mirror laid out like ../shared/data: the folder listing works, every file answers 500.
    const root = tmp('reii-cli-mirror-');
    const folder = 'census-gazetteer-2025';
    const names = ['2025_Gaz_place_national.txt', '2025_Gaz_counties_national.txt', '2025_Gaz_zcta_national.txt', '2025_Gaz_cbsa_national.txt'];
    fs.mkdirSync(path.join(root, folder));
    for (const n of names) fs.writeFileSync(path.join(root, folder, n), 'never served\n');
    const mirror = await startFileServer(root);
    for (const n of names) mirror.fault(`/${folder}/${n}`, { status: 500 });
    try {
      const into = tmp('reii-cli-pull-');
      const r = await reii(['sources', 'pull', '--into', into, '--base-url', mirror.url, '--only', 'gazetteer'], env({ REII_ARTIFACTS: tmp(), REII_STATE: tmp() }));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^reii: some downloads failed \(see the table\)$/m);
      expect(r.stderr).not.toMatch(STACK_LINE);
      const t = parseTable(r.stdout);
      expect(t.columns).toEqual(['source', 'file', 'status', 'bytes', 'sha256', 'attempts', 'message']);
      expect(t.rows.map((row) => row['file']).sort()).toEqual(names.map((n) => `${folder}/${n}`).sort());
      for (const row of t.rows) {
        expect(row, JSON.stringify(row)).toMatchObject({ source: 'gazetteer', status: 'failed', sha256: '' });
        expect(row['message']).toMatch(/HTTP 500/);
        // every attempt reached the mirror and was answered 500
        const asked = mirror.requests.filter((q) => q.path === `/${row['file']}`);
        expect(asked.length).toBe(Number(row['attempts']));
        expect(asked.every((q) => q.status === 500)).toBe(true);
      }
      const saved = fs.readdirSync(path.join(into), { recursive: true, encoding: 'utf8' })
        .filter((p) => fs.statSync(path.join(into, p)).isFile() && !path.basename(p).startsWith('.'));
      expect(saved).toEqual([]);
    } finally {
      await mirror.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('usage errors and --debug', () => {
  const e = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: tmp(), REII_STATE: tmp() });

  test('an unknown plan and a bad --rpm exit 2 with a one-line message and no stack', async () => {
    const plan = await reii(['keys', 'create', '--plan', 'gold'], e());
    expect(plan).toMatchObject({ code: 2, stdout: '', stderr: 'reii: unknown plan "gold"; plans are starter, builder, pro, scale, enterprise\n' });
    const rpm = await reii(['keys', 'create', '--plan', 'pro', '--rpm', '0'], e());
    expect(rpm).toMatchObject({ code: 2, stdout: '', stderr: 'reii: --rpm must be a whole number of at least 1\n' });
    const port = await reii(['serve', '--port', 'abc'], e());
    expect(port.code).toBe(2);
    expect(port.stderr).toBe('reii: setting port must be a whole number from 0 to 65535, got "abc"\n');
  });

  test('an unknown command, an unknown flag, a missing --plan and a bad --format choice name the mistake and exit 2, with no stack; --help exits 0', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], `error: unknown command 'frobnicate'`],
      [['keys', 'list', '--bogus'], `error: unknown option '--bogus'`],
      [['keys', 'create'], `error: required option '--plan <plan>' not specified`],
      [['query', 'select 1', '--format', 'xml'], `error: option '--format <f>' argument 'xml' is invalid`],
    ];
    const runs = await Promise.all(cases.map(([args]) => reii(args, e())));
    for (const [i, [args, message]] of cases.entries()) {
      const r = runs[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toContain(message);
      expect(r.stderr).toContain('Usage: reii');
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stdout).toBe('');
    }
    // no command at all is bad usage too (the help goes to stderr); asking for help is not
    const [none, help, keysHelp] = await Promise.all([reii([], e()), reii(['--help'], e()), reii(['keys', '--help'], e())]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: reii');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: reii');
    expect(keysHelp).toMatchObject({ code: 0, stderr: '' });
    expect(keysHelp.stdout).toContain('Usage: reii keys');
  });

  test('an unexpected error: one line and a --debug hint; with --debug, the stack', async () => {
    const notADir = path.join(tmp(), 'a-file');
    fs.writeFileSync(notADir, 'not a folder');
    const plain = await reii(['keys', 'create', '--plan', 'pro', '--state', notADir], e());
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe('');
    const lines = plain.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^reii: unexpected error: .*a-file/);
    expect(lines[1]).toBe('run again with --debug for the stack trace');

    const debug = await reii(['--debug', 'keys', 'create', '--plan', 'pro', '--state', notADir], e());
    expect(debug.code).toBe(1);
    expect(debug.stderr.split('\n')[0]).toBe(lines[0]);
    expect(debug.stderr).toMatch(STACK_LINE);
    expect(debug.stderr).toMatch(/at .*api\/keys\.ts:\d+/); // the frame where it happened
    expect(debug.stderr).not.toContain('run again with --debug');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('build exit statuses (one artifacts folder, tiny hand-written sources)', () => {
  const artifacts = tmp('reii-cli-art-');
  const base = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: artifacts, REII_STATE: tmp(), REII_SOURCES: path.join(FIX, 'good'), PORT: '0' });
  const currentTarget = (): string | null => { try { return fs.readlinkSync(path.join(artifacts, 'current')); } catch { return null; } };
  const builds = (): string[] => (fs.existsSync(path.join(artifacts, 'builds')) ? fs.readdirSync(path.join(artifacts, 'builds')).sort() : []);
  const lockPid = (): number | undefined => {
    try { return (JSON.parse(fs.readFileSync(path.join(artifacts, 'build.lock'), 'utf8')) as { pid?: number }).pid; } catch { return undefined; }
  };

  test('a build while another holds the lock exits 5 and touches nothing; `start` with nothing published then builds and serves', async () => {
    // `start` over an empty artifacts folder builds first: hold it still once it owns the lock.
    const { child, ready } = served(['start'], base());
    ready.catch(() => {}); // awaited below
    const pid = child.pid!;
    await until('start to take the build lock', async () => (lockPid() === pid ? true : undefined), 60_000, 20);
    child.kill('SIGSTOP');
    try {
      expect(lockPid()).toBe(pid); // still building, still holding it
      const buildsBefore = builds(); // the holder's own build folder, if it has made it yet
      const r = await reii(['build', '--sources', path.join(FIX, 'good')], base());
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(new RegExp(`^reii: another build is running \\(pid ${pid}, started [^)]+\\); lock ${artifacts.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/build\\.lock$`, 'm'));
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stdout).toBe('');
      expect(currentTarget()).toBeNull();
      expect(lockPid()).toBe(pid); // the refused build did not remove the holder's lock
      expect(builds()).toEqual(buildsBefore);
    } finally {
      child.kill('SIGCONT');
    }
    const s = await ready;
    try {
      expect(currentTarget()).toBe(`builds/${s.buildId}`);
      expect(s.out()).toContain(`published build ${s.buildId} (`);
      const health = await get(`${s.url}/v1/health`);
      expect(health.body).toMatchObject({ status: 'ok', build_id: s.buildId });
      // the published warehouse holds the three hand-written sales
      const q = await reii(['query', `select count(*)::int as n from raw."canonical__sales"`, '--format', 'json'], base());
      expect(q.code, q.stderr).toBe(0);
      expect(JSON.parse(q.stdout)).toEqual([{ n: 3 }]);
    } finally {
      expect(await stop(s)).toEqual({ code: 0, signal: null });
    }
    expect(lockPid()).toBeUndefined();
  });

  test('a stage that fails exits 3 naming the stage, file and cause; --debug adds the cause\'s stack; current untouched', async () => {
    const current = currentTarget();
    expect(current, 'the previous test published a build').not.toBeNull();
    const src = path.join(FIX, 'missing-column');
    const r = await reii(['build', '--sources', src], base());
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^reii: stage sources failed in canonical\/sales\.csv: missing required column\(s\) state, zip/m);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
    expect(currentTarget()).toBe(current);
    expect(lockPid()).toBeUndefined();

    const debug = await reii(['--debug', 'build', '--sources', src], base());
    expect(debug.code).toBe(3);
    expect(debug.stderr).toMatch(/^reii: stage sources failed in canonical\/sales\.csv/m);
    expect(debug.stderr).toMatch(/at .*pipelines\/sources\/\S+\.ts:\d+/);
    expect(currentTarget()).toBe(current);
  });

  test('failed data checks exit 4: the build is kept as <id>.failed with status checks_failed, current untouched', async () => {
    const current = currentTarget();
    expect(current, 'the first test published a build').not.toBeNull();
    const failedBefore = builds().filter((n) => n.endsWith('.failed'));
    const r = await reii(['build', '--sources', path.join(FIX, 'two-states')], base());
    expect(r.code, r.stderr).toBe(4);
    const failed = builds().filter((n) => n.endsWith('.failed') && !failedBefore.includes(n));
    expect(failed).toHaveLength(1);
    // geo_states (two states, not 51), and drift_row_counts: these sources have no sales, so the 330 mart_comps rows
    // of the published build over `good` (3 zips x 5 types x 22 windows) are gone
    expect(r.stderr).toContain(`reii: data checks failed (drift_row_counts, geo_states); build kept in ${path.join(artifacts, 'builds', failed[0]!)}, current untouched\n`);
    expect(r.stderr).not.toMatch(STACK_LINE);
    const m = JSON.parse(fs.readFileSync(path.join(artifacts, 'builds', failed[0]!, 'manifest.json'), 'utf8')) as { status: string; checks: { name: string; status: string; sample: unknown[] }[] };
    expect(m.status).toBe('checks_failed');
    expect(m.checks.find((c) => c.name === 'geo_states')?.status).toBe('fail');
    expect(m.checks.find((c) => c.name === 'drift_row_counts')).toMatchObject({ status: 'fail', sample: [{ table_name: 'mart_comps', previous_rows: '330', rows: '0', change_share: 1, limit_share: 0.5 }] });
    expect(currentTarget()).toBe(current);
    expect(lockPid()).toBeUndefined();
  });

  test('build --only with nothing published exits 6', async () => {
    const empty = tmp('reii-cli-art-');
    const r = await reii(['build', '--only', 'marts', '--artifacts', empty, '--sources', path.join(FIX, 'good')], base());
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^reii: --only needs a published build to start from, and there is none/m);
    expect(fs.existsSync(path.join(empty, 'current'))).toBe(false);
    expect(fs.existsSync(path.join(empty, 'build.lock'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('reii check: the data tests over a sources folder, nothing published', () => {
  // Generated canonical sales (Austin zips; price per sqft known by construction). Sources A: 120 sales, zip 78703's
  // five at $2,600+/sqft (a plausibility warning). Sources B: 40 sales, zip 78701 at four times A's price per sqft.
  interface Gen { zip: string; street: string; n: number; price: (i: number) => number; sqft: number }
  const sources = (name: string, gens: Gen[]): { dir: string; rows: { zip: string; date: string; ppsf: number }[] } => {
    const dir = tmp(`reii-cli-src-${name}-`);
    fs.mkdirSync(path.join(dir, 'canonical'));
    const rows: { zip: string; date: string; ppsf: number }[] = [];
    const lines = ['address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng'];
    for (const g of gens) {
      for (let i = 0; i < g.n; i++) {
        const date = new Date(Date.UTC(2025, 0, 1 + 2 * i)).toISOString().slice(0, 10);
        lines.push(`${100 + i} ${g.street},AUSTIN,TX,${g.zip},${date},${g.price(i)},sfr,3,2,${g.sqft},1990,good,30.27,-97.74`);
        rows.push({ zip: g.zip, date, ppsf: g.price(i) / g.sqft });
      }
    }
    fs.writeFileSync(path.join(dir, 'canonical', 'sales.csv'), lines.join('\n') + '\n');
    return { dir, rows };
  };
  const A = sources('a', [
    { zip: '78701', street: 'ELM ST', n: 60, price: (i) => 200_000 + 100 * i, sqft: 1000 },
    { zip: '78702', street: 'OAK AVE', n: 55, price: (i) => 150_000 + 100 * i, sqft: 1000 },
    { zip: '78703', street: 'PINE CT', n: 5, price: (i) => 2_600_000 + 1000 * i, sqft: 1000 },
  ]);
  const B = sources('b', [
    { zip: '78701', street: 'ELM ST', n: 20, price: (i) => 800_000 + 400 * i, sqft: 1000 },
    { zip: '78702', street: 'OAK AVE', n: 20, price: (i) => 150_000 + 100 * i, sqft: 1000 },
  ]);
  /** The median price per sqft of a zip's sales (every one of them lies within 6 months of the zip's last sale). */
  const median = (rows: { zip: string; ppsf: number }[], zip: string): number => {
    const v = rows.filter((r) => r.zip === zip).map((r) => r.ppsf).sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  };
  const CHECK_NAMES = fs.readdirSync(path.join(REPO, 'pipelines', 'marts', 'checks')).filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, '')).sort();
  const artifacts = tmp('reii-cli-check-art-');
  const e = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: artifacts, REII_STATE: tmp() });
  const builds = (): string[] => (fs.existsSync(path.join(artifacts, 'builds')) ? fs.readdirSync(path.join(artifacts, 'builds')).sort() : []);
  const currentTarget = (): string | null => { try { return fs.readlinkSync(path.join(artifacts, 'current')); } catch { return null; } };
  interface ManifestCheck { name: string; status: string; failing_rows: number; sample: Record<string, unknown>[] }
  const manifestOf = (dir: string): { status: string; checks: ManifestCheck[] } => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { status: string; checks: ManifestCheck[] };
  /** Runs `reii check` and returns the run, its parsed table (by check name) and the one build folder it left. */
  const check = async (src: string): Promise<{ r: Run; table: Record<string, Record<string, string>>; left: string }> => {
    const before = builds();
    const r = await reii(['check', '--sources', src], e());
    const made = builds().filter((n) => !before.includes(n));
    expect(made, r.stderr).toHaveLength(1);
    const t = parseTable(r.stdout.split('\n').filter((l) => !/^(all checks passed|report): /.test(l)).join('\n'));
    expect(t.columns).toEqual(['check', 'severity', 'status', 'failing_rows', 'note']);
    expect(t.rows.map((row) => row['check']).sort()).toEqual(CHECK_NAMES);
    return { r, table: Object.fromEntries(t.rows.map((row) => [row['check']!, row])), left: path.join(artifacts, 'builds', made[0]!) };
  };

  test('nothing published yet: exit 0 with every check in the table, the drift tests skipped, a warning that does not block; it leaves only <id>.partial with the manifest and report', async () => {
    const { r, table, left } = await check(A.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(path.basename(left)).toMatch(/\.partial$/);
    expect(r.stdout).toContain(`\nreport: ${path.join(left, 'report.html')}\n`);
    expect(r.stdout).toMatch(/^all checks passed: \d+ passed, 1 warnings, \d+ skipped; nothing published$/m);
    expect(table['drift_comps_median']).toMatchObject({ status: 'skipped', severity: 'error', note: expect.stringMatching(/^no build to compare against/) });
    expect(table['drift_row_counts']).toMatchObject({ status: 'skipped' });
    expect(table['market_comps_plausible']).toMatchObject({ status: 'warn', severity: 'warn', failing_rows: '1' });
    expect(table['market_sales']).toMatchObject({ status: 'pass', failing_rows: '0' });
    expect(Object.values(table).filter((row) => row['status'] === 'fail')).toEqual([]);
    // nothing published, no warehouse kept, the lock released
    expect(currentTarget()).toBeNull();
    expect(fs.readdirSync(left).filter((f) => !f.startsWith('.')).sort()).toEqual(expect.arrayContaining(['manifest.json', 'report.html']));
    expect(fs.existsSync(path.join(left, 'warehouse.duckdb'))).toBe(false);
    expect(fs.existsSync(path.join(artifacts, 'build.lock'))).toBe(false);
    const m = manifestOf(left);
    expect(m.status).toBe('partial');
    const plausible = m.checks.find((c) => c.name === 'market_comps_plausible')!;
    expect(plausible.sample).toEqual([expect.objectContaining({ zip: '78703', property_type: 'sfr', lowest_median: median(A.rows, '78703'), highest_median: median(A.rows, '78703') })]);
    expect(fs.readFileSync(path.join(left, 'report.html'), 'utf8')).toContain('<h3 id="check-market_comps_plausible">market_comps_plausible: warning (1 row)</h3>');
  });

  test('reii build over the same sources publishes despite the warning; a check of the same sources against it then runs the drift tests and passes', async () => {
    const b = await reii(['build', '--sources', A.dir], e());
    expect(b.code, b.stderr).toBe(0);
    const published = currentTarget();
    expect(published).not.toBeNull();
    const pm = manifestOf(path.join(artifacts, published!));
    expect(pm.status).toBe('published');
    expect(pm.checks.find((c) => c.name === 'market_comps_plausible')).toMatchObject({ status: 'warn', failing_rows: 1 });

    const { r, table } = await check(A.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(table['drift_comps_median']).toMatchObject({ status: 'pass', failing_rows: '0' });
    expect(table['drift_row_counts']).toMatchObject({ status: 'pass', failing_rows: '0' });
    expect(r.stderr).toContain(`checks compare against ${path.basename(published!)}`);
    expect(currentTarget()).toBe(published);
  });

  test('a market that moved 4x and a sales table that lost two thirds of its rows: exit 4 naming both drift tests, the failing rows in the manifest and report, current untouched', async () => {
    const published = currentTarget();
    expect(published, 'the previous test published a build').not.toBeNull();
    const { r, table, left } = await check(B.dir);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`reii: data checks failed (drift_comps_median, drift_row_counts); failing rows in ${path.join(left, 'report.html')}; nothing published`);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(table['drift_comps_median']).toMatchObject({ status: 'fail', failing_rows: '1' });
    expect(table['drift_row_counts']).toMatchObject({ status: 'fail' });
    expect(Object.values(table).filter((row) => row['status'] === 'fail').map((row) => row['check'])).toEqual(['drift_comps_median', 'drift_row_counts']);
    expect(currentTarget()).toBe(published);
    expect(path.basename(left)).toMatch(/\.partial$/);
    expect(fs.existsSync(path.join(left, 'warehouse.duckdb'))).toBe(false);

    const m = manifestOf(left);
    expect(m.status).toBe('checks_failed');
    const drift = m.checks.find((c) => c.name === 'drift_comps_median')!;
    expect(drift.sample).toHaveLength(1);
    expect(drift.sample[0]).toMatchObject({ zip: '78701', limit_factor: 3 });
    expect(drift.sample[0]!['previous_median']).toBeCloseTo(median(A.rows, '78701'), 9);
    expect(drift.sample[0]!['median']).toBeCloseTo(median(B.rows, '78701'), 9);
    const counts = m.checks.find((c) => c.name === 'drift_row_counts')!;
    expect(counts.sample).toContainEqual(expect.objectContaining({ table_name: 'sales', previous_rows: String(A.rows.length), rows: String(B.rows.length) }));
    const html = fs.readFileSync(path.join(left, 'report.html'), 'utf8');
    expect(html).toContain('<strong>not published: data checks failed (drift_comps_median, drift_row_counts)</strong>');
    expect(html).toMatch(/<h3 id="check-drift_comps_median">drift_comps_median: failed \(1 row\)<\/h3>.*<td>78701<\/td>/s);
  });

  test('a stage that fails exits 3 naming the stage and file; current untouched', async () => {
    const published = currentTarget();
    const before = builds();
    const r = await reii(['check', '--sources', path.join(FIX, 'missing-column')], e());
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^reii: stage sources failed in canonical\/sales\.csv: missing required column\(s\) state, zip/m);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
    expect(currentTarget()).toBe(published);
    expect(builds().filter((n) => !before.includes(n) && !n.endsWith('.failed'))).toEqual([]);
  });
});
