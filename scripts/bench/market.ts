// Market part: the market stages over 1, 4 and 10 million synthetic sales in the canonical format
// (scripts/generate-synthetic.ts), each build in its own process so peak RSS is the build's own.
// Geography comes from ../shared/data (the market stages need zips and cities). Cost must grow linearly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import type { Manifest } from '../../pipelines/build.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';
import { loadSettings } from '../../pipelines/settings.ts';

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
    // The market stages: loading, adapters and marts. Shards are left out: at this scale they are millions of
    // small files, a cost of the file system rather than of the market SQL.
    execFileSync('node', ['--import', 'tsx', 'pipelines/cli.ts', 'build', '--sources', sources, '--artifacts', artifacts, '--log', 'json', '--only', 'sources', 'staging', 'intermediate', 'marts'],
      { cwd: ctx.repo, stdio: 'ignore', env: { ...process.env, REII_STEP_FILTER: filter } });
    const m = JSON.parse(fs.readFileSync(path.join(artifacts, 'current', 'manifest.json'), 'utf8')) as Manifest;
    const marketSeconds = m.stages.flatMap((s) => (s.steps ?? []) as { step: string; seconds: number }[]).filter((s) => MARKET_STEP.test(s.step)).reduce((a, s) => a + s.seconds, 0);
    const sourcesSeconds = m.stages.find((s) => s.name === 'sources')?.seconds ?? 0;
    first ??= { rows: n, seconds: marketSeconds };
    const linear = (marketSeconds / first.seconds) / (n / first.rows);
    rows.push(
      { part: 'market', metric: `${n.toLocaleString('en-US')} sales: loading the sources`, value: sourcesSeconds, unit: 's' },
      { part: 'market', metric: `${n.toLocaleString('en-US')} sales: market steps (adapters, marts)`, value: marketSeconds, unit: 's', goal: n >= 10_000_000 ? '< 300 s' : undefined, pass: n >= 10_000_000 ? marketSeconds < 300 : undefined },
      { part: 'market', metric: `${n.toLocaleString('en-US')} sales: rows per second`, value: n / marketSeconds, unit: 'rows/s' },
      { part: 'market', metric: `${n.toLocaleString('en-US')} sales: peak RSS`, value: m.peak_rss_mb, unit: 'MB', goal: n >= 10_000_000 ? '< 8192 MB' : undefined, pass: n >= 10_000_000 ? m.peak_rss_mb < 8192 : undefined },
      { part: 'market', metric: `${n.toLocaleString('en-US')} sales: cost per row vs ${first.rows.toLocaleString('en-US')}`, value: linear, unit: 'x', goal: 'about 1 (linear)' },
    );
    fs.rmSync(artifacts, { recursive: true, force: true });
  }
  return rows;
}
