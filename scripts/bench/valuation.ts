// Valuation part: POST /v1/valuation/estimate. In-process p50/p99 of the live module's answer() (with its subject and
// comps, and, alternating, the estimate alone as the baseline of the same run) over subjects of every market the build
// has, in turn (a third each: by address key or parcel id (recorded subjects), by an unknown street address with the
// request's sqft (the zip's typical property with it) and by an unknown address without sqft (the zip's typical
// property)), then the full server over HTTP (autocannon, 10 connections) with goal p99 < 20 ms: a mix of recorded
// subjects over every market, then one of unknown addresses. The server's RSS is read after a warm-up that has valued
// every market (a server answering one market only holds less: the bench measured 303 MB on King County alone).
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { ValuationEngine, type ValuationInput } from '../../live/valuation/endpoint.ts';
import { valuesUnits } from '../../live/valuation/coverage.ts';
import { load, rssMb, startReal } from './serve.ts';

const SUBJECTS = 4000;
const CONDITIONS = ['excellent', 'good', 'good', 'fair', 'poor'];
/** Requests a connection cycles through in each HTTP mix (per market, recorded or unknown). */
const HTTP_MIX = 60;

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

/** Deterministic requests of one market: every k-th comp, in turn by its address key (a parcel id in King County), by
 *  an unknown address with sqft, without. Comps whose answer is a documented 404 are passed over: a unit where the
 *  source records no unit sizes (NYC), a zip of fewer than 5 comps (its only sales may be the subject's own). */
export function marketRequests(engine: ValuationEngine, source: string, n: number): ValuationInput[] {
  const ix = engine.market(source).comps, d = ix.data, units = valuesUnits(engine.meta, source);
  const step = Math.max(1, Math.floor(d.day.length / n));
  const out: ValuationInput[] = [];
  for (let i = 0, k = 0; i < d.day.length && out.length < n; i += step, k++) {
    const zip = d.zips[d.zip[i]!]!;
    if ((!units && ix.unit[i]) || (ix.byZip.get(zip)?.length ?? 0) < 5) continue;
    const condition = CONDITIONS[k % CONDITIONS.length]!;
    const unknown = `${100 + k} NE ${40 + (k % 50)}th Street`;
    out.push(k % 3 === 0 ? { zip, address: d.key.at(i) ?? `${100 + k} Main St`, condition }
      : k % 3 === 1 ? { zip, address: unknown, sqft: Math.round(d.sqft[i]!), condition } : { zip, address: unknown, condition });
  }
  return out;
}

/** Lists taken in turn, one item of each, until all are used. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let j = 0; lists.some((l) => j < l.length); j++) for (const l of lists) if (j < l.length) out.push(l[j]!);
  return out;
}

/** Every market's requests (n over all), one market after another. */
export function allMarketRequests(engine: ValuationEngine, n = SUBJECTS): ValuationInput[] {
  const sources = Object.keys(engine.meta.sources).sort();
  return interleave(sources.map((s) => marketRequests(engine, s, Math.ceil(n / sources.length))));
}

/** The HTTP mixes: HTTP_MIX recorded subjects of each market, and HTTP_MIX unknown addresses of each market. */
function httpMixes(engine: ValuationEngine): { recorded: ValuationInput[]; unknown: ValuationInput[] } {
  const per = Object.keys(engine.meta.sources).sort().map((s) => marketRequests(engine, s, 3 * HTTP_MIX));
  return { recorded: interleave(per.map((r) => r.filter((_, k) => k % 3 === 0))), unknown: interleave(per.map((r) => r.filter((_, k) => k % 3 !== 0).slice(0, HTTP_MIX))) };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'valuation', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const live = path.join(dir, 'live', 'valuation');
  if (!fs.existsSync(path.join(live, 'meta.json'))) return [{ part: 'valuation', metric: 'skipped', value: 'the build has no live/valuation data', unit: '' }];
  const engine = ValuationEngine.fromDir(live);
  const markets = Object.keys(engine.meta.sources).length;
  if (markets === 0) return [{ part: 'valuation', metric: 'skipped', value: 'the build has no market with comps', unit: '' }];

  const loadStart = performance.now();
  engine.preload();
  const loadMs = performance.now() - loadStart;
  const requests = allMarketRequests(engine);
  for (const r of requests.slice(0, 300)) { engine.answer(r); engine.answer(r, false); } // warm-up (JIT, typical-property cache)
  // with comps (the answer served) and without (the estimate alone, as before issue 24), alternating per request so
  // both see the same load
  const times: number[] = [], bare: number[] = [];
  let failed = 0;
  requests.forEach((r, k) => {
    const one = (comps: boolean): void => {
      const t = performance.now();
      const a = engine.answer(r, comps);
      (comps ? times : bare).push(performance.now() - t);
      if (comps && !a.ok) failed++;
    };
    if (k % 2) { one(true); one(false); } else { one(false); one(true); }
  });
  times.sort((a, b) => a - b);
  bare.sort((a, b) => a - b);
  const p50 = percentile(times, 0.5), p99 = percentile(times, 0.99), bareP99 = percentile(bare, 0.99);

  const real = await startReal(ctx.repo, ctx.artifacts);
  const rssIdle = rssMb(real.pid);
  const headers = { 'X-Service-Key': real.key, 'Content-Type': 'application/json' };
  const url = `${real.url}/v1/valuation/estimate`;
  // each connection cycles through its mix: recorded subjects of every market, then unknown addresses of every market
  const mixes = httpMixes(engine);
  const posts = (rs: ValuationInput[]): { method: string; body: string }[] => rs.map((r) => ({ method: 'POST', body: JSON.stringify(r) }));
  const recordedMix = posts(mixes.recorded), unknownMix = posts(mixes.unknown);
  await load(url, { method: 'POST', headers, requests: [...recordedMix, ...unknownMix], duration: 2, connections: 4 }); // loads every market once
  const rssStart = rssMb(real.pid);
  const http = await load(url, { method: 'POST', headers, requests: recordedMix, connections: 10 });
  const httpReq = await load(url, { method: 'POST', headers, requests: unknownMix, connections: 10 });
  const rssEnd = rssMb(real.pid);
  await real.stop();
  return [
    { part: 'valuation', metric: 'live data load (all markets)', value: loadMs, unit: 'ms' },
    { part: 'valuation', metric: `answer() p50 (${requests.length} subjects, ${markets} markets)`, value: p50, unit: 'ms' },
    { part: 'valuation', metric: 'answer() p99 with subject and comps', value: p99, unit: 'ms', baseline: bareP99, ratio: Number((p99 / bareP99).toFixed(2)), goal: '< 20 ms', pass: p99 < 20 },
    { part: 'valuation', metric: 'answer() p99 estimate alone (no subject, comps)', value: bareP99, unit: 'ms' },
    { part: 'valuation', metric: 'answer() not ok', value: failed, unit: 'requests', goal: '0', pass: failed === 0 },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate req/s (recorded subject)', value: http.rps, unit: 'req/s' },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate p50 (recorded subject)', value: http.p50, unit: 'ms' },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate p99 (recorded subject)', value: http.p99, unit: 'ms', goal: '< 20 ms', pass: http.p99 < 20 },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate p99 (unknown address)', value: httpReq.p99, unit: 'ms', goal: '< 20 ms', pass: httpReq.p99 < 20 },
    { part: 'valuation', metric: 'non-2xx / errors under load', value: http.non2xx + http.errors + httpReq.non2xx + httpReq.errors, unit: 'requests', goal: '0', pass: http.non2xx + http.errors + httpReq.non2xx + httpReq.errors === 0 },
    { part: 'valuation', metric: 'server RSS at start (no valuation yet)', value: rssIdle, unit: 'MB' },
    { part: 'valuation', metric: 'server RSS (warm -> after load)', value: rssEnd, unit: 'MB', baseline: rssStart, goal: '< 300 MB', pass: rssEnd < 300 },
  ];
}
