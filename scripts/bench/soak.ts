// Soak part (`npm run bench -- --parts soak`): five minutes at a steady 200 requests/s against the real
// server over eight keyed endpoints, in 30-second slices: errors, p99 per slice, and server RSS at start and
// after each slice.
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
  // A mix of keyed endpoints (shards and live ones). Public endpoints are left out: their per-address limit
  // would refuse a steady 200/s from one client by design.
  const headers = { 'X-Service-Key': real.key };
  const mix = [
    ...['/v1/geo/lookup?city=Seattle&state=WA', '/v1/location/risk?zip=02139', '/v1/location/risk?lat=47.61&lng=-122.33', '/v1/market/comps?zip=98103',
      '/v1/market/rehab-score?zip=37206', '/v1/regulations/lookup?state=CA', '/v1/address/autocomplete?q=15%20Broad'].map((p) => ({ method: 'GET' as const, path: p, headers })),
    { method: 'POST' as const, path: '/v1/valuation/estimate', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ address: '123 Main St', zip: '98103', beds: 3, baths: 2, sqft: 1500 }) },
  ];
  try {
    for (let i = 0; i < SLICES; i++) {
      const r = await autocannon({
        url: real.url, connections: 10, duration: SLICE_S, overallRate: RATE,
        requests: mix,
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
