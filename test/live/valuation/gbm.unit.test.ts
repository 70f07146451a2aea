// The boosted trees of the valuation (live/valuation/gbm.ts) on made-up data whose truth is known.
import { describe, expect, it } from 'vitest';
import { GBM_DEFAULTS, fitGbm, predictGbm } from '../../../live/valuation/gbm.ts';

/** A fixed pseudo-random sequence (no Math.random in tests). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('fitGbm / predictGbm', () => {
  it('learns a step in one feature and a slope in another, ignoring a noise feature', () => {
    const rnd = lcg(7);
    const n = 4000;
    const a = new Float64Array(n), b = new Float64Array(n), c = new Float64Array(n), y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      a[i] = rnd(); b[i] = rnd(); c[i] = rnd();
      y[i] = (a[i]! > 0.5 ? 1 : 0) + 0.5 * b[i]! + (rnd() - 0.5) * 0.05;
    }
    const m = fitGbm(['a', 'b', 'c'], [a, b, c], y);
    const truth = (x: number[]): number => (x[0]! > 0.5 ? 1 : 0) + 0.5 * x[1]!;
    for (const x of [[0.2, 0.2, 0.9], [0.8, 0.2, 0.1], [0.3, 0.9, 0.5], [0.9, 0.9, 0.5]]) {
      expect(Math.abs(predictGbm(m, x) - truth(x)), JSON.stringify(x)).toBeLessThan(0.08);
    }
    // the noise feature never splits usefully: moving it changes little
    expect(Math.abs(predictGbm(m, [0.8, 0.5, 0.05]) - predictGbm(m, [0.8, 0.5, 0.95]))).toBeLessThan(0.05);
  });

  it('sends an unknown value (NaN) down the low side, like the smallest value', () => {
    const n = 2000;
    const a = Float64Array.from({ length: n }, (_, i) => (i % 10 === 0 ? NaN : i / n));
    const y = Float64Array.from(a, (v) => (v !== v || v < 0.5 ? 0 : 1));
    const m = fitGbm(['a'], [a], y);
    expect(predictGbm(m, [NaN])).toBeCloseTo(predictGbm(m, [0.01]), 6);
    expect(predictGbm(m, [0.9])).toBeGreaterThan(0.9);
  });

  it('is not pulled by a few far-off sales (Huber loss): deeds 7x their value move the trees little', () => {
    // the truth 0.5 a; one row in eight is a sale at e^2 = 7.4 times its value (a one-sided tail like the cheap deeds
    // valued high, seen from the other side): least squares lands near 0.5 a + 2/8, the Huber trees near the truth
    const rnd = lcg(11);
    const n = 4000;
    const a = new Float64Array(n), y = new Float64Array(n);
    for (let i = 0; i < n; i++) { a[i] = rnd(); y[i] = 0.5 * a[i]! + (rnd() - 0.5) * 0.1 + (i % 8 === 0 ? 2 : 0); }
    const m = fitGbm(['a'], [a], y);
    for (const x of [0.1, 0.4, 0.7, 0.9]) expect(Math.abs(predictGbm(m, [x]) - 0.5 * x), String(x)).toBeLessThan(0.06);
    const ls = fitGbm(['a'], [a], y, { ...GBM_DEFAULTS, loss: 'squared' });
    expect(predictGbm(ls, [0.4]) - 0.2).toBeGreaterThan(0.2);
  });

  it('without any split (constant target) predicts the mean', () => {
    const y = new Float64Array(100).fill(3);
    const m = fitGbm(['a'], [Float64Array.from({ length: 100 }, (_, i) => i)], y);
    expect(predictGbm(m, [42])).toBeCloseTo(3, 6);
  });
});
