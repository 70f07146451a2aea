// Soak part (part of the default `npm run bench`; alone: `npm run bench -- --parts soak`): a warm-up slice,
// then five minutes at a steady 200 requests/s against the real server over eight keyed endpoints, in
// 30-second slices. The starting RSS is taken after the warm-up (caches filled, JIT settled), so growth
// measures what the steady load keeps, not what the first requests load. Reported: requests, errors,
// RSS at start and end, and per slice its p99 and the RSS growth since the start.
import autocannon from 'autocannon';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { rssMb, startReal } from './serve.ts';

const SLICES = Number(process.env['REII_SOAK_SLICES'] ?? 10);
const SLICE_S = Number(process.env['REII_SOAK_SLICE_S'] ?? 30);
const WARMUP_S = Number(process.env['REII_SOAK_WARMUP_S'] ?? 20);
const RATE = 200;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (!currentBuildDir(ctx.artifacts)) return [{ part: 'soak', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const real = await startReal(ctx.repo, ctx.artifacts);
  const slices: BenchRow[] = [];
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
  const slice = (seconds: number) => autocannon({ url: real.url, connections: 10, duration: seconds, overallRate: RATE, requests: mix });
  const rssBeforeWarmup = rssMb(real.pid);
  let rssStart = rssBeforeWarmup;
  let rssEnd = rssBeforeWarmup;
  let warmupErrors = 0;
  try {
    const warm = await slice(WARMUP_S);
    warmupErrors = warm.errors + warm.timeouts + warm.non2xx;
    rssStart = rssMb(real.pid);
    for (let i = 0; i < SLICES; i++) {
      const r = await slice(SLICE_S);
      requests += r.requests.total;
      errors += r.errors + r.timeouts + r.non2xx;
      p99s.push(r.latency.p99);
      const rss = rssMb(real.pid);
      rssEnd = rss;
      const at = `slice ${i + 1} (${(i + 1) * SLICE_S}s)`;
      slices.push(
        { part: 'soak', metric: `${at} p99`, value: r.latency.p99, unit: 'ms' },
        { part: 'soak', metric: `${at} RSS growth since start`, value: Number((rss - rssStart).toFixed(1)), unit: 'MB', baseline: Number(rssStart.toFixed(1)) },
      );
    }
  } finally {
    await real.stop().catch(() => {});
  }
  const ratio = rssEnd / rssStart;
  return [
    { part: 'soak', metric: `requests in ${SLICES * SLICE_S}s at ${RATE}/s (after ${WARMUP_S}s warm-up)`, value: requests, unit: 'requests' },
    { part: 'soak', metric: 'errors (non-2xx, timeouts, resets)', value: errors, unit: 'requests', goal: '0', pass: errors === 0 },
    { part: 'soak', metric: 'warm-up errors', value: warmupErrors, unit: 'requests', goal: '0', pass: warmupErrors === 0 },
    { part: 'soak', metric: 'server RSS before warm-up', value: Number(rssBeforeWarmup.toFixed(1)), unit: 'MB' },
    { part: 'soak', metric: 'server RSS end vs start (after warm-up)', value: Number(rssEnd.toFixed(1)), unit: 'MB', baseline: Number(rssStart.toFixed(1)), ratio, goal: 'flat (< 1.25x)', pass: ratio < 1.25 },
    { part: 'soak', metric: 'p99 last slice vs first slice', value: p99s.at(-1) ?? 0, unit: 'ms', baseline: p99s[0] ?? 0, ratio: p99s[0] ? (p99s.at(-1) ?? 0) / p99s[0] : null },
    ...slices,
  ];
}
