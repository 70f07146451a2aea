// In-process latency of the live point lookup (live/location/endpoint.ts): N random points through handle(),
// p50/p99 in milliseconds. The lead's `npm run bench` imports benchLocation(); runnable alone:
//   npx tsx scripts/bench-location.ts [buildDir] [n]      (default: artifacts/current, 20000 points)
// Points: a third inside the loaded flood maps' boxes (polygon tests), a third inside the ZCTA polygon states'
// boxes (zip by polygon), a third within ~5 km of random zip centroids (nearest-centroid path, Superfund
// candidates), after a warm-up of 2,000 points. A seeded generator makes runs comparable.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import location from '../live/location/endpoint.ts';
import type { FloodData, ZctaData, ZipData } from '../live/location/data.ts';
import type { BBox } from '../live/location/geo.ts';
import { rng } from './rng.ts';
import { loadSettings } from '../warehouse/settings.ts';

export interface BenchResult {
  p50_ms: number;
  p99_ms: number;
  n: number;
  /** p99 of each point's best of 3 runs: the code's own cost without scheduler/GC noise of a busy machine. */
  p99_best_of_3_ms: number;
  ok: number; // 200 answers
  not_found: number; // 404 answers
}


/** The bench's points (exported so tests can reuse the same mix). */
export function benchPoints(dir: string, n: number, seed = 42): [number, number][] {
  const live = path.join(dir, 'live', 'location');
  const read = <T,>(f: string): T => JSON.parse(fs.readFileSync(path.join(live, f), 'utf8')) as T;
  const flood = read<FloodData>('flood.json');
  const zcta = read<ZctaData>('zcta.json');
  const zips = read<ZipData>('zips.json').zips;
  const boxes: BBox[] = flood.maps.map((m) => m.bbox);
  const zctaBox = zcta.zctas.reduce<BBox | null>((b, z) => b ? [Math.min(b[0], z.bbox[0]), Math.min(b[1], z.bbox[1]), Math.max(b[2], z.bbox[2]), Math.max(b[3], z.bbox[3])] : z.bbox, null);
  const r = rng(seed);
  const inBox = (b: BBox): [number, number] => [b[1] + r() * (b[3] - b[1]), b[0] + r() * (b[2] - b[0])];
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    if (kind === 0 && boxes.length) out.push(inBox(boxes[Math.floor(r() * boxes.length)]!));
    else if (kind === 1 && zctaBox) out.push(inBox(zctaBox));
    else {
      const z = zips[Math.floor(r() * zips.length)]!;
      out.push([z[1] + (r() - 0.5) * 0.09, z[2] + (r() - 0.5) * 0.12]);
    }
  }
  return out;
}

export async function benchLocation(buildDir: string, n = 20_000): Promise<BenchResult> {
  const inst = await location.load({ dir: buildDir, buildId: path.basename(buildDir), asOf: '', settings: loadSettings() });
  const points = benchPoints(buildDir, n);
  for (const [lat, lng] of benchPoints(buildDir, 2_000, 7)) await inst.handle({ lat, lng });
  const times = new Float64Array(points.length);
  let ok = 0, notFound = 0;
  for (let i = 0; i < points.length; i++) {
    const [lat, lng] = points[i]!;
    const t0 = performance.now();
    const a = await inst.handle({ lat, lng });
    times[i] = performance.now() - t0;
    if (a.ok) ok++; else if (a.code === 'no_data') notFound++;
  }
  const best = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    const [lat, lng] = points[i]!;
    let b = times[i]!;
    for (let k = 0; k < 2; k++) {
      const t0 = performance.now();
      await inst.handle({ lat, lng });
      b = Math.min(b, performance.now() - t0);
    }
    best[i] = b;
  }
  await inst.close?.();
  times.sort();
  best.sort();
  const q = (a: Float64Array, p: number): number => Number(a[Math.min(a.length - 1, Math.floor(p * a.length))]!.toFixed(4));
  return { p50_ms: q(times, 0.5), p99_ms: q(times, 0.99), p99_best_of_3_ms: q(best, 0.99), n: points.length, ok, not_found: notFound };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = path.resolve(process.argv[2] ?? path.join('artifacts', 'current'));
  const n = Number(process.argv[3] ?? 20_000);
  const real = fs.existsSync(dir) ? fs.realpathSync(dir) : dir;
  benchLocation(real, n).then((r) => { process.stdout.write(`${JSON.stringify(r)}\n`); }, (err: unknown) => { process.stderr.write(`${String(err)}\n`); process.exitCode = 1; });
}
