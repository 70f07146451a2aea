// What the valuation tests share: deterministic synthetic markets with a known distribution (the comps files'
// columns, as live/valuation/build.ts writes them), the tests' own arithmetic (not the model's helpers), and the
// test-slice metrics counted with the calibration lookup of warehouse/docs/valuation.md.
import type { CompSetData } from '../../live/valuation/comps.ts';
import { dayOf } from '../../live/valuation/helpers.ts';
import type { CalibrationRow } from '../../live/valuation/interval.ts';
import type { Prediction } from '../../live/valuation/backtest.ts';

// ---------------------------------------------------------------- the test's own arithmetic (not the model's helpers)

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** Great-circle distance in km (haversine, mean Earth radius). */
export const haversineKm = (lat1: number, lng1: number, lat2: number, lng2: number): number => {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
};

// ---------------------------------------------------------------- deterministic synthetic markets

/** Park-Miller LCG in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}
export function normal(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

/** A market of n sales over 12 months around (47.6, -122.3): log price = 12.1 + 0.75 log(sqft/1800) + location
 *  gradient + 1%/month + N(0, sigma). */
export function syntheticMarket(n: number, seed: number, sigma = 0.12, zip = '99901'): CompSetData {
  const r = rng(seed);
  const d: CompSetData = { source: 'synthetic', zips: [zip], zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
  const start = dayOf('2020-01-01');
  const rows = Array.from({ length: n }, (_, k) => {
    const day = start + Math.floor(r() * 365);
    const lat = 47.6 + (r() - 0.5) * 0.06, lng = -122.3 + (r() - 0.5) * 0.08;
    const sqft = Math.round(900 + r() * 2400);
    const beds = Math.max(1, Math.round(sqft / 650));
    const logP = 12.1 + 0.75 * Math.log(sqft / 1800) + 3 * (lat - 47.6) + ((day - start) / 30.44) * 0.01 + sigma * normal(r);
    return { day, lat, lng, sqft, beds, price: Math.round(Math.exp(logP)), key: `${100 + k} TEST ST` };
  }).sort((a, b) => a.day - b.day);
  for (const x of rows) {
    d.zip.push(0); d.day.push(x.day); d.price.push(x.price); d.sqft.push(x.sqft); d.beds.push(x.beds); d.baths.push(2); d.year.push(1990);
    d.cond.push(2); d.type.push(0); d.lat.push(x.lat); d.lng.push(x.lng); d.key.push(x.key);
  }
  return d;
}

/**
 * The interval half-width q of warehouse/docs/valuation.md "Interval: split-conformal calibration", looked up here in
 * the documented order (rows with n >= 100 only): the source's row for mode and tier; the pooled row for mode and
 * tier; the source's largest row of the mode; the pooled largest row of the mode; the pooled largest row of the tier
 * in any mode; else 0.35.
 */
function docQ(table: CalibrationRow[], source: string, mode: string, tier: string): number {
  const usable = table.filter((r) => r.n >= 100);
  const largest = (f: (r: CalibrationRow) => boolean): number | undefined => usable.filter(f).sort((a, b) => b.n - a.n)[0]?.q;
  return largest((r) => r.source === source && r.mode === mode && r.tier === tier)
    ?? largest((r) => r.source === '*' && r.mode === mode && r.tier === tier)
    ?? largest((r) => r.source === source && r.mode === mode)
    ?? largest((r) => r.source === '*' && r.mode === mode)
    ?? largest((r) => r.source === '*' && r.tier === tier)
    ?? 0.35;
}

/** Test-slice metrics counted here (not with the back-test's own summary): coverage %, MdAPE % and median width %. */
export function testMetrics(preds: Prediction[], table: CalibrationRow[]): { n: number; coverage: number; mdape: number; width: number } {
  const test = preds.filter((p) => p.slice === 'test');
  const med = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
  let inside = 0;
  const ape: number[] = [], width: number[] = [];
  for (const p of test) {
    const q = docQ(table, p.source, p.mode, p.tier);
    const low = p.estimate * Math.exp(-q), high = p.estimate * Math.exp(q);
    if (p.actual >= low && p.actual <= high) inside++;
    ape.push(Math.abs(p.estimate / p.actual - 1));
    width.push((high - low) / p.estimate);
  }
  return { n: test.length, coverage: (100 * inside) / test.length, mdape: 100 * med(ape), width: 100 * med(width) };
}
