// The fairness measures of the valuation scorecard (live/valuation/scorecard.ts) against their IAAO definitions,
// recomputed here by hand on small sets, and the scorecard's price tiers over made-up predictions.
import { describe, expect, it } from 'vitest';
import { fairness, prb, prd } from '../../../live/valuation/scorecard.ts';
import type { Prediction } from '../../../live/valuation/backtest.ts';

describe('PRD', () => {
  it('is the mean ratio over the price-weighted mean ratio', () => {
    // ratios 1.2, 1.0, 0.8 on prices 100, 200, 400: mean 1.0; weighted (120 + 200 + 320) / 700 = 0.9142857
    expect(prd([120, 200, 320], [100, 200, 400])).toBeCloseTo(1 / (640 / 700), 10);
  });
  it('is 1 when every ratio is the same', () => {
    expect(prd([90, 180, 450], [100, 200, 500])).toBeCloseTo(1, 12);
  });
});

describe('PRB', () => {
  it('is 0 when every ratio is the same', () => {
    expect(prb([95, 190, 380, 760], [100, 200, 400, 800])).toBeCloseTo(0, 12);
  });
  it('is the slope of (ratio - median) / median on log2 of the value proxy', () => {
    // estimates = price^0.9: ratios fall as value rises (regressive), so PRB < 0; recomputed by the textbook formula
    const prices = [100_000, 150_000, 200_000, 300_000, 450_000, 700_000, 1_000_000];
    const est = prices.map((p) => p ** 0.9 * 3.5);
    const ratios = est.map((e, i) => e / prices[i]!);
    const med = [...ratios].sort((a, b) => a - b)[3]!;
    const y = ratios.map((r) => (r - med) / med);
    const x = est.map((e, i) => Math.log2((e / med + prices[i]!) / 2));
    const mx = x.reduce((a, b) => a + b) / x.length, my = y.reduce((a, b) => a + b) / y.length;
    const slope = x.reduce((a, xi, i) => a + (xi - mx) * (y[i]! - my), 0) / x.reduce((a, xi) => a + (xi - mx) ** 2, 0);
    expect(prb(est, prices)).toBeCloseTo(slope, 10);
    // about -0.1 x ln 2 per doubling for small deviations
    expect(prb(est, prices)).toBeLessThan(-0.05);
    expect(prb(est, prices)).toBeGreaterThan(-0.09);
  });
});

describe('fairness rows', () => {
  const pred = (actual: number, estimate: number, slice: Prediction['slice'] = 'test', mode: Prediction['mode'] = 'record'): Prediction =>
    ({ source: 's', row: 0, slice, mode, actual, estimate, tier: 'high', compCount: 10, score: Math.abs(Math.log(actual / estimate)) });
  it('cover the recorded test subjects only: all, then four price quartiles; PRB on the whole range only', () => {
    const preds = Array.from({ length: 40 }, (_, i) => pred(100_000 + i * 10_000, (100_000 + i * 10_000) * (i < 10 ? 1.4 : 1)));
    preds.push(pred(1, 1_000_000, 'calibration'), pred(1, 1_000_000, 'test', 'typical'));
    const rows = fairness(preds);
    expect(rows.map((r) => r.price_tier)).toEqual(['all', 'q1', 'q2', 'q3', 'q4']);
    expect(rows[0]!.n).toBe(40);
    expect(rows.slice(1).reduce((a, r) => a + r.n, 0)).toBe(40);
    expect(rows[1]).toMatchObject({ price_low: 100_000, price_high: 190_000, median_ratio: 1.4, prb: null, prb_ok: null });
    expect(rows[4]!.median_ratio).toBe(1);
    // the cheapest quarter valued 40% high (PRD 1.1 / 1.049 = 1.048): regressive over the whole range
    expect(rows[0]!.prd).toBeCloseTo(1.1 / (1 + (0.4 * 1_450_000) / 11_800_000), 3);
    expect(rows[0]!.prd_ok).toBe(false);
    expect(rows[0]!.prb!).toBeLessThan(0);
  });
});
