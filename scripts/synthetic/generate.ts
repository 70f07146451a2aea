// The synthetic generator as a function (its command line is scripts/generate-synthetic.ts, whose header describes the
// distributions): loads the zip universe, seeds one stream and writes <out>/canonical/{sales,parcels,permits,distress}.csv
// in that order, each table drawing from the same stream, so the same options give byte-identical files.
import fs from 'node:fs';
import path from 'node:path';
import { rng } from '../rng.ts';
import { writeDistress } from './distress.ts';
import { writeParcels } from './parcels.ts';
import { writePermits } from './permits.ts';
import { writeSales } from './sales.ts';
import { sampler } from './sampler.ts';
import { loadZips } from './zips.ts';

export interface GenerateOptions { rows: number; out: string; seed: number; data: string; parcels?: number; permits?: number; distress?: number; badRate?: number; log?: (m: string) => void }
export interface GenerateResult { files: Record<string, string>; counts: Record<string, number> }

export async function generate(o: GenerateOptions): Promise<GenerateResult> {
  const zips = await loadZips(o.data);
  const r = rng(o.seed);
  const bad = o.badRate ?? 0;
  const dir = path.join(o.out, 'canonical');
  fs.mkdirSync(dir, { recursive: true });
  const s = sampler(zips, r, o.rows);
  const files = { sales: path.join(dir, 'sales.csv'), parcels: path.join(dir, 'parcels.csv'), permits: path.join(dir, 'permits.csv'), distress: path.join(dir, 'distress.csv') };
  const counts = { sales: 0, parcels: 0, permits: 0, distress: 0 };
  counts.sales = await writeSales(s, files.sales, o.rows, bad);
  o.log?.(`sales: ${counts.sales}`);
  counts.parcels = await writeParcels(s, files.parcels, o.parcels ?? Math.floor(o.rows / 2));
  counts.permits = await writePermits(s, files.permits, o.permits ?? Math.floor(o.rows / 5), o.seed);
  counts.distress = await writeDistress(s, files.distress, o.distress ?? Math.floor(o.rows / 50));
  return { files, counts };
}
