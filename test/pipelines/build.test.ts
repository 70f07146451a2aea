// The build's contract with the data engineer: missing sources are skipped and recorded, malformed rows
// land in rejects with file and line, a failed stage or a killed build never touches `current`, and two
// builds at once are refused. Runs over small source folders: symlinks into ../shared/data plus
// hand-written canonical files. The tests of what a build does to the one already served start from a copy of one
// published Louisville build made once per run (../helpers/small-build.ts); every build they test runs here.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runBuild } from '../../pipelines/build.ts';
import { type Manifest } from '../../pipelines/manifest.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { acquireLock } from '../../pipelines/publish.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { CliError, EXIT, StageError } from '../../warehouse/errors.ts';
import { openWarehouse, queryRows, withConnection } from '../../warehouse/db.ts';
import { REPO, SHARED_DATA } from '../helpers/paths.ts';
import { PINNED_NOW } from '../helpers/clock.ts';
import { reii, type Run } from '../helpers/cli.ts';
import { publishedSmallBuild, smallSources } from '../helpers/small-build.ts';

const SHARED = SHARED_DATA;
const NOW = PINNED_NOW;

function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A sources folder holding symlinks to some real source folders and optional canonical CSV files. */
function sources(folders: string[], canonical: Record<string, string> = {}): string {
  const dir = tmp('reii-src-');
  for (const f of folders) fs.symlinkSync(path.join(SHARED, f), path.join(dir, f));
  if (Object.keys(canonical).length) {
    fs.mkdirSync(path.join(dir, 'canonical'));
    for (const [name, text] of Object.entries(canonical)) fs.writeFileSync(path.join(dir, 'canonical', name), text);
  }
  return dir;
}

const SALES_HEADER = 'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng';

async function rows<T>(buildDir: string, sql: string): Promise<T[]> {
  const wh = await openWarehouse(path.join(buildDir, 'warehouse.duckdb'), { readOnly: true });
  try { return await withConnection(wh, (c) => queryRows<T>(c, sql)); } finally { wh.close(); }
}

describe('reii build', () => {
  test('absent sources are skipped with a warning and recorded as absent in the manifest', async () => {
    const artifacts = tmp('reii-art-');
    const warnings: string[] = [];
    const log = { ...silentLogger, warn: (m: string) => { warnings.push(m); } };
    const result = await runBuild({ settings: loadSettings({ artifacts, sources: sources(['louisville-metro-lien-foreclosures']) }), log, now: NOW });
    expect(result.published).toBe(true);
    const m = JSON.parse(fs.readFileSync(path.join(result.dir, 'manifest.json'), 'utf8')) as Manifest;
    const byId = new Map((m.sources as { id: string; present: boolean; files: { sha256: string; rows: number }[] }[]).map((s) => [s.id, s]));
    expect(byId.get('louisville')).toMatchObject({ present: true, files: [{ rows: 396 }] });
    expect(byId.get('louisville')!.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(byId.get('king_county')!.present).toBe(false);
    expect(warnings.some((w) => w.includes('king_county absent'))).toBe(true);
    expect(m.format_version).toBe(1);
    expect(m.as_of).toBe('2026-11-21');
    expect(m.stages.map((s) => s.name)).toEqual(['sources', 'staging', 'intermediate', 'marts', 'shards']);
    const steps = m.stages.flatMap((s) => (s.steps ?? []) as { step: string; status: string; seconds: number; peak_rss_mb?: number }[]).filter((s) => s.status === 'ran');
    expect(steps.length).toBeGreaterThan(10);
    for (const s of steps) expect(s.peak_rss_mb, s.step).toBeGreaterThan(20); // a Node process with DuckDB loaded is never under 20 MB
    const report = fs.readFileSync(path.join(result.dir, 'report.html'), 'utf8');
    expect(report).toContain('louisville');
    expect(report).toContain('Slowest steps');
    expect(currentBuildDir(artifacts)).toBe(result.dir);
  });

  test('a malformed CSV row goes to meta.rejects with file, line, rule and column; the rest loads; the manifest and report count them', async () => {
    const artifacts = tmp('reii-art-');
    const csv = [SALES_HEADER,
      '1 MAIN ST,SEATTLE,WA,98101,2024-01-05,500000,sfr,3,2,1500,1990,good,47.6,-122.3',
      '2 MAIN ST,SEATTLE,WA,98101,2024-01-06', // line 3: too few columns (the CSV parser rejects it)
      '3 MAIN ST,SEATTLE,WA,98101,2024-01-07,510000,sfr,3,2,1600,1991,good,47.6,-122.3',
      '4 MAIN ST,SEATTLE,WA,98101,2024-01-08,-5,sfr,3,2,1600,1991,good,47.6,-122.3', // line 5: negative price (row rule)
      '5 MAIN ST,SEATTLE,WA,98101,2024-01-09,520000,sfr,3,2,1700,1992,good,47.6,-122.3'].join('\n') + '\n';
    // 2 of 5 rows rejected is far over the reject-share gate (tested in sources/rejects.test.ts): lifted here to see the rows land
    const result = await runBuild({ settings: loadSettings({ artifacts, sources: sources([], { 'sales.csv': csv }), rejectMaxShare: '1', geographyRequired: '0' /* a canonical file alone (canonical-geography.test.ts) */ }), log: silentLogger, now: NOW });
    const rejects = await rows<{ stage: string; file: string; line: number; rule: string; column_name: string | null; reason: string }>(result.dir,
      `select stage, file, line::int as line, rule, column_name, reason from meta.rejects where source = 'canonical' order by line`);
    expect(rejects.map(({ stage, line, rule, column_name, reason }) => ({ stage, line, rule, column_name, reason }))).toEqual([
      { stage: 'sources', line: 3, rule: 'wrong_column_count', column_name: null, reason: 'wrong_column_count' },
      { stage: 'intermediate', line: 5, rule: 'out_of_range', column_name: 'sale_price', reason: 'out_of_range' },
    ]);
    for (const r of rejects) expect(r.file).toContain('canonical/sales.csv');
    const loaded = await rows<{ n: number }>(result.dir, `select count(*)::int as n from raw."canonical__sales"`);
    expect(loaded[0]!.n).toBe(4);
    // Every loaded sale keeps the line it came from: the address number says which line that is.
    const sales = await rows<{ address: string; line: number }>(result.dir, `select address, line::int as line from sales where source = 'canonical' order by line`);
    expect(sales.map((s) => [s.address.split(' ')[0], s.line])).toEqual([['1', 2], ['3', 4], ['5', 6]]);
    expect(result.manifest.rejects.total).toBe(2);
    expect(result.manifest.rejects.by_source).toEqual([
      { source: 'canonical', rule: 'out_of_range', rows: 1, breaks_contract: true },
      { source: 'canonical', rule: 'wrong_column_count', rows: 1, breaks_contract: true },
    ]);
    // 5 data lines: 4 loaded and 1 the parser refused; 2 broke the contract
    expect(result.manifest.rejects.by_file).toEqual([{ source: 'canonical', file: 'canonical/sales.csv', rows: 5, rejected: 2, share: 0.4,
      top: [{ rule: 'out_of_range', column: 'sale_price', rows: 1 }, { rule: 'wrong_column_count', column: null, rows: 1 }] }]);
    const report = fs.readFileSync(path.join(result.dir, 'report.html'), 'utf8');
    expect(report).toContain('<td>canonical</td><td>out_of_range</td><td>yes</td><td>1</td>');
    expect(report).toContain('<td>canonical/sales.csv</td><td>5</td><td>2</td><td>40.00%</td><td>out_of_range (sale_price): 1, wrong_column_count: 1</td>');
  });

  test('a source file that cannot be read fails the sources stage naming the file (exit 3)', async () => {
    const artifacts = tmp('reii-art-');
    const src = sources([]);
    fs.mkdirSync(path.join(src, 'zcta-boundaries-2010', 'zctas.json'), { recursive: true }); // a folder where a GeoJSON file belongs
    const err = await runBuild({ settings: loadSettings({ artifacts, sources: src }), log: silentLogger, now: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    expect((err as CliError).exitCode).toBe(EXIT.stage);
    expect((err as Error).message).toMatch(/^stage sources failed in zcta-boundaries-2010\/zctas\.json: .*EISDIR/);
    expect(currentBuildDir(artifacts)).toBeNull();
  });

  test('a failed data check exits 4: the build is kept as <id>.failed with status checks_failed, current untouched', async () => {
    const { artifacts, dir: goodDir } = await publishedSmallBuild();
    // The real states table without one state: the geo_states check wants the 50 states and DC.
    const src = sources([]);
    fs.mkdirSync(path.join(src, 'usgeo-census-tables'));
    const states = fs.readFileSync(path.join(SHARED, 'usgeo-census-tables', 'states.csv'), 'utf8').split('\n');
    fs.writeFileSync(path.join(src, 'usgeo-census-tables', 'states.csv'), states.filter((_, i) => i !== 5).join('\n'));
    const err = await runBuild({ settings: loadSettings({ artifacts, sources: src }), log: silentLogger, now: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.checks);
    expect((err as Error).message).toMatch(/^data checks failed \((.+, )?geo_states(, .+)?\)/);
    expect(currentBuildDir(artifacts)).toBe(goodDir);
    const failed = fs.readdirSync(path.join(artifacts, 'builds')).filter((n) => n.endsWith('.failed'));
    expect(failed).toHaveLength(1);
    const m = JSON.parse(fs.readFileSync(path.join(artifacts, 'builds', failed[0]!, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.status).toBe('checks_failed');
    expect(fs.readFileSync(path.join(artifacts, 'builds', failed[0]!, 'report.html'), 'utf8')).toContain('not published: data checks failed');
    expect((m.checks as { name: string; status: string }[]).find((c) => c.name === 'geo_states')?.status).toBe('fail');
    expect((JSON.parse(fs.readFileSync(path.join(goodDir, 'manifest.json'), 'utf8')) as Manifest).status).toBe('published');
  });

  test('a build that wrote no shards is not published (exit 3)', async () => {
    const { artifacts, dir: goodDir } = await publishedSmallBuild();
    const settings = loadSettings({ artifacts, sources: smallSources() });
    const err = await runBuild({ settings, log: silentLogger, now: NOW, beforePublish: (dir) => fs.rmSync(path.join(dir, 'shards'), { recursive: true }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    expect((err as CliError).exitCode).toBe(EXIT.stage);
    expect((err as Error).message).toContain('stage shards failed in shards/: the build wrote no shard files');
    expect(currentBuildDir(artifacts)).toBe(goodDir);
  });

  test('a failed stage names the file and cause, exits 3, and leaves current untouched', async () => {
    const { artifacts, dir: goodDir } = await publishedSmallBuild();
    const bad = sources([], { 'sales.csv': 'address,city\n1 MAIN ST,SEATTLE\n' });
    const err = await runBuild({ settings: loadSettings({ artifacts, sources: bad, geographyRequired: '0' }), log: silentLogger, now: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.stage);
    expect((err as Error).message).toMatch(/stage sources failed in canonical\/sales\.csv: missing required column\(s\) state, zip/);
    expect(currentBuildDir(artifacts)).toBe(goodDir);
    expect(fs.readdirSync(path.join(artifacts, 'builds')).some((n) => n.endsWith('.failed'))).toBe(true);
  });

  test('a second build while one holds the lock refuses with exit code 5', async () => {
    const artifacts = tmp('reii-art-');
    const release = acquireLock(artifacts);
    try {
      const err = await runBuild({ settings: loadSettings({ artifacts, sources: sources([]) }), log: silentLogger, now: NOW }).catch((e: unknown) => e);
      expect((err as CliError).exitCode).toBe(EXIT.locked);
      expect((err as Error).message).toContain('another build is running');
    } finally {
      release();
    }
  });

  test('a build killed mid-way leaves the served build intact, and the next build takes over its stale lock', async () => {
    const { artifacts, dir: firstDir } = await publishedSmallBuild();
    const big = sources(['nyc-rolling-sales', 'chicago-building-permits', 'redfin-zip-market-snapshots']);
    // The build as one node process (no npx wrapper in between): the process SIGKILL hits is the one holding
    // the lock, and its 'exit' event comes after it has been reaped, so nothing of it is left running.
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/cli.ts', 'build', '--sources', big, '--artifacts', artifacts, '--log', 'json'], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => { if (d.toString().includes('loaded nyc')) resolve(); });
      child.on('exit', () => resolve());
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL'); // killed mid-way, not finished
    expect(currentBuildDir(artifacts)).toBe(firstDir);
    const lock = JSON.parse(fs.readFileSync(path.join(artifacts, 'build.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(child.pid); // the stale lock is the killed build's
    const next = await runBuild({ settings: loadSettings({ artifacts, sources: smallSources() }), log: silentLogger, now: NOW });
    expect(currentBuildDir(artifacts)).toBe(next.dir);
  });

  test('--only reruns from the earliest named stage through shards on the current warehouse; pruning keeps current and previous', async () => {
    const { artifacts, dir: firstDir } = await publishedSmallBuild();
    const settings = loadSettings({ artifacts, sources: smallSources(), keepBuilds: '1' });
    const first = JSON.parse(fs.readFileSync(path.join(firstDir, 'manifest.json'), 'utf8')) as Manifest;
    const second = await runBuild({ settings, log: silentLogger, now: NOW, only: ['marts'] });
    expect(second.manifest.stages.map((s) => s.name)).toEqual(['marts', 'shards']);
    expect(second.manifest.only_stages).toEqual(['marts']);
    expect(second.manifest.shards.total).toBe(first.shards.total);
    expect(second.manifest.shards.total).toBeGreaterThan(0);
    const raw = await rows<{ n: number }>(second.dir, `select count(*)::int as n from raw."louisville__foreclosures"`);
    expect(raw[0]!.n).toBe(396);
    // --keep 1 still keeps the build that was current a moment ago: a running server may answer from it.
    expect(fs.existsSync(path.join(firstDir, 'manifest.json'))).toBe(true);
    const third = await runBuild({ settings, log: silentLogger, now: NOW, only: ['shards', 'intermediate'] });
    expect(third.manifest.stages.map((s) => s.name)).toEqual(['intermediate', 'marts', 'shards']);
    expect(fs.readdirSync(path.join(artifacts, 'builds')).filter((n) => !n.endsWith('.failed')).sort())
      .toEqual([path.basename(second.dir), path.basename(third.dir)]);
  });

  test('--until stops after a stage: the build is kept as <id>.partial with its manifest, never published, and pruned like a failed one', async () => {
    const { artifacts, dir: servedDir } = await publishedSmallBuild();
    const settings = loadSettings({ artifacts, sources: smallSources(), keepBuilds: '1' });
    const partial = await runBuild({ settings, log: silentLogger, now: NOW, until: 'marts' });
    expect(partial.published).toBe(false);
    expect(partial.dir.endsWith('.partial')).toBe(true);
    expect(partial.manifest.status).toBe('partial');
    expect(partial.manifest.stages.map((s) => s.name)).toEqual(['sources', 'staging', 'intermediate', 'marts']);
    expect(fs.existsSync(path.join(partial.dir, 'shards'))).toBe(false);
    const kept = JSON.parse(fs.readFileSync(path.join(partial.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(kept.status).toBe('partial');
    const raw = await rows<{ n: number }>(partial.dir, `select count(*)::int as n from raw."louisville__foreclosures"`);
    expect(raw[0]!.n).toBe(396);
    expect(currentBuildDir(artifacts)).toBe(servedDir);
    // --until before the first stage --only names is a usage error
    const err = await runBuild({ settings, log: silentLogger, now: NOW, only: ['marts'], until: 'staging' }).catch((e: unknown) => e);
    expect((err as CliError).exitCode).toBe(EXIT.usage);
    // two publishes later, with --keep 1, the partial build is gone like an old failed one (publishing is what prunes,
    // whatever the stages: --only shards publishes in a fraction of a full build's time)
    await runBuild({ settings, log: silentLogger, now: NOW, only: ['shards'] });
    await runBuild({ settings, log: silentLogger, now: NOW, only: ['shards'] });
    expect(fs.existsSync(partial.dir)).toBe(false);
  });
});

describe('reii CLI', () => {
  const cli = (args: string[]): Promise<Run> => reii(args, process.env, 90_000, REPO);
  test('--help on every command', async () => {
    for (const cmd of [[], ['build'], ['serve'], ['start'], ['keys'], ['keys', 'create'], ['sources'], ['sources', 'pull'], ['query']]) {
      const r = await cli([...cmd, '--help']);
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout).toContain('Usage: reii');
    }
  }, 600_000); // two builds and a partial one: minutes on a loaded two-core machine
  test('a missing sources folder and an unknown stage are usage errors (exit 2)', async () => {
    const missing = await cli(['build', '--sources', '/nonexistent/reii', '--artifacts', tmp('reii-art-')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/reii does not exist');
    const stage = await cli(['build', '--only', 'cooking', '--artifacts', tmp('reii-art-')]);
    expect(stage.code).toBe(2);
    expect(stage.stderr).toContain('unknown stage(s) cooking');
  });
  test('--log json writes JSON lines', async () => {
    const r = await cli(['build', '--sources', sources(['louisville-metro-lien-foreclosures']), '--artifacts', tmp('reii-art-'), '--log', 'json']);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) });
  });
  test('query prints a table, CSV or JSON and refuses writes', async () => {
    const { artifacts } = await publishedSmallBuild();
    const json = await cli(['query', `select count(*)::int as n from raw."louisville__foreclosures"`, '--artifacts', artifacts, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([{ n: 396 }]);
    const csv = await cli(['query', `select 1 as a, 'x,y' as b`, '--artifacts', artifacts, '--format', 'csv']);
    expect(csv.stdout).toBe('a,b\n1,"x,y"\n');
    const write = await cli(['query', 'drop table raw."louisville__foreclosures"', '--artifacts', artifacts]);
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/read-only/i);
  });
});
