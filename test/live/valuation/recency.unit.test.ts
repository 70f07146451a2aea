// The comps' recency scale per market (backtest.ts chooseRecency, ModelParams.recency_months; valuation.md "Weights"):
// chosen on the calibration folds by the blend's rule (1% better than the default 9 months, or the default), and read
// by the estimator from the market's params (NYC's sales have an 11-month gap: its folds chose 18 months).
import { describe, expect, it } from 'vitest';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { RECENCY_GRID, chooseRecency, type Prediction } from '../../../live/valuation/backtest.ts';
import { fitParams } from '../../../live/valuation/fit.ts';
import { TUNING, estimate } from '../../../live/valuation/estimate.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

/** n recorded calibration predictions whose comps estimate errs by |log| = err each (alternating signs). */
const preds = (n: number, err: number): Prediction[] => Array.from({ length: n }, (_, k) => ({
  source: 's', row: k, slice: 'calibration', mode: 'record', actual: 100_000, estimate: 1, tier: 'low', compCount: 15, score: 0,
  compsLog: Math.log(100_000) + (k % 2 ? err : -err),
}));

describe('the recency scale per market', () => {
  it('the default first, then 18 months', () => {
    expect(RECENCY_GRID).toEqual([TUNING.recencyMonths, 18]);
  });

  it('takes another scale only when its folds err 1% less than the default\'s', () => {
    expect(chooseRecency([{ r: 9, preds: preds(300, 0.1) }, { r: 18, preds: preds(300, 0.098) }]).r).toBe(18); // 2% less
    expect(chooseRecency([{ r: 9, preds: preds(300, 0.1) }, { r: 18, preds: preds(300, 0.0995) }]).r).toBe(9); // 0.5% less
    expect(chooseRecency([{ r: 9, preds: preds(300, 0.1) }, { r: 18, preds: preds(300, 0.12) }]).r).toBe(9);
    // too few recorded subjects on the folds to choose (Sacramento): the default
    expect(chooseRecency([{ r: 9, preds: preds(150, 0.1) }, { r: 18, preds: preds(150, 0.05) }]).r).toBe(9);
  });

  it('the estimator weighs older comps more under a longer scale read from the params', () => {
    const idx = new CompIndex(syntheticMarket(800, 7, 0.12));
    const last = Math.max(...idx.day);
    const p = fitParams(idx, last + 1);
    const s = idx.subjectOf(idx.n - 1);
    const ages = (q: typeof p): number[] => {
      const e = estimate(idx, q, s, { valuationDay: last, beforeDay: last + 1, excludeRow: idx.n - 1, detail: true })!;
      return e.comps!.map((c) => (last - idx.day[c.row]!) * c.weightBeforeTrim);
    };
    const meanAge = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    expect(meanAge(ages({ ...p, recency_months: 18 }))).toBeGreaterThan(meanAge(ages(p)));
    expect(meanAge(ages({ ...p, recency_months: TUNING.recencyMonths }))).toBeCloseTo(meanAge(ages(p)), 9);
  });
});
