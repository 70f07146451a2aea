// Location part: point lookups in-process (p50/p99) and over HTTP next to the bare server. The HTTP point run
// cycles through a fixed, seeded set of points (benchPoints: inside the flood maps' boxes, in the ZCTA-polygon
// states, near random zip centroids), so it measures mapped polygon hits, declared-area X, unmapped D and 404s
// alike, not one cached answer; the zip run cycles through the zips of those points.
import path from 'node:path';
import autocannon from 'autocannon';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { LocationEngine } from '../../live/location/endpoint.ts';
import { benchLocation, benchPoints } from '../bench-location.ts';
import { load, startBare, startReal } from './serve.ts';

/** Number of distinct points the HTTP run cycles through. */
const HTTP_POINTS = 500;

interface Mix { points: string[]; zips: string[]; mix: Record<string, number> }

/** The HTTP run's request paths: seeded points, and what the in-process engine answers for each (the mix). */
export function httpMix(dir: string, n = HTTP_POINTS, seed = 2024): Mix {
  const engine = LocationEngine.fromDir(path.join(dir, 'live', 'location'));
  const mix: Record<string, number> = {};
  const zips = new Set<string>();
  const points = benchPoints(dir, n, seed).map(([lat, lng]) => {
    const a = engine.answer(lat, lng);
    const kind = a.ok ? `zone ${(a.body as { flood_zone: string }).flood_zone}` : `error ${a.code}`;
    mix[kind] = (mix[kind] ?? 0) + 1;
    if (a.ok) zips.add((a.body as { zip_code: string }).zip_code);
    return `/v1/location/risk?lat=${lat.toFixed(6)}&lng=${lng.toFixed(6)}`;
  });
  return { points, zips: [...zips].sort().map((z) => `/v1/location/risk?zip=${z}`), mix };
}

/** autocannon over a list of paths, each connection cycling through them in order (deterministic). */
async function loadPaths(base: string, paths: string[], headers: Record<string, string>): Promise<{ rps: number; p99: number; non2xx: number; errors: number }> {
  const r = await autocannon({
    url: base, connections: 50, duration: 8, headers,
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
  });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'location', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const inProcess = await benchLocation(dir);
  const { points, zips, mix } = httpMix(dir);
  const bare = await startBare(path.join(dir, 'shards', 'location', 'zip', '02139.json'));
  const bareRun = await load(`${bare.url}/`);
  await bare.stop();
  const real = await startReal(ctx.repo, ctx.artifacts);
  const headers = { 'X-Service-Key': real.key };
  const pointRun = await loadPaths(real.url, points, headers);
  const zipRun = await loadPaths(real.url, zips, headers);
  await real.stop();
  const mixText = Object.entries(mix).sort().map(([k, v]) => `${k}: ${v}`).join(', ');
  return [
    { part: 'location', metric: `point lookup in-process p50 (${inProcess.n} points)`, value: inProcess.p50_ms, unit: 'ms' },
    { part: 'location', metric: 'point lookup in-process p99', value: inProcess.p99_ms, unit: 'ms', goal: '< 2 ms', pass: inProcess.p99_ms < 2 },
    { part: 'location', metric: 'point lookup in-process p99 (best of 3 per point)', value: inProcess.p99_best_of_3_ms, unit: 'ms' },
    { part: 'location', metric: `GET ?lat&lng over HTTP p99 (${points.length} points; ${mixText})`, value: pointRun.p99, unit: 'ms', baseline: bareRun.p99, goal: '< 50 ms (spec)', pass: pointRun.p99 < 50 && pointRun.errors === 0 },
    { part: 'location', metric: 'GET ?lat&lng req/s', value: pointRun.rps, unit: 'req/s', baseline: bareRun.rps, ratio: pointRun.rps / bareRun.rps },
    { part: 'location', metric: `GET ?zip req/s (${zips.length} zips)`, value: zipRun.rps, unit: 'req/s', baseline: bareRun.rps, ratio: zipRun.rps / bareRun.rps },
  ];
}
