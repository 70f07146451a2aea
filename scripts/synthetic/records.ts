// The records of the synthetic generator (scripts/generate-synthetic.ts): one property's fixed facts (parcel k of a zip,
// the same in every file it appears in: address, type, size, beds/baths, year built, location), a sale date in the 36
// months ending 2025-09-30 with King County's spring/summer peak, and a person's or an entity's name.
import { hash32, lognormal, normal, pick, weighted } from './random.ts';
import { ENTITY_SUFFIXES, ENTITY_WORDS, FIRST, LAST, STREETS, SUFFIXES, TYPES } from './vocabulary.ts';
import { round } from './csv-out.ts';
import type { ZipInfo } from './zips.ts';
import { rng } from '../rng.ts';

export const END = Date.UTC(2025, 8, 30); // 2025-09-30
export const DAY = 86_400_000;
const SPAN_DAYS = 3 * 365;
// King County's monthly sales share (Jan..Dec): a spring/summer peak
const MONTH_WEIGHT = [0.55, 0.62, 0.95, 1.1, 1.15, 1.1, 1.05, 1.0, 0.95, 0.95, 0.8, 0.78];

/** The fixed facts of one property (parcel k of a zip): the same in every file it appears in. */
export interface Property { parcelId: string; address: string; type: string; sqft: number | null; beds: number | null; baths: number | null; yearBuilt: number; lat: number; lng: number }

export function property(z: ZipInfo, zi: number, k: number): Property {
  const r = rng(hash32(zi, k));
  const type = weighted(r, TYPES);
  const number = Math.floor(Math.exp(r() * Math.log(19999))) + 1;
  const street = `${pick(r, STREETS)} ${weighted(r, SUFFIXES)}`;
  const unit = type === 'condo' ? ` UNIT ${1 + Math.floor(r() * 40)}${pick(r, ['', 'A', 'B'])}` : '';
  const sqftRaw = type === 'land' ? null : Math.max(350, Math.min(12000, lognormal(r, type === 'condo' ? 1050 : type === 'multi' ? 2600 : type === 'commercial' ? 4200 : 1900, 0.42)));
  const sqft = sqftRaw == null ? null : round(sqftRaw);
  const beds = sqft == null || type === 'commercial' ? null : Math.max(1, Math.min(8, Math.round(sqft / 600 + normal(r) * 0.6)));
  const baths = beds == null ? null : Math.max(1, Math.round((beds * 0.6 + normal(r) * 0.4) * 4) / 4);
  const yearBuilt = Math.max(1880, Math.min(2024, Math.round(1968 + normal(r) * 28)));
  return {
    parcelId: `${z.zip}-${String(k).padStart(5, '0')}`, address: `${number} ${street}${unit}`, type, sqft, beds, baths, yearBuilt,
    lat: round(z.lat + (r() - 0.5) * 0.03, 6), lng: round(z.lng + (r() - 0.5) * 0.03, 6),
  };
}

export function saleDate(r: () => number): number {
  for (;;) { // rejection sampling on the month weights
    const t = END - Math.floor(r() * SPAN_DAYS) * DAY;
    if (r() * 1.15 < MONTH_WEIGHT[new Date(t).getUTCMonth()]!) return t;
  }
}
export const person = (r: () => number): string => `${pick(r, LAST)} ${pick(r, FIRST)}`;
export const entity = (r: () => number): string => `${pick(r, ENTITY_WORDS)} ${pick(r, ENTITY_SUFFIXES)}`;
