// The comps' distance scale per market (backtest.ts chooseDistance, ModelParams.distance_km; issue 24 eleventh round):
// chosen on the calibration folds by the stacked blend's rule (the best blend under it beats the default's by 1% on
// each fold, or the default), and read by the estimator from the market's params.
import { describe, expect, it } from 'vitest';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { DISTANCE_GRID, chooseDistance, tuned, type Prediction } from '../../../live/valuation/backtest.ts';
import { fitParams } from '../../../live/valuation/fit.ts';
import { TUNING, estimate } from '../../../live/valuation/estimate.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

/** 300 recorded calibration predictions a fold whose comps estimate errs by |log| = errs[fold] (alternating signs). */
const preds = (errs: number[]): Prediction[] => errs.flatMap((err, fold) => Array.from({ length: 300 }, (_, k) => ({
  source: 's', row: k, slice: 'calibration' as const, mode: 'record' as const, actual: 100_000, estimate: 1, tier: 'low' as const, compCount: 15, score: 0,
  compsLog: Math.log(100_000) + (k % 2 ? err : -err), hedonicLog: null, gbmLog: null, fold,
})));

describe('the distance scale per market', () => {
  it('the default first, then 0.3 km', () => {
    expect(DISTANCE_GRID).toEqual([TUNING.distKm, 0.3]);
  });

  it('takes another scale only when each fold errs 1% less than under the default', () => {
    const d = (errs: number[]): number => chooseDistance([{ d: 0.6, preds: preds([0.1, 0.1]) }, { d: 0.3, preds: preds(errs) }]).d;
    expect(d([0.098, 0.098])).toBe(0.3); // 2% less on each
    expect(d([0.09, 0.0995])).toBe(0.6); // one fold 0.5% less
    expect(d([0.07, 0.102])).toBe(0.6); // far better pooled, one fold worse
    expect(d([0.12, 0.12])).toBe(0.6);
  });

  it('params record a scale only where it is not the default', () => {
    const p = fitParams(new CompIndex(syntheticMarket(300, 3, 0.1)), Infinity);
    expect(tuned(p, TUNING.recencyMonths, TUNING.distKm)).toEqual(p);
    expect(tuned(p, 18, 0.3)).toMatchObject({ recency_months: 18, distance_km: 0.3 });
  });

  it('the estimator weighs nearer comps more under a shorter scale read from the params', () => {
    const idx = new CompIndex(syntheticMarket(800, 7, 0.12));
    const last = Math.max(...idx.day);
    const p = fitParams(idx, last + 1);
    const s = idx.subjectOf(idx.n - 1);
    const meanKm = (q: typeof p): number => {
      const e = estimate(idx, q, s, { valuationDay: last, beforeDay: last + 1, excludeRow: idx.n - 1, detail: true })!;
      return e.comps!.reduce((a, c) => a + (c.distanceKm ?? 0) * c.weightBeforeTrim, 0);
    };
    expect(meanKm({ ...p, distance_km: 0.3 })).toBeLessThan(meanKm(p));
    expect(meanKm({ ...p, distance_km: TUNING.distKm })).toBeCloseTo(meanKm(p), 9);
  });
});
