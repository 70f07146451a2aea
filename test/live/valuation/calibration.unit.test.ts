// Unit tests of the split-conformal calibration (live/valuation/backtest.ts calibrate, summarize, subjectFor;
// live/valuation/interval.ts) on synthetic predictions and markets with a known distribution: per-tier half-widths,
// coverage counted here with the documented lookup order, the conformal quantile, the pooled fallback, and the
// back-test subjects of each mode. Pure and fast; the whole time-split back-test (seconds): backtest.test.ts.
import { describe, expect, it } from 'vitest';
import { TIERS } from '../../../live/valuation/types.ts';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { UNCALIBRATED_Q, calibratedQ, calibrationFor, conformalQuantile, type CalibrationRow } from '../../../live/valuation/interval.ts';
import { calibrate, subjectFor, summarize, type Prediction } from '../../../live/valuation/backtest.ts';
import { median, normal, rng, syntheticMarket, testMetrics } from '../../helpers/valuation-synthetic.ts';

describe('split-conformal calibration', () => {
  it('covers ~80% of held-out points drawn from the calibration distribution, per tier', () => {
    const r = rng(42);
    const preds: Prediction[] = [];
    const sigma = { high: 0.08, medium: 0.15, low: 0.3 } as const;
    for (const slice of ['calibration', 'test'] as const) {
      for (const tier of TIERS) {
        for (let k = 0; k < 2000; k++) {
          const err = sigma[tier] * normal(r);
          const actual = 500_000;
          preds.push({ source: 'synthetic', row: k, slice, mode: 'record', actual, estimate: actual * Math.exp(-err), tier, compCount: 10, score: Math.abs(err) });
        }
      }
    }
    const table = calibrate(preds);
    // the 80% quantile of |N(0, s)| is 1.2816 s: each tier's q is that of its own spread
    for (const tier of TIERS) {
      const row = table.find((t) => t.source === 'synthetic' && t.mode === 'record' && t.tier === tier)!;
      expect(row.q, tier).toBeCloseTo(sigma[tier] * 1.2816, 1);
    }
    // coverage of the test points counted here; 2,000 per tier: binomial sd 0.9 points, so 77.5..82.5 is +-2.8 sd
    const metrics = TIERS.map((tier) => testMetrics(preds.filter((p) => p.tier === tier), table));
    for (const [i, m] of metrics.entries()) {
      expect(m.n, TIERS[i]).toBe(2000);
      expect(m.coverage, TIERS[i]).toBeGreaterThan(77.5);
      expect(m.coverage, TIERS[i]).toBeLessThan(82.5);
    }
    expect(metrics[0]!.width).toBeLessThan(metrics[1]!.width);
    expect(metrics[1]!.width).toBeLessThan(metrics[2]!.width);
    // and the product's own summary agrees with the count made here
    const summary = summarize(preds, table);
    for (const [i, tier] of TIERS.entries()) expect(summary.find((s) => s.tier === tier)!.coverage!).toBeCloseTo(metrics[i]!.coverage, 1);
  });

  it('conformalQuantile takes the ceil((n + 1) * 0.8)-th smallest score', () => {
    expect(conformalQuantile([1, 2, 3, 4, 5, 6, 7, 8, 9])).toBe(8);
    expect(conformalQuantile([0.3])).toBe(0.3);
  });

  it('falls back to the pooled row when a source tier has too few calibration points', () => {
    const table: CalibrationRow[] = [{ source: 'a', mode: 'record', tier: 'high', n: 20, q: 0.9 }, { source: '*', mode: 'record', tier: 'high', n: 900, q: 0.2 }];
    expect(calibratedQ(table, 'a', 'record', 'high')).toBe(0.2);
    expect(calibrationFor(table, 'a', 'record', 'high')).toEqual({ q: 0.2, basis: 'pooled-tier', calibrated: true });
    // another mode's row is a fallback, not a calibration for this mode
    expect(calibrationFor(table, 'a', 'typical', 'high')).toEqual({ q: 0.2, basis: 'any-mode', calibrated: false });
    expect(calibrationFor(table, 'a', 'typical', 'low')).toEqual({ q: UNCALIBRATED_Q, basis: 'default', calibrated: false });
  });

  it('back-test subjects per mode: recorded characteristics, typical property with the sale sqft, typical property with its sqft', () => {
    const set = syntheticMarket(400, 3);
    const idx = new CompIndex(set);
    const i = 300, before = set.day[200]!;
    const cache = new Map();
    // the zip's typical property among the sales before the split (valuation.md "Subject"): median beds, median sqft
    const earlier = set.day.map((_, k) => k).filter((k) => set.day[k]! < before);
    const t = { beds: median(earlier.map((k) => set.beds[k]!)), sqft: Math.round(Math.exp(median(earlier.map((k) => Math.log(set.sqft[k]!))))) };
    expect(subjectFor(idx, i, 'record', before, cache)).toMatchObject({ mode: 'record', sqft: set.sqft[i], beds: set.beds[i], lat: set.lat[i] });
    expect(subjectFor(idx, i, 'request', before, cache)).toMatchObject({ mode: 'request', sqft: set.sqft[i], beds: t.beds, lat: null });
    expect(subjectFor(idx, i, 'typical', before, cache)).toMatchObject({ mode: 'typical', sqft: t.sqft, beds: t.beds, lat: null });
    expect(t.sqft).not.toBe(set.sqft[i]);
  });

});
