// The stacked estimate (issue 24 eighth round; valuation.md "Stacked trees"): trees fitted on the comps estimate's own
// error over the comps' shape (estimate.ts STACK_FEATURES), the comps estimate + their prediction taking the comps' share
// of the blend where the calibration folds choose it (backtest.ts chooseBlend), and the answer's parts (answer.ts
// blendBody, backtest.ts modelName). Hand-made markets whose comps' shape is worked out from the rows themselves.
import { describe, expect, it } from 'vitest';
import { CompIndex, type CompSetData } from '../../../live/valuation/comps.ts';
import { GBM_BASE_FEATURES, STACK_FEATURES, estimate } from '../../../live/valuation/estimate.ts';
import { BLEND_GRID, COMPS_ONLY, chooseBlend, modelName, type Prediction } from '../../../live/valuation/backtest.ts';
import { blendBody } from '../../../live/valuation/answer.ts';
import { treesNote } from '../../../live/valuation/notes.ts';
import { dayOf, monthOfDay } from '../../../live/valuation/helpers.ts';
import type { Blend, ModelParams, Subject } from '../../../live/valuation/types.ts';

const D0 = dayOf('2024-06-01');
/** 12 sales around the subject's point, sqft 1,200-2,300 and built 1960-2015, one far outlier in price. */
function market(): CompSetData {
  const d: CompSetData = { source: 'hand', zips: ['99901'], zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
  for (let k = 0; k < 12; k++) {
    d.zip.push(0); d.day.push(D0 + k * 7); d.price.push(k === 11 ? 2_500_000 : 400_000 + k * 10_000); d.sqft.push(1200 + k * 100);
    d.beds.push(3); d.baths.push(2); d.year.push(1960 + k * 5); d.cond.push(2); d.type.push(0);
    d.lat.push(47.6 + k * 0.002); d.lng.push(-122.3 - k * 0.001); d.key.push(`${k + 1} A ST`);
  }
  return d;
}
const flat: ModelParams = { source: 'hand', month0: monthOfDay(D0), index: [0], elasticity: 0.65, beds: 0.02, baths: 0.03, year: 0.001, features: {}, fitted_rows: 100 };
const subject: Subject = { zip: '99901', sqft: 1500, beds: 3, baths: 2, year: 1985, features: {}, cond: 'good', type: 0, lat: 47.6, lng: -122.3, mode: 'record' };
const at = { valuationDay: D0 + 120, beforeDay: D0 + 120 };

describe('the comps\' shape the stacked trees read', () => {
  it('count, dispersion, distance, age, effective count and the subject minus the kept comps\' weighted means', () => {
    const set = market();
    const e = estimate(new CompIndex(set), flat, subject, { ...at, detail: true })!;
    const kept = e.comps!.filter((c) => c.kept);
    expect(kept.length).toBeLessThan(12); // the outlier is trimmed, so the means are over the kept comps only
    const sw = kept.reduce((a, c) => a + c.weight, 0);
    const mean = (f: (row: number) => number): number => kept.reduce((a, c) => a + c.weight * f(c.row), 0) / sw;
    expect(STACK_FEATURES).toHaveLength(8);
    const [count, disp, dist, age, eff, dSqft, dYear, dGrade] = e.compFeatures;
    expect([count, disp, dist, age, eff]).toEqual([e.compCount, e.dispersion, e.medianDistanceKm, e.medianAgeMonths, e.effectiveComps]);
    expect(count).toBe(kept.length);
    expect(dSqft).toBeCloseTo(Math.log(1500) - mean((r) => Math.log(set.sqft[r]!)), 10);
    expect(dYear).toBeCloseTo(1985 - mean((r) => set.year[r]!), 10);
    expect(dGrade).toBeNaN(); // the source grades nothing
  });
});

describe('the stacked estimate', () => {
  // a stump on the comp count (the first comp feature, after the base features): -0.1 with 5 comps or fewer, else +0.05
  const stump = (): NonNullable<ModelParams['stacked']> => ({ features: [...GBM_BASE_FEATURES, ...STACK_FEATURES], base: 0.01, trees: [[GBM_BASE_FEATURES.length, 5, 4, 8, -1, -0.1, 0, 0, -1, 0.05, 0, 0]] });
  const blend: Blend = { comps: 0, hedonic: 0, gbm: 0, stacked: 1 };

  it('is the comps estimate + the trees over the comps\' shape, and takes its share of a recorded subject\'s value', () => {
    const idx = new CompIndex(market());
    const plain = estimate(idx, flat, subject, at)!;
    expect(plain.stackedLog).toBeNull();
    const e = estimate(idx, { ...flat, stacked: stump(), blend }, subject, at)!;
    expect(e.compCount).toBeGreaterThan(5);
    expect(e.compsLog).toBe(plain.compsLog); // the comps estimate itself is untouched
    expect(e.stackedLog).toBeCloseTo(plain.compsLog + 0.01 + 0.05, 12);
    expect(e.logValue).toBeCloseTo(e.stackedLog!, 12);
    // a share of 0.7 beside the comps' 0.3
    const mixed = estimate(idx, { ...flat, stacked: stump(), blend: { ...blend, comps: 0.3, stacked: 0.7 } }, subject, at)!;
    expect(mixed.logValue).toBeCloseTo(0.3 * plain.compsLog + 0.7 * (plain.compsLog + 0.06), 12);
    // an address without a record is valued by its comps alone, as with the other parts of the blend
    const req = estimate(idx, { ...flat, stacked: stump(), blend }, { ...subject, mode: 'request' }, at)!;
    expect(req.stackedLog).toBeNull();
    expect(req.logValue).toBe(req.compsLog);
  });

  it('the answer names it and gives its value and share; the comps value stays the comps\' own', () => {
    const e = estimate(new CompIndex(market()), { ...flat, stacked: stump(), blend: { comps: 0, hedonic: 0, gbm: 0.3, stacked: 0.7 } }, subject, at)!;
    const round = (v: number): number => Math.round(v / 100) * 100;
    const body = blendBody({ comps: 0, hedonic: 0, gbm: 0.3, stacked: 0.7 }, 'record', e, round)!;
    expect(body).toMatchObject({ comps_value: round(Math.exp(e.compsLog)), comps_weight: 0, stacked_value: round(Math.exp(e.stackedLog!)), stacked_weight: 0.7, trees_weight: 0.3, trees_value: null });
    expect(blendBody({ comps: 0.5, hedonic: 0.1, gbm: 0.4 }, 'record', e, round)).toMatchObject({ stacked_value: round(Math.exp(e.stackedLog!)), stacked_weight: 0 });
    expect(blendBody(COMPS_ONLY, 'record', e, round)).toBeNull();
    expect(modelName({ comps: 0, hedonic: 0, gbm: 0.3, stacked: 0.7 })).toBe('blend: stacked comps 0.7, boosted trees 0.3');
    expect(modelName({ comps: 0.5, hedonic: 0.1, gbm: 0.4 })).toBe('blend: comps 0.5, hedonic 0.1, boosted trees 0.4');
  });
});

describe('a record with none of the assessor fields the trees read', () => {
  it('is valued by its comps alone, and the note names both shares that went to them', () => {
    const model = (extra: string[]): NonNullable<ModelParams['gbm']> => ({ features: [...GBM_BASE_FEATURES, 'grade', ...extra], base: 0.5, trees: [], featureless_rows: 0 });
    const p: ModelParams = { ...flat, gbm: model([]), stacked: model([...STACK_FEATURES]), blend: { comps: 0, hedonic: 0, gbm: 0.3, stacked: 0.7 } };
    const e = estimate(new CompIndex(market()), p, subject, at)!;
    expect([e.gbmLog, e.stackedLog]).toEqual([null, null]);
    expect(e.logValue).toBeCloseTo(e.compsLog, 12);
    expect(treesNote(p, subject, e.gbmLog, e.stackedLog)).toBe('The boosted trees and the stacked trees read this source\'s assessor fields (grade), none of which this record has: their 100% share of the blend went to the comps');
    // a graded record: both read it, no note
    const graded = estimate(new CompIndex(market()), p, { ...subject, features: { grade: 7 } }, at)!;
    expect(graded.stackedLog).toBeCloseTo(graded.compsLog + 0.5, 12);
    expect(treesNote(p, { ...subject, features: { grade: 7 } }, graded.gbmLog, graded.stackedLog)).toBeNull();
  });
});

describe('the folds choose the stacked estimate only where it wins on each', () => {
  /** 300 recorded predictions per fold, the comps erring by |log| cErr, the trees by tErr, the stacked estimate by
   *  sErr[fold] (signs alternating, the parts erring the same way, so a blend errs by its shares' mix). */
  const preds = (cErr: number, tErr: number, sErr: [number, number]): Prediction[] => [0, 1].flatMap((fold) => Array.from({ length: 300 }, (_, k) => {
    const sign = k % 2 ? 1 : -1, a = Math.log(300_000);
    return { source: 's', row: fold * 300 + k, slice: 'calibration' as const, fold, mode: 'record' as const, actual: 300_000, estimate: 1, tier: 'low' as const, compCount: 15, score: 0,
      compsLog: a + sign * cErr, hedonicLog: null, gbmLog: a + sign * tErr, stackedLog: a + sign * sErr[fold]! };
  }));

  it('the grid: each blend again with the stacked estimate in the comps\' place', () => {
    expect(BLEND_GRID.filter((b) => b.stacked)).toHaveLength(BLEND_GRID.length / 2);
    expect(BLEND_GRID).toContainEqual({ comps: 0, hedonic: 0, gbm: 0.3, stacked: 0.7 });
  });

  it('wins by 1% on both folds: chosen; on one fold only (Philadelphia): the best blend without it', () => {
    // comps 0.10, trees 0.12: comps + trees blends err between; the stacked 0.08 on both folds wins
    const both = chooseBlend(preds(0.1, 0.12, [0.08, 0.08]));
    expect(both.stacked).toBe(1);
    // 0.08 on fold 1 and 0.0995 on fold 2 (0.5% under the comps' 0.10): pooled it would win, on fold 2 it does not
    const one = chooseBlend(preds(0.1, 0.12, [0.08, 0.0995]));
    expect(one.stacked ?? 0).toBe(0);
    expect(one).toEqual(COMPS_ONLY);
    // without stacked estimates (a market without the stacked trees) the rule is the comps' grid's
    expect(chooseBlend(preds(0.1, 0.12, [0.08, 0.08]).map((p) => ({ ...p, stackedLog: null }))).stacked ?? 0).toBe(0);
  });
});
