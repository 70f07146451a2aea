// Valuation part: POST /v1/valuation/estimate. In-process p50/p99 of the live module's answer() (with its subject and
// comps, and, alternating, the estimate alone as the baseline of the same run) over many King
// County subjects (a third each: by parcel id (recorded subjects), by an unknown street address with the request's
// sqft (the zip's typical property with it) and by an unknown address without sqft (the zip's typical property)), then the full server over HTTP (autocannon, 10 connections) with goal p99 < 20 ms.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { ValuationEngine, type ValuationInput } from '../../live/valuation/endpoint.ts';
import { load, rssMb, startReal } from './serve.ts';

const SUBJECTS = 4000;
const CONDITIONS = ['excellent', 'good', 'good', 'fair', 'poor'];

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

/** Deterministic King County requests: every k-th comp, in turn by parcel id, by an unknown address with sqft, without. */
export function kingCountyRequests(engine: ValuationEngine, n = SUBJECTS): ValuationInput[] {
  const m = engine.market('king_county');
  const d = m.comps.data;
  const step = Math.max(1, Math.floor(d.day.length / n));
  const out: ValuationInput[] = [];
  for (let i = 0, k = 0; i < d.day.length && out.length < n; i += step, k++) {
    const zip = d.zips[d.zip[i]!]!;
    const condition = CONDITIONS[k % CONDITIONS.length]!;
    const unknown = `${100 + k} NE ${40 + (k % 50)}th Street`;
    out.push(k % 3 === 0 ? { zip, address: d.key.at(i) ?? `${100 + k} Main St`, condition }
      : k % 3 === 1 ? { zip, address: unknown, sqft: Math.round(d.sqft[i]!), condition } : { zip, address: unknown, condition });
  }
  return out;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'valuation', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const live = path.join(dir, 'live', 'valuation');
  if (!fs.existsSync(path.join(live, 'meta.json'))) return [{ part: 'valuation', metric: 'skipped', value: 'the build has no live/valuation data', unit: '' }];
  const engine = ValuationEngine.fromDir(live);
  if (!engine.meta.sources['king_county']) return [{ part: 'valuation', metric: 'skipped', value: 'the build has no King County sales', unit: '' }];

  const loadStart = performance.now();
  engine.preload();
  const loadMs = performance.now() - loadStart;
  const requests = kingCountyRequests(engine);
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
  const headers = { 'X-Service-Key': real.key, 'Content-Type': 'application/json' };
  const url = `${real.url}/v1/valuation/estimate`;
  const body = JSON.stringify(requests[0]);
  await load(url, { method: 'POST', body, headers, duration: 2, connections: 4 }); // loads the market once
  const rssStart = rssMb(real.pid);
  const http = await load(url, { method: 'POST', body, headers, connections: 10 });
  const bodyReq = JSON.stringify(requests[1]);
  const httpReq = await load(url, { method: 'POST', body: bodyReq, headers, connections: 10 });
  const rssEnd = rssMb(real.pid);
  await real.stop();
  return [
    { part: 'valuation', metric: 'live data load (all markets)', value: loadMs, unit: 'ms' },
    { part: 'valuation', metric: `answer() p50 (${requests.length} King County subjects)`, value: p50, unit: 'ms' },
    { part: 'valuation', metric: 'answer() p99 with subject and comps', value: p99, unit: 'ms', baseline: bareP99, ratio: Number((p99 / bareP99).toFixed(2)), goal: '< 20 ms', pass: p99 < 20 },
    { part: 'valuation', metric: 'answer() p99 estimate alone (no subject, comps)', value: bareP99, unit: 'ms' },
    { part: 'valuation', metric: 'answer() not ok', value: failed, unit: 'requests', goal: '0', pass: failed === 0 },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate req/s (recorded subject)', value: http.rps, unit: 'req/s' },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate p50 (recorded subject)', value: http.p50, unit: 'ms' },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate p99 (recorded subject)', value: http.p99, unit: 'ms', goal: '< 20 ms', pass: http.p99 < 20 },
    { part: 'valuation', metric: 'POST /v1/valuation/estimate p99 (unknown address)', value: httpReq.p99, unit: 'ms', goal: '< 20 ms', pass: httpReq.p99 < 20 },
    { part: 'valuation', metric: 'non-2xx / errors under load', value: http.non2xx + http.errors + httpReq.non2xx + httpReq.errors, unit: 'requests', goal: '0', pass: http.non2xx + http.errors + httpReq.non2xx + httpReq.errors === 0 },
    { part: 'valuation', metric: 'server RSS (warm -> after load)', value: rssEnd, unit: 'MB', baseline: rssStart, goal: '< 300 MB', pass: rssEnd < 300 },
  ];
}
