// `npm run bench [-- --parts build,api,...]`: measures each part against a baseline in the same run
// (every part by default, the 5-minute soak last),
// prints a table and writes bench-results/bench-<time>.json. Parts live in scripts/bench/<part>.ts and
// export `run(ctx)`; a part whose data is missing from the build reports "skipped" with the reason.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatTable } from '../bin/cli-format.ts';

export interface BenchRow {
  part: string;
  metric: string;
  value: number | string;
  unit: string;
  baseline?: number | string | null; // the same measurement of the baseline in this run
  ratio?: number | null; // value / baseline (or the ratio the goal is stated in)
  goal?: string;
  pass?: boolean | null;
}

export interface BenchContext {
  repo: string;
  artifacts: string; // a bench artifacts folder with a published full build (made by the build part)
  log: (msg: string) => void;
}

const REPO = path.resolve(import.meta.dirname, '..');
const PARTS = ['build', 'api', 'location', 'autocomplete', 'valuation', 'research', 'market', 'trends', 'property', 'storm', 'soak'];

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: PARTS.join(',') },
    artifacts: { type: 'string', default: path.join(REPO, 'bench-results', 'artifacts') },
  },
});

const ctx: BenchContext = { repo: REPO, artifacts: path.resolve(values.artifacts!), log: (m) => process.stderr.write(`[bench] ${m}\n`) };
const rows: BenchRow[] = [];
for (const part of values.parts!.split(',').map((s) => s.trim()).filter(Boolean)) {
  const file = path.join(import.meta.dirname, 'bench', `${part}.ts`);
  if (!fs.existsSync(file)) { rows.push({ part, metric: 'skipped', value: `no scripts/bench/${part}.ts`, unit: '' }); continue; }
  ctx.log(`part ${part}`);
  try {
    const mod = (await import(file)) as { run(c: BenchContext): Promise<BenchRow[]> };
    rows.push(...(await mod.run(ctx)));
  } catch (err) {
    rows.push({ part, metric: 'error', value: (err as Error).message.slice(0, 200), unit: '' });
  }
}

process.stdout.write(formatTable(rows.map((r) => ({
  part: r.part, metric: r.metric, value: typeof r.value === 'number' ? Number(r.value.toFixed(3)) : r.value, unit: r.unit,
  baseline: typeof r.baseline === 'number' ? Number(r.baseline.toFixed(3)) : (r.baseline ?? ''),
  ratio: typeof r.ratio === 'number' ? Number(r.ratio.toFixed(3)) : '', goal: r.goal ?? '', pass: r.pass === undefined || r.pass === null ? '' : r.pass ? 'yes' : 'NO',
}))));
const outDir = path.join(REPO, 'bench-results');
fs.mkdirSync(outDir, { recursive: true });
const out = path.join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2));
process.stdout.write(`\nwritten ${path.relative(process.cwd(), out)}\n`);
// Parts load live modules in-process (timers, caches): end here rather than wait on their handles.
process.exit(0);
