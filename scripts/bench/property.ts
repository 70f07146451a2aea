// Property part: GET /v1/property answered in-process (live/property/engine.ts) over the bench build: p50/p99 by
// property_id on a fresh engine (every record file read and parsed on first use, as after a build swap), again warm,
// and by address + zip; baseline in the same run: reading and parsing one shard file per request (a shard route's work).
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { loadEngine } from '../../live/property/endpoint.ts';
import type { PropertyInput } from '../../live/property/engine.ts';
import type { ZipEntry } from '../../live/property/layout.ts';

const N = 2000;

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

function percentiles(ms: number[]): { p50: number; p99: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length * 0.5)]!, p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]! };
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  const live = dir && path.join(dir, 'live', 'property');
  if (!dir || !live || !fs.existsSync(path.join(live, 'meta.json'))) return [{ part: 'property', metric: 'skipped', value: 'no property data in the bench build', unit: '' }];
  const rnd = seeded(22);
  const manifest = path.join(dir, 'manifest.json');
  const asOf = fs.existsSync(manifest) ? String((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { as_of?: string }).as_of ?? '') : '';
  // the sample: addresses of random zip files (their property ids and street lines)
  const zipFiles = fs.readdirSync(path.join(live, 'zips'));
  const sample: ZipEntry[] = [];
  while (sample.length < N) {
    const list = JSON.parse(fs.readFileSync(path.join(live, 'zips', zipFiles[Math.floor(rnd() * zipFiles.length)]!), 'utf8')) as ZipEntry[];
    const e = list[Math.floor(rnd() * list.length)]!;
    if (e[1] === null || /^[A-Z0-9-]+$/.test(e[1])) sample.push(e); // a unit of several words cannot be typed after UNIT
  }
  const zipOf = new Map<string, string>();
  for (const z of zipFiles) for (const e of JSON.parse(fs.readFileSync(path.join(live, 'zips', z), 'utf8')) as ZipEntry[]) zipOf.set(e[2], z.slice(0, 5));
  const build = { dir, buildId: path.basename(dir), asOf };
  const ask = (engine: ReturnType<typeof loadEngine>, input: PropertyInput): void => {
    const a = engine!.answer(input);
    if (!a.ok) throw new Error(`no answer for ${JSON.stringify(input)}: ${a.message}`);
  };
  const cold = loadEngine(build);
  const coldMs = sample.map((e) => time(() => ask(cold, { property_id: e[2], include: 'lineage' })));
  const warmMs = sample.map((e) => time(() => ask(cold, { property_id: e[2], include: 'lineage' })));
  const fresh = loadEngine(build);
  const addrMs = sample.map((e) => time(() => ask(fresh, { address: e[1] ? `${e[0]} UNIT ${e[1]}` : e[0], zip: zipOf.get(e[2])! })));
  const shards = path.join(dir, 'shards', 'market', 'comps');
  const shardFiles = fs.existsSync(shards) ? fs.readdirSync(shards, { recursive: true }).map(String).filter((f) => f.endsWith('.json')) : [];
  const baseMs = sample.map((_, i) => time(() => { JSON.parse(fs.readFileSync(path.join(shards, shardFiles[i % shardFiles.length]!), 'utf8')); }));
  const cp = percentiles(coldMs), wp = percentiles(warmMs), ap = percentiles(addrMs), bp = percentiles(baseMs);
  return [
    { part: 'property', metric: `by property_id, first read, in-process p50 (${N} properties, with lineage)`, value: cp.p50, unit: 'ms', baseline: bp.p50, ratio: cp.p50 / bp.p50 },
    { part: 'property', metric: 'by property_id, first read, in-process p99', value: cp.p99, unit: 'ms', baseline: bp.p99, ratio: cp.p99 / bp.p99, goal: '< 5 ms', pass: cp.p99 < 5 },
    { part: 'property', metric: 'by property_id, warm, in-process p99', value: wp.p99, unit: 'ms', baseline: bp.p99, ratio: wp.p99 / bp.p99, goal: '< 5 ms', pass: wp.p99 < 5 },
    { part: 'property', metric: 'by address + zip, first read, in-process p99', value: ap.p99, unit: 'ms', baseline: bp.p99, ratio: ap.p99 / bp.p99, goal: '< 5 ms', pass: ap.p99 < 5 },
  ];
}
