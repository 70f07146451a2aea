// The draw the synthetic generator's tables share (scripts/generate-synthetic.ts): one seeded stream that the tables
// draw from in turn (sales, parcels, permits, distress), which zip a row is about, and how many parcels a zip has.
import type { ZipInfo } from './zips.ts';

export interface Sampler {
  r: () => number;
  zips: ZipInfo[];
  /** The zip of row i: with rows >= zips every zip once first, then weighted by housing units. */
  zipIndex: (i: number) => number;
  /** The parcels of zip zi a row picks from. */
  poolSize: (zi: number) => number;
}

/** `rows` is the number of sales (--rows): it sizes the first pass and the parcel pools of every table. */
export function sampler(zips: ZipInfo[], r: () => number, rows: number): Sampler {
  // cumulative weights for the weighted zip pick (after the first pass that covers every zip once)
  const cum = new Float64Array(zips.length);
  let acc = 0;
  zips.forEach((z, i) => { acc += z.weight; cum[i] = acc; });
  const zipIndex = (i: number): number => {
    if (i < zips.length && rows >= zips.length) return i;
    const x = r() * acc;
    let lo = 0, hi = zips.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cum[mid]! < x) lo = mid + 1; else hi = mid; }
    return lo;
  };
  // parcels per zip: about 2x its expected sales, so some parcels sell twice (repeat sales) and most once
  const poolSize = (zi: number): number => Math.max(3, Math.round((2 * rows * zips[zi]!.weight) / acc));
  return { r, zips, zipIndex, poolSize };
}
