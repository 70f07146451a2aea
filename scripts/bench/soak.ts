// Soak part (`npm run bench -- --parts soak`): five minutes at a steady 200 requests/s against the real
// server, in 30-second slices: errors, p99 per slice, and server RSS at start and after each slice.
import autocannon from 'autocannon';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../pipelines/publish.ts';
import { rssMb, startReal } from './serve.ts';

const SLICES = Number(process.env['REII_SOAK_SLICES'] ?? 10);
const SLICE_S = 30;
const RATE = 200;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (!currentBuildDir(ctx.artifacts)) return [{ part: 'soak', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const real = await startReal(ctx.repo, ctx.artifacts);
  const rows: BenchRow[] = [];
  const rssStart = rssMb(real.pid);
  let requests = 0;
  let errors = 0;
  const p99s: number[] = [];
  const paths = ['/v1/geo/lookup?city=Seattle&state=WA', '/v1/location/risk?zip=02139', '/v1/geo/states', '/v1/coverage/summary'];
  try {
    for (let i = 0; i < SLICES; i++) {
      const r = await autocannon({
        url: real.url, connections: 10, duration: SLICE_S, overallRate: RATE,
        requests: paths.map((p) => ({ method: 'GET', path: p, headers: { 'X-Service-Key': real.key } })),
      });
      requests += r.requests.total;
      errors += r.errors + r.timeouts + r.non2xx;
      p99s.push(r.latency.p99);
      rows.push({ part: 'soak', metric: `slice ${i + 1} (${(i + 1) * SLICE_S}s) p99 / RSS`, value: r.latency.p99, unit: 'ms', baseline: Number(rssMb(real.pid).toFixed(1)) });
    }
  } finally {
    await real.stop().catch(() => {});
  }
  const rssEnd = rows.at(-1)?.baseline as number;
  return [
    { part: 'soak', metric: `requests in ${SLICES * SLICE_S}s at ${RATE}/s`, value: requests, unit: 'requests' },
    { part: 'soak', metric: 'errors (non-2xx, timeouts, resets)', value: errors, unit: 'requests', goal: '0', pass: errors === 0 },
    { part: 'soak', metric: 'server RSS end vs start', value: rssEnd, unit: 'MB', baseline: rssStart, ratio: rssEnd / rssStart, goal: 'flat (< 1.25x)', pass: rssEnd / rssStart < 1.25 },
    { part: 'soak', metric: 'p99 first slice vs last slice', value: p99s.at(-1) ?? 0, unit: 'ms', baseline: p99s[0] ?? 0 },
    ...rows,
  ];
}
