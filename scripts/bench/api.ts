// API part: a shard endpoint (/v1/geo/lookup) through the full server (key check, limits, ETag,
// access log) next to a bare node:http server sending the same bytes (body and headers), 50 connections each;
// then the same endpoint with keys and limits in Redis (REII_REDIS_URL, a redis-server of the bench's own)
// against the same bare figure, with the Redis script calls (round trips) per request.
// Each server gets a short warm-up first (JIT, caches) so the measured runs compare steady states.
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { shardPath } from '../../warehouse/layout.ts';
import { load, responseHeaders, rssMb, startBare, startReal, startRedisServer } from './serve.ts';

const WARM_UP_S = 2;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'api', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const sp = shardPath('geo-lookup', { state: 'WA', city: 'Seattle' });
  if (!sp.ok) throw new Error(sp.reason);
  const real = await startReal(ctx.repo, ctx.artifacts);
  const target = `${real.url}/v1/geo/lookup?city=Seattle&state=WA`;
  // The baseline sends the very bytes the real server sends: the same body and the same headers.
  const bare = await startBare(path.join(dir, 'shards', sp.path), await responseHeaders(target, { 'X-Service-Key': real.key }));
  await load(`${bare.url}/`, { duration: WARM_UP_S });
  const bareRun = await load(`${bare.url}/`);
  await bare.stop();
  await load(target, { headers: { 'X-Service-Key': real.key }, duration: WARM_UP_S });
  const rssStart = rssMb(real.pid);
  const realRun = await load(target, { headers: { 'X-Service-Key': real.key } });
  const rssEnd = rssMb(real.pid);
  await real.stop();
  const ratio = realRun.rps / bareRun.rps;
  const p99Ratio = realRun.p99 / Math.max(1, bareRun.p99);
  return [
    { part: 'api', metric: 'bare node:http req/s (same body and headers)', value: bareRun.rps, unit: 'req/s' },
    { part: 'api', metric: 'GET /v1/geo/lookup req/s', value: realRun.rps, unit: 'req/s', baseline: bareRun.rps, ratio, goal: '>= 0.85 of bare', pass: ratio >= 0.85 },
    { part: 'api', metric: 'GET /v1/geo/lookup p50', value: realRun.p50, unit: 'ms', baseline: bareRun.p50 },
    { part: 'api', metric: 'GET /v1/geo/lookup p99', value: realRun.p99, unit: 'ms', baseline: bareRun.p99, ratio: p99Ratio, goal: '<= 1.5x bare', pass: p99Ratio <= 1.5 },
    { part: 'api', metric: 'non-2xx / errors under load', value: realRun.non2xx + realRun.errors, unit: 'requests', goal: '0', pass: realRun.non2xx + realRun.errors === 0 },
    { part: 'api', metric: 'server RSS (start -> after load)', value: rssEnd, unit: 'MB', baseline: rssStart, goal: '< 300 MB', pass: rssEnd < 300 },
    ...(await redisRows(ctx, bareRun.rps)),
  ];
}

/** The same endpoint with keys, windows and monthly counts in Redis: req/s against the same bare figure, and
 *  the script calls (one Redis round trip each) per request. A machine without redis-server gets a row saying so. */
async function redisRows(ctx: BenchContext, bareRps: number): Promise<BenchRow[]> {
  const redis = await startRedisServer();
  if (typeof redis === 'string') return [{ part: 'api', metric: 'Redis mode', value: `skipped: ${redis}`, unit: '' }];
  try {
    const real = await startReal(ctx.repo, ctx.artifacts, { REII_REDIS_URL: redis.url });
    try {
      const target = `${real.url}/v1/geo/lookup?city=Seattle&state=WA`;
      const headers = { 'X-Service-Key': real.key };
      await load(target, { headers, duration: WARM_UP_S });
      const before = await redis.scriptCalls();
      const run = await load(target, { headers });
      const perRequest = ((await redis.scriptCalls()) - before) / Math.max(1, run.total);
      const ratio = run.rps / bareRps;
      return [
        { part: 'api', metric: 'Redis mode GET /v1/geo/lookup req/s', value: run.rps, unit: 'req/s', baseline: bareRps, ratio, goal: '>= 0.6 of bare', pass: ratio >= 0.6 },
        { part: 'api', metric: 'Redis mode p99', value: run.p99, unit: 'ms' },
        { part: 'api', metric: 'Redis mode round trips (script calls) per request', value: perRequest, unit: 'calls', goal: '<= 1', pass: perRequest <= 1 },
        { part: 'api', metric: 'Redis mode non-2xx / errors under load', value: run.non2xx + run.errors, unit: 'requests', goal: '0', pass: run.non2xx + run.errors === 0 },
      ];
    } finally {
      await real.stop();
    }
  } finally {
    await redis.stop();
  }
}
