// `reii build` (and `start` with nothing published) and `reii check` as real processes (node bin/reii.js, through
// test/helpers/cli.ts): their exit statuses, stdout and stderr as an operator sees them, and what they leave in the
// artifacts folder. The builds run over the tiny hand-written source folders in test/fixtures/cli/ and over sales
// generated here; values are checked against counts this file makes itself, never against the CLI.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { FIX, STACK_LINE, cleanupCli, env, get, parseTable, reii, served, stop, tmp, until, type Run } from '../helpers/cli.ts';
import { REPO } from '../helpers/paths.ts';

afterAll(cleanupCli);

// Every build or check here is a process of its own: on a loaded CI machine one has taken over 90 s (the helper's
// default deadline). Each run gets 180 s and a test, which makes up to three runs, 10 minutes, so a slow machine is
// not reported as a failure of the code (a run cut by its deadline would also leave its build lock to the next test).
const RUN_MS = 180_000;
vi.setConfig({ testTimeout: 600_000 });

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
      const r = await reii(['build', '--sources', path.join(FIX, 'good')], base(), RUN_MS);
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
    const r = await reii(['build', '--sources', src], base(), RUN_MS);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^reii: stage sources failed in canonical\/sales\.csv: missing required column\(s\) state, zip/m);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
    expect(currentTarget()).toBe(current);
    expect(lockPid()).toBeUndefined();

    const debug = await reii(['--debug', 'build', '--sources', src], base(), RUN_MS);
    expect(debug.code).toBe(3);
    expect(debug.stderr).toMatch(/^reii: stage sources failed in canonical\/sales\.csv/m);
    expect(debug.stderr).toMatch(/at .*pipelines\/sources\/\S+\.ts:\d+/);
    expect(currentTarget()).toBe(current);
  });

  test('failed data checks exit 4: the build is kept as <id>.failed with status checks_failed, current untouched', async () => {
    const current = currentTarget();
    expect(current, 'the first test published a build').not.toBeNull();
    const failedBefore = builds().filter((n) => n.endsWith('.failed'));
    const r = await reii(['build', '--sources', path.join(FIX, 'two-states')], base(), RUN_MS);
    expect(r.code, r.stderr).toBe(4);
    const failed = builds().filter((n) => n.endsWith('.failed') && !failedBefore.includes(n));
    expect(failed).toHaveLength(1);
    // geo_states (two states, not 51), drift_sources (no canonical folder) and drift_row_counts: these sources have no sales, so the 330 mart_comps rows
    // of the published build over `good` (3 zips x 5 types x 22 windows) are gone
    expect(r.stderr).toContain(`reii: data checks failed (drift_row_counts, drift_sources, geo_states); build kept in ${path.join(artifacts, 'builds', failed[0]!)}, current untouched\n`);
    expect(r.stderr).not.toMatch(STACK_LINE);
    const m = JSON.parse(fs.readFileSync(path.join(artifacts, 'builds', failed[0]!, 'manifest.json'), 'utf8')) as { status: string; checks: { name: string; status: string; sample: unknown[] }[] };
    expect(m.status).toBe('checks_failed');
    expect(m.checks.find((c) => c.name === 'geo_states')?.status).toBe('fail');
    const drift = m.checks.find((c) => c.name === 'drift_row_counts') as { status: string; sample: { table_name: string }[] };
    expect(drift.status).toBe('fail');
    expect(drift.sample).toContainEqual({ table_name: 'mart_comps', previous_rows: '330', rows: '0', change_share: 1, limit_share: 0.5 });
    // issue 23: the monthly series of those sales (3 zips and their cities x 5 types x 60 months) are gone too
    expect(drift.sample.map((r) => r.table_name).sort()).toEqual(['market_monthly', 'mart_comps']);
    // review 19: the published build's canonical source is gone from these sources, its markets with it
    expect(m.checks.find((c) => c.name === 'drift_sources')).toMatchObject({ status: 'fail', sample: [expect.objectContaining({ source: 'canonical' })] });
    expect(currentTarget()).toBe(current);
    expect(lockPid()).toBeUndefined();
  });

  test('build --only with nothing published exits 6', async () => {
    const empty = tmp('reii-cli-art-');
    const r = await reii(['build', '--only', 'marts', '--artifacts', empty, '--sources', path.join(FIX, 'good')], base(), RUN_MS);
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
    const r = await reii(['check', '--sources', src], e(), RUN_MS);
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
    const b = await reii(['build', '--sources', A.dir], e(), RUN_MS);
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
    const r = await reii(['check', '--sources', path.join(FIX, 'missing-column')], e(), RUN_MS);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^reii: stage sources failed in canonical\/sales\.csv: missing required column\(s\) state, zip/m);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
    expect(currentTarget()).toBe(published);
    expect(builds().filter((n) => !before.includes(n) && !n.endsWith('.failed'))).toEqual([]);
  });
});
