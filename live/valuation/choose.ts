// The back-test's choices per source, made on its calibration folds only (pure, no I/O; live/valuation/backtest.ts
// runs them): the comps' recency and distance scales and the blend of the comps, hedonic, trees and stacked
// estimates. warehouse/docs/valuation.md "Weights" and "The model per market".
import type { Blend, ModelParams } from './types.ts';
import { median } from './helpers.ts';
import { TUNING, blendLog } from './estimate.ts';

/** What a choice reads of a back-test prediction (backtest.ts Prediction). */
interface Scored {
  slice: 'calibration' | 'test'; mode: string; actual: number; fold?: number;
  compsLog?: number; hedonicLog?: number | null; gbmLog?: number | null; stackedLog?: number | null;
}

/** Recency scales (months) the back-test tries per source, the default first (valuation.md "Weights"). */
export const RECENCY_GRID: readonly number[] = [TUNING.recencyMonths, 18];
/** Distance scales (km) the back-test tries per source, the default first (issue 24 eleventh round). */
export const DISTANCE_GRID: readonly number[] = [TUNING.distKm, 0.3];

/** The recency scale of a source: the one whose calibration folds' recorded subjects have the lowest median |log
 *  error| of the comps estimate, kept over the default (the first) only when it beats it by 1% (relative), the
 *  blend's rule (NYC: 9 months 14.38%, 18 months 14.16%; King County 8.60 / 8.55, Philadelphia comps 19.21 / 19.31). */
export function chooseRecency<P extends Scored>(runs: { r: number; preds: P[] }[]): { r: number; preds: P[] } {
  const err = (ps: Scored[]): number => median(ps.filter((p) => p.mode === 'record' && p.compsLog !== undefined).map((p) => Math.abs(Math.log(p.actual) - p.compsLog!)));
  const base = runs[0]!;
  if (base.preds.filter((p) => p.mode === 'record').length < 200) return base;
  let best = base, bestErr = err(base.preds);
  const limit = bestErr * 0.99;
  for (const run of runs.slice(1)) { const e = err(run.preds); if (e < limit && e < bestErr) { best = run; bestErr = e; } }
  return best;
}

/** Params with the comps' recency and distance scales and learned kernel (each recorded only where not the default). */
export const tuned = (p: ModelParams, recency: number, distance: number, kernel?: Kernel): ModelParams => ({ ...p,
  ...(recency !== TUNING.recencyMonths ? { recency_months: recency } : {}), ...(distance !== TUNING.distKm ? { distance_km: distance } : {}),
  ...(kernel && Object.keys(kernel).length ? { kernel } : {}) });

/** The median |log error| per calibration fold (in fold order) of the recorded subjects under the best blend without
 *  the stacked estimate that chooseBlend picks over all of them. */
export function foldErrors(ps: readonly Scored[]): number[] {
  const cal = ps.filter((p) => p.slice === 'calibration' && p.mode === 'record' && p.compsLog !== undefined);
  const b = chooseBlend(cal);
  return [...new Set(cal.map((p) => p.fold))].sort().map((f) => median(cal.filter((p) => p.fold === f).map((p) => Math.abs(Math.log(p.actual) - blendLog(b, p.compsLog!, p.hedonicLog ?? null, p.gbmLog ?? null)))));
}

/** The distance scale of a source: the first of `runs` (the default) unless another's best blend without the stacked
 *  estimate (chooseBlend) beats the default's by 1% on each calibration fold, the stacked blend's rule (Philadelphia:
 *  0.3 km, comps 0.6 + trees 0.4 17.57% (17.21 / 17.91) -> comps 0.5 + hedonic 0.1 + trees 0.4 16.87% (16.40 /
 *  17.44): nearer comps err apart from the trees; King County and NYC (no points) keep 0.6). */
export function chooseDistance<P extends Scored>(runs: { d: number; preds: P[] }[]): { d: number; preds: P[] } {
  const base = foldErrors(runs[0]!.preds);
  let best = runs[0]!, bestErr = base.reduce((a, b) => a + b, 0);
  for (const run of runs.slice(1)) {
    const e = foldErrors(run.preds);
    if (e.length === base.length && e.every((v, k) => v < base[k]! * 0.99) && e.reduce((a, b) => a + b, 0) < bestErr) { best = run; bestErr = e.reduce((a, b) => a + b, 0); }
  }
  return best;
}

/** Learned similarity scales of a market (ModelParams.kernel): scale name -> value. */
export type Kernel = Record<string, number>;
/** Factors a coordinate step multiplies one scale by, and the passes over the scales (issue 24 fourteenth round). */
export const KERNEL_STEPS: readonly number[] = [0.5, 2];
export const KERNEL_PASSES = 2;
/** A step is taken only when it lowers the search fold's error by this share (relative): smaller moves are noise. */
export const KERNEL_STEP_GAIN = 0.005;

/** A scale's value under a kernel: the learned one, else TUNING's (size and year scales, beds, baths and feature weights). */
export const kernelValue = (k: Kernel, name: string): number => k[name] ?? (name === 'size' ? TUNING.size : name === 'year' ? TUNING.year
  : name === 'beds' ? TUNING.beds : name === 'baths' ? TUNING.baths : TUNING.features[name]?.weight ?? 0.5);

/** The market's learned kernel, nested in its calibration folds: a coordinate search over `scales` (each multiplied
 *  by KERNEL_STEPS in turn, a step kept when it lowers `searchErr` by KERNEL_STEP_GAIN; KERNEL_PASSES passes) on the
 *  first fold only (`searchErr`: the error of a kernel on that fold's recorded subjects); then the kernel found is
 *  kept only when its best blend beats the defaults' by 1% on **each** fold (`validate`: foldErrors of both runs), the
 *  later fold held out from the search as the test slice is from the folds. The test slice informs nothing. */
export function chooseKernel(scales: readonly string[], searchErr: (k: Kernel) => number): { kernel: Kernel; trace: string[] } {
  let cur: Kernel = {}, curErr = searchErr(cur);
  const trace = [`defaults ${curErr.toFixed(5)}`];
  for (let pass = 0; pass < KERNEL_PASSES; pass++) {
    let moved = false;
    for (const name of scales) {
      let best: Kernel | null = null, bestErr = curErr * (1 - KERNEL_STEP_GAIN);
      for (const f of KERNEL_STEPS) {
        const k = { ...cur, [name]: Number((kernelValue(cur, name) * f).toPrecision(6)) };
        const e = searchErr(k);
        if (e < bestErr) { best = k; bestErr = e; }
      }
      if (best) { cur = best; curErr = bestErr; moved = true; trace.push(`${name} ${best[name]} ${bestErr.toFixed(5)}`); }
    }
    if (!moved) break;
  }
  return { kernel: cur, trace };
}

/** Whether a learned kernel's fold predictions beat the defaults' by 1% on each calibration fold (chooseDistance's
 *  rule), with each fold's error under both (foldErrors). */
export function kernelWins(base: readonly Scored[], learned: readonly Scored[]): { wins: boolean; base: number[]; learned: number[] } {
  const b = foldErrors(base), l = foldErrors(learned);
  return { wins: l.length === b.length && b.length > 0 && l.every((v, k) => v < b[k]! * 0.99), base: b, learned: l };
}

export const COMPS_ONLY: Blend = { comps: 1, hedonic: 0, gbm: 0 };
const COMPS_GRID: readonly Blend[] = [
  COMPS_ONLY, { comps: 0.85, hedonic: 0.15, gbm: 0 }, { comps: 0.7, hedonic: 0.3, gbm: 0 },
  { comps: 0.7, hedonic: 0, gbm: 0.3 }, { comps: 0.6, hedonic: 0, gbm: 0.4 }, { comps: 0.5, hedonic: 0, gbm: 0.5 },
  { comps: 0.6, hedonic: 0.1, gbm: 0.3 }, { comps: 0.5, hedonic: 0.1, gbm: 0.4 },
];
/** Shares tried by chooseBlend, comps only first; then each again with the stacked estimate in the comps' place. */
export const BLEND_GRID: readonly Blend[] = [...COMPS_GRID, ...COMPS_GRID.map((b) => ({ ...b, comps: 0, stacked: b.comps }))];

/** The model per market, learned on the calibration folds only (never the test slice): the shares of the comps,
 *  hedonic, boosted-trees and stacked estimates (log scale, BLEND_GRID) with the lowest median |log error| over the
 *  folds' recorded subjects (only recorded subjects are blended: the others need the property's own characteristics);
 *  a blend must beat comps alone by at least 1% (relative) to be kept, and one with the stacked estimate must beat the
 *  best without it by 1% on each calibration fold as well (issue 24 eighth round's rule: Philadelphia's stacked blend
 *  gains on one fold only and keeps the comps). */
export function chooseBlend(preds: readonly Scored[]): Blend {
  const cal = preds.filter((p) => p.slice === 'calibration' && p.mode === 'record' && p.compsLog !== undefined);
  if (cal.length < 200) return COMPS_ONLY;
  const err = (b: Blend, ps: Scored[] = cal): number => median(ps.map((p) => Math.abs(Math.log(p.actual) - blendLog(b, p.compsLog!, p.hedonicLog ?? null, p.gbmLog ?? null, p.stackedLog ?? null))));
  const pick = (grid: readonly Blend[], base: Blend): Blend => {
    let best = base, bestErr = err(base);
    const limit = bestErr * 0.99;
    for (const b of grid) { const e = err(b); if (e < limit && e < bestErr) { best = b; bestErr = e; } }
    return best;
  };
  const best = pick(COMPS_GRID.slice(1), COMPS_ONLY);
  if (!cal.some((p) => p.stackedLog != null)) return best;
  const stacked = pick(BLEND_GRID.filter((b) => b.stacked), best);
  const folds = [...new Set(cal.map((p) => p.fold))].map((f) => cal.filter((p) => p.fold === f));
  return stacked !== best && folds.every((ps) => err(stacked, ps) < err(best, ps) * 0.99) ? stacked : best;
}
