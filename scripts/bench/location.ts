// Location part: point lookups in-process (p50/p99) and over HTTP next to the bare server.
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../pipelines/publish.ts';
import { benchLocation } from '../bench-location.ts';
import { load, startBare, startReal } from './serve.ts';

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'location', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const inProcess = await benchLocation(dir);
  const bare = await startBare(path.join(dir, 'shards', 'location', 'zip', '02139.json'));
  const bareRun = await load(`${bare.url}/`);
  await bare.stop();
  const real = await startReal(ctx.repo, ctx.artifacts);
  const pointRun = await load(`${real.url}/v1/location/risk?lat=42.3736&lng=-71.1097`, { headers: { 'X-Service-Key': real.key } });
  const zipRun = await load(`${real.url}/v1/location/risk?zip=02139`, { headers: { 'X-Service-Key': real.key } });
  await real.stop();
  return [
    { part: 'location', metric: `point lookup in-process p50 (${inProcess.n} points)`, value: inProcess.p50_ms, unit: 'ms' },
    { part: 'location', metric: 'point lookup in-process p99', value: inProcess.p99_ms, unit: 'ms', goal: '< 2 ms', pass: inProcess.p99_ms < 2 },
    { part: 'location', metric: 'point lookup in-process p99 (best of 3 per point)', value: inProcess.p99_best_of_3_ms, unit: 'ms' },
    { part: 'location', metric: 'GET ?lat&lng over HTTP p99', value: pointRun.p99, unit: 'ms', baseline: bareRun.p99, goal: '< 50 ms (spec)', pass: pointRun.p99 < 50 },
    { part: 'location', metric: 'GET ?lat&lng req/s', value: pointRun.rps, unit: 'req/s', baseline: bareRun.rps, ratio: pointRun.rps / bareRun.rps },
    { part: 'location', metric: 'GET ?zip req/s', value: zipRun.rps, unit: 'req/s', baseline: bareRun.rps, ratio: zipRun.rps / bareRun.rps },
  ];
}
