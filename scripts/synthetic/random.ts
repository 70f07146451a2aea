// Deterministic draws for the synthetic generator (scripts/generate-synthetic.ts): a hash for facts that must be the
// same wherever a parcel appears, and normal, lognormal, uniform and weighted picks over a seeded rng (scripts/rng.ts).

/** A 32-bit integer hash (for properties that must be the same wherever a parcel appears). */
export function hash32(x: number, y: number): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(y + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16; h = Math.imul(h, 0x7feb352d); h ^= h >>> 15; h = Math.imul(h, 0x846ca68b); h ^= h >>> 16;
  return h >>> 0;
}

export function normal(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}
export const lognormal = (r: () => number, median: number, sigma: number): number => median * Math.exp(sigma * normal(r));
export function pick<T>(r: () => number, items: readonly T[]): T { return items[Math.floor(r() * items.length)]!; }
export function weighted<T>(r: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((a, [, w]) => a + w, 0);
  let x = r() * total;
  for (const [v, w] of items) { if ((x -= w) < 0) return v; }
  return items[items.length - 1]![0];
}
