// The comps' similarity scales learned per market (choose.ts chooseKernel, ModelParams.kernel; issue 24 fourteenth
// round): a coordinate search on the first calibration fold, kept only when both folds' best blends gain 1%, read by
// the estimator for recorded subjects only.
import { describe, expect, it } from 'vitest';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { KERNEL_STEP_GAIN, chooseKernel, kernelValue, kernelWins } from '../../../live/valuation/choose.ts';
import { kernelScales, tuned, type Prediction } from '../../../live/valuation/backtest.ts';
import { fitParams } from '../../../live/valuation/fit.ts';
import { TUNING, estimate } from '../../../live/valuation/estimate.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

/** 300 recorded calibration predictions a fold whose comps estimate errs by |log| = errs[fold] (alternating signs). */
const preds = (errs: number[]): Prediction[] => errs.flatMap((err, fold) => Array.from({ length: 300 }, (_, k) => ({
  source: 's', row: k, slice: 'calibration' as const, mode: 'record' as const, actual: 100_000, estimate: 1, tier: 'low' as const, compCount: 15, score: 0,
  compsLog: Math.log(100_000) + (k % 2 ? err : -err), hedonicLog: null, gbmLog: null, fold,
})));

describe('the kernel search', () => {
  it('walks each scale by halving or doubling toward the lowest error', () => {
    // an error whose minimum is the size scale at a quarter of the default and beds at twice theirs
    const err = (k: Record<string, number>): number => 0.1 + Math.log(kernelValue(k, 'size') / (TUNING.size / 4)) ** 2
      + Math.log(kernelValue(k, 'beds') / (TUNING.beds * 2)) ** 2 + Math.log(kernelValue(k, 'year') / TUNING.year) ** 2;
    const { kernel, trace } = chooseKernel(['size', 'beds', 'year'], err);
    expect(kernel).toEqual({ size: TUNING.size / 4, beds: TUNING.beds * 2 });
    expect(trace[0]).toMatch(/^defaults /);
    expect(trace).toHaveLength(4); // size, beds, then size again on the second pass
  });

  it('keeps the defaults when no step lowers the error by KERNEL_STEP_GAIN', () => {
    const small = (k: Record<string, number>): number => (k.size ? 0.1 * (1 - KERNEL_STEP_GAIN / 2) : 0.1);
    expect(chooseKernel(['size', 'year'], small).kernel).toEqual({});
    const enough = (k: Record<string, number>): number => (k.size ? 0.1 * (1 - KERNEL_STEP_GAIN * 2) : 0.1);
    expect(Object.keys(chooseKernel(['size', 'year'], enough).kernel)).toEqual(['size']);
  });

  it('keeps a learned kernel only when each fold errs 1% less than under the defaults', () => {
    const base = preds([0.1, 0.1]);
    expect(kernelWins(base, preds([0.098, 0.098])).wins).toBe(true);
    expect(kernelWins(base, preds([0.09, 0.0995])).wins).toBe(false); // the held-out fold 0.5% less
    const r = kernelWins(base, preds([0.07, 0.102])); // far better pooled, the held-out fold worse
    expect(r.wins).toBe(false);
    expect(r.base[1]).toBeCloseTo(0.1, 9);
    expect(r.learned).toHaveLength(2);
    expect(r.learned[1]).toBeCloseTo(0.102, 9);
  });

  it('searches the scales a market records: size, beds, baths and year where known, weighted assessor features', () => {
    const idx = new CompIndex(syntheticMarket(300, 3, 0.1));
    const scales = kernelScales(idx);
    expect(scales[0]).toBe('size');
    expect(scales).toContain('beds'); // every synthetic sale has beds
    for (const s of scales.slice(1)) expect(['beds', 'baths', 'year', ...Object.keys(TUNING.features)]).toContain(s);
  });

  it('params record a kernel only when it holds a scale', () => {
    const p = fitParams(new CompIndex(syntheticMarket(300, 3, 0.1)), Infinity);
    expect(tuned(p, TUNING.recencyMonths, TUNING.distKm, {})).toEqual(p);
    expect(tuned(p, TUNING.recencyMonths, TUNING.distKm, { size: 0.15 }).kernel).toEqual({ size: 0.15 });
  });

  it('the estimator weighs comps of the subject\'s size more under a smaller learned size scale, for a recorded subject only', () => {
    const idx = new CompIndex(syntheticMarket(800, 7, 0.12));
    const last = Math.max(...idx.day);
    const p = fitParams(idx, last + 1);
    const rec = idx.subjectOf(idx.n - 1);
    const sizeGap = (q: typeof p, s = rec): number => {
      const e = estimate(idx, q, s, { valuationDay: last, beforeDay: last + 1, excludeRow: idx.n - 1, detail: true })!;
      return e.comps!.reduce((a, c) => a + Math.abs(Math.log(s.sqft) - idx.logSqft[c.row]!) * c.weightBeforeTrim, 0);
    };
    expect(sizeGap({ ...p, kernel: { size: TUNING.size / 4 } })).toBeLessThan(sizeGap(p));
    expect(sizeGap({ ...p, kernel: { size: TUNING.size } })).toBeCloseTo(sizeGap(p), 12);
    // a subject the endpoint describes as the zip's typical property with the sqft sent: the kernel was not learned on it
    const req = { ...rec, beds: null, features: {}, lat: null, lng: null, mode: 'request' as const };
    expect(sizeGap({ ...p, kernel: { size: TUNING.size / 4 } }, req)).toBe(sizeGap(p, req));
  });
});
