// The synthetic permits table (canonical/permits.csv): building permits on the zip's parcels, the type mix and median
// valuations of vocabulary.ts PERMIT_TYPES, 12% without a declared valuation, ids SP<seed>-<n>.
import { CsvOut, iso, round } from './csv-out.ts';
import { lognormal } from './random.ts';
import { property, saleDate } from './records.ts';
import type { Sampler } from './sampler.ts';
import { PERMIT_TYPES } from './vocabulary.ts';

/** Writes `nPermits` permits to `file`; returns how many it wrote. */
export async function writePermits(s: Sampler, file: string, nPermits: number, seed: number): Promise<number> {
  const { r, zips, zipIndex, poolSize } = s;
  let written = 0;
  const permits = new CsvOut(file, ['address', 'zip', 'issue_date', 'permit_type', 'valuation', 'lat', 'lng', 'permit_id']);
  for (let i = 0; i < nPermits; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    const t = PERMIT_TYPES[(() => { let x = r() * 100; for (let k = 0; k < PERMIT_TYPES.length; k++) { if ((x -= PERMIT_TYPES[k]![1]) < 0) return k; } return 0; })()]!;
    await permits.row([p.address, z.zip, iso(saleDate(r)), t[0], r() < 0.12 ? null : round(lognormal(r, t[2], 0.9), -1), p.lat, p.lng, `SP${seed}-${i + 1}`]);
    written++;
  }
  await permits.close();
  return written;
}
