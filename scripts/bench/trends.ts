// Trends part (issue 23): GET /v1/market/trends against GET /v1/market/comps (its baseline: the plain shard route of the
// same plan group) on one server in the same run, a zip and a city, and the build seconds of the trends steps (from the
// published build's manifest) next to the whole build's.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { load, startReal } from './serve.ts';

interface Manifest { stages: { name: string; seconds: number; steps?: { step: string; seconds: number }[] }[]; shards: { by_family: Record<string, number> } }

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'trends', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const real = await startReal(ctx.repo, ctx.artifacts);
  const headers = { 'X-Service-Key': real.key };
  const comps = await load(`${real.url}/v1/market/comps?zip=98103&months=12`, { headers });
  const zip = await load(`${real.url}/v1/market/trends?zip=98103&months=24`, { headers });
  const city = await load(`${real.url}/v1/market/trends?city=New%20York&state=NY&property_type=condo&months=60`, { headers });
  await real.stop();
  const rows: BenchRow[] = [
    { part: 'trends', metric: 'GET /v1/market/comps req/s (baseline)', value: comps.rps, unit: 'req/s' },
    { part: 'trends', metric: 'GET /v1/market/trends?zip req/s', value: zip.rps, unit: 'req/s', baseline: comps.rps, ratio: zip.rps / comps.rps, goal: '>= 0.70 of comps', pass: zip.rps / comps.rps >= 0.7 },
    { part: 'trends', metric: 'GET /v1/market/trends?city (60 months) req/s', value: city.rps, unit: 'req/s', baseline: comps.rps, ratio: city.rps / comps.rps },
    { part: 'trends', metric: 'trends?zip p99', value: zip.p99, unit: 'ms', baseline: comps.p99, ratio: zip.p99 / comps.p99, goal: '< 5 ms', pass: zip.p99 < 5 },
    { part: 'trends', metric: 'trends?city p99', value: city.p99, unit: 'ms', baseline: comps.p99, ratio: city.p99 / comps.p99 },
    { part: 'trends', metric: 'non-2xx / errors under load', value: comps.non2xx + zip.non2xx + city.non2xx + comps.errors + zip.errors + city.errors, unit: 'requests', goal: '0',
      pass: comps.non2xx + zip.non2xx + city.non2xx + comps.errors + zip.errors + city.errors === 0 },
  ];
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const total = manifest.stages.reduce((s, x) => s + x.seconds, 0);
  const steps = manifest.stages.flatMap((s) => s.steps ?? []).filter((s) => /30_mart_market_(direction|monthly|trends)/.test(s.step));
  const mine = steps.reduce((s, x) => s + x.seconds, 0);
  rows.push({ part: 'trends', metric: 'build: direction + market_monthly + index steps', value: mine, unit: 's', baseline: total, ratio: mine / total });
  rows.push({ part: 'trends', metric: 'build: trends shards written', value: manifest.shards.by_family['trends'] ?? 0, unit: 'files' });
  return rows;
}
