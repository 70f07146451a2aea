// Small pure helpers of the valuation: day numbers (days since 1970-01-01) and months, medians, great-circle distance.

export const DAY_MS = 86_400_000;

export const dayOf = (iso: string): number => Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);
export const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const monthOfDay = (day: number): number => { const d = new Date(day * DAY_MS); return d.getUTCFullYear() * 12 + d.getUTCMonth(); };

/** A comp column's unknown (null) as NaN. */
/** Dollars are rounded to this step. */
const ROUND_USD = 100;
export const roundUsd = (v: number): number => Math.round(v / ROUND_USD) * ROUND_USD;

export const nz = (v: number | null | undefined): number => (v === null || v === undefined ? NaN : v);

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Weighted median of values (weights > 0). */
export function weightedMedian(values: number[], weights: number[]): number {
  const idx = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (const i of idx) {
    acc += weights[i]!;
    if (acc >= total / 2) return values[i]!;
  }
  return values[idx[idx.length - 1]!]!;
}

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 12_742.0176 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Appends v to the list of k in m. */
export function push<K>(m: Map<K, number[]>, k: K, v: number): void {
  const a = m.get(k);
  if (a) a.push(v); else m.set(k, [v]);
}
