// API part: a shard endpoint (/v1/geo/lookup) through the full server (key check, limits, ETag,
// access log) next to a bare node:http server sending the same bytes (body and headers), 50 connections each.
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { shardPath } from '../../warehouse/layout.ts';
import { load, responseHeaders, rssMb, startBare, startReal } from './serve.ts';

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'api', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const sp = shardPath('geo-lookup', { state: 'WA', city: 'Seattle' });
  if (!sp.ok) throw new Error(sp.reason);
  const real = await startReal(ctx.repo, ctx.artifacts);
  const target = `${real.url}/v1/geo/lookup?city=Seattle&state=WA`;
  // The baseline sends the very bytes the real server sends: the same body and the same headers.
  const bare = await startBare(path.join(dir, 'shards', sp.path), await responseHeaders(target, { 'X-Service-Key': real.key }));
  const bareRun = await load(`${bare.url}/`);
  await bare.stop();
  const rssStart = rssMb(real.pid);
  const realRun = await load(target, { headers: { 'X-Service-Key': real.key } });
  const rssEnd = rssMb(real.pid);
  await real.stop();
  const ratio = realRun.rps / bareRun.rps;
  return [
    { part: 'api', metric: 'bare node:http req/s (same body and headers)', value: bareRun.rps, unit: 'req/s' },
    { part: 'api', metric: 'GET /v1/geo/lookup req/s', value: realRun.rps, unit: 'req/s', baseline: bareRun.rps, ratio, goal: '>= 0.70 of bare', pass: ratio >= 0.7 },
    { part: 'api', metric: 'GET /v1/geo/lookup p50', value: realRun.p50, unit: 'ms', baseline: bareRun.p50 },
    { part: 'api', metric: 'GET /v1/geo/lookup p99', value: realRun.p99, unit: 'ms', baseline: bareRun.p99, goal: '< 5 ms', pass: realRun.p99 < 5 },
    { part: 'api', metric: 'non-2xx / errors under load', value: realRun.non2xx + realRun.errors, unit: 'requests', goal: '0', pass: realRun.non2xx + realRun.errors === 0 },
    { part: 'api', metric: 'server RSS (start -> after load)', value: rssEnd, unit: 'MB', baseline: rssStart, goal: '< 300 MB', pass: rssEnd < 300 },
  ];
}
