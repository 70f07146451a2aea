// Market part: the market stages over 1, 4 and 10 million synthetic sales in the canonical format
// (scripts/generate-synthetic.ts), each build in its own process so peak RSS is the build's own.
// Geography comes from ../shared/data (the market stages need zips and cities). Cost must grow linearly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import type { Manifest } from '../../pipelines/manifest.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';
import { loadSettings } from '../../warehouse/settings.ts';

const SIZES = (process.env['REII_BENCH_MARKET_ROWS'] ?? '1000000,4000000,10000000').split(',').map(Number);
const GEO = ['simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk', 'usps_locale', 'zip_reference'];
const MARKET_STEP = /market|comps|rehab|investor|canonical/;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const shared = loadSettings().sources;
  const root = path.join(ctx.repo, 'bench-results', 'market');
  const rows: BenchRow[] = [];
  let first: { rows: number; seconds: number } | null = null;
  for (const n of SIZES) {
    const sources = path.join(root, `sources-${n}`);
    if (!fs.existsSync(path.join(sources, 'canonical', 'sales.csv'))) {
      fs.rmSync(sources, { recursive: true, force: true });
      fs.mkdirSync(sources, { recursive: true });
      for (const s of SOURCES.filter((x) => GEO.includes(x.id))) fs.symlinkSync(path.join(shared, s.folder), path.join(sources, s.folder));
      const t = performance.now();
      execFileSync('node', ['--import', 'tsx', 'scripts/generate-synthetic.ts', '--rows', String(n), '--out', sources, '--seed', '1'], { cwd: ctx.repo, stdio: 'ignore' }); // writes <out>/canonical/*.csv
      rows.push({ part: 'market', metric: `generate ${n.toLocaleString('en-US')} synthetic sales`, value: (performance.now() - t) / 1000, unit: 's' });
    }
    const artifacts = path.join(root, `artifacts-${n}`);
    fs.rmSync(artifacts, { recursive: true, force: true });
    const filter = ['market', 'comps', 'rehab', 'investor', 'canonical', 'geo', ...GEO].join(',');
    // The market stages: loading, adapters and marts (`--until marts`: the build is kept as builds/<id>.partial,
    // not published). Shards are left out: at this scale they are millions of small files, a cost of the file
    // system rather than of the market SQL.
    execFileSync('node', ['--import', 'tsx', 'bin/cli.ts', 'build', '--sources', sources, '--artifacts', artifacts, '--log', 'json', '--until', 'marts'],
      { cwd: ctx.repo, stdio: 'ignore', env: { ...process.env, REII_STEP_FILTER: filter } });
    const partial = fs.readdirSync(path.join(artifacts, 'builds')).find((n) => n.endsWith('.partial'));
    if (!partial) throw new Error(`the ${n}-sales build kept no partial build in ${artifacts}`);
    const m = JSON.parse(fs.readFileSync(path.join(artifacts, 'builds', partial, 'manifest.json'), 'utf8')) as Manifest;
    const marketSeconds = m.stages.flatMap((s) => (s.steps ?? []) as { step: string; seconds: number }[]).filter((s) => MARKET_STEP.test(s.step)).reduce((a, s) => a + s.seconds, 0);
    const sourcesSeconds = m.stages.find((s) => s.name === 'sources')?.seconds ?? 0;
    // The goal is on loading plus the market steps: the sales have to be read before they can be used.
    const total = sourcesSeconds + marketSeconds;
    first ??= { rows: n, seconds: total };
    const linear = (total / first.seconds) / (n / first.rows);
    const big = n >= 10_000_000;
    const label = `${n.toLocaleString('en-US')} sales`;
    rows.push(
      { part: 'market', metric: `${label}: loading the sources`, value: sourcesSeconds, unit: 's' },
      { part: 'market', metric: `${label}: market steps (adapters, marts)`, value: marketSeconds, unit: 's' },
      { part: 'market', metric: `${label}: loading + market steps`, value: total, unit: 's', goal: big ? '< 300 s' : undefined, pass: big ? total < 300 : undefined },
      { part: 'market', metric: `${label}: rows per second (loading + market steps)`, value: n / total, unit: 'rows/s' },
      { part: 'market', metric: `${label}: peak RSS`, value: m.peak_rss_mb, unit: 'MB', goal: big ? '< 8192 MB' : undefined, pass: big ? m.peak_rss_mb < 8192 : undefined },
      { part: 'market', metric: `${label}: cost per row vs ${first.rows.toLocaleString('en-US')}`, value: linear, unit: 'x', goal: 'at most about 1 (linear or better)', pass: linear <= 1.25 },
    );
    fs.rmSync(artifacts, { recursive: true, force: true });
  }
  return rows;
}
