// The time-split back-test of the valuation estimator (pure, no I/O), shared by the build step
// (live/valuation/build.ts: calibration table + report section) and scripts/eval-avm.ts.
//
// Per source, subjects are its residential sales in date order:
//   calibration  two folds, 48-64% and 64-80% of the sales by date: each predicted only from the sales before the
//                fold (comps, index, slopes); |log(actual / estimate)| per source, mode and tier -> conformal q
//   test         the last 20%: predicted only from the sales before it, interval = estimate x exp(+-q)
// A subject's own sale is never its comp, and nothing sold on or after the split day is used. Every sale is a subject
// once per subject mode (record, request, typical: the three ways the live endpoint describes a subject).
import { RESIDENTIAL_TYPES, SUBJECT_MODES, TIERS, type Blend, type Condition, type Estimate, type ModelParams, type Subject, type SubjectMode, type Tier } from './types.ts';
import { median } from './helpers.ts';
import { CompIndex } from './comps.ts';
import { fitModel, fitParams, fitStacked } from './fit.ts';
import { TUNING, blendLog, estimate } from './estimate.ts';
import { COMPS_ONLY, DISTANCE_GRID, RECENCY_GRID, chooseBlend, chooseDistance, chooseKernel, chooseRecency, foldErrors, kernelWins, tuned, type Kernel } from './choose.ts';
export { BLEND_GRID, COMPS_ONLY, DISTANCE_GRID, RECENCY_GRID, chooseBlend, chooseDistance, chooseKernel, chooseRecency, tuned, type Kernel } from './choose.ts';
import { COVERAGE, calibratedQ, conformalQuantile, type CalibrationRow } from './interval.ts';

/** Calibration folds start at these shares of the source's sales (each ends where the next begins); the test slice
 *  starts at TEST_START. Two folds average over more than one season of drift. */
export const CAL_FOLDS: readonly number[] = [0.48, 0.64];
export const TEST_START = 0.8;

export interface Prediction {
  source: string;
  row: number;
  slice: 'calibration' | 'test';
  mode: SubjectMode;
  actual: number;
  estimate: number;
  tier: Tier;
  compCount: number;
  /** |log(actual / estimate)|: the conformity score. */
  score: number;
  /** The comps, hedonic and trees estimates (log) the blend mixes. */
  compsLog?: number;
  hedonicLog?: number | null;
  gbmLog?: number | null;
  /** The stacked estimate (log; null without the stacked trees). */
  stackedLog?: number | null;
  /** The calibration fold (0, 1) of a calibration prediction: chooseBlend's per-fold rule. */
  fold?: number;
  /** The kept comps' median distance (km; null without points) and median age (months): eval:avm --breakdown. */
  distKm?: number | null;
  ageMonths?: number;
}

export interface SplitDays { calStarts: number[]; testStart: number; subjects: number }

/** Split days at the CAL_FOLDS and TEST_START points of the source's residential sales (by date). */
export function splitDays(idx: CompIndex): SplitDays {
  const days = Array.from(idx.day).filter((_, i) => RESIDENTIAL_TYPES.has(idx.data.type[i]!)).sort((a, b) => a - b);
  const at = (q: number): number => days[Math.min(days.length - 1, Math.floor(days.length * q))] ?? 0;
  const first = (days[0] ?? 0) + 1;
  let testStart = Math.max(at(TEST_START), first + 1);
  // few distinct days (Sacramento: five): folds collapse into one, each at least a day long
  const calStarts = [...new Set(CAL_FOLDS.map((q) => Math.max(first, at(q))))].filter((d) => d < testStart).sort((a, b) => a - b);
  if (calStarts.length === 0) { calStarts.push(first); testStart = Math.max(testStart, first + 1); }
  return { calStarts, testStart, subjects: days.length };
}

/** The subject the live endpoint would build for row i (live/valuation/endpoint.ts resolve): its recorded characteristics
 *  ('record': address found), its sqft and condition over the zip's typical property among the earlier sales
 *  ('request': address not found, sqft sent), or only its condition over that typical property, the typical sqft
 *  included ('typical': address not found, no sqft sent). */
export function subjectFor(idx: CompIndex, i: number, mode: SubjectMode, beforeDay: number, typicalCache: Map<string, ReturnType<CompIndex['typical']>>): Subject | null {
  const rec = idx.subjectOf(i);
  if (mode === 'record') return rec;
  let t = typicalCache.get(rec.zip);
  if (t === undefined) {
    t = idx.typical(rec.zip, (idx.byZip.get(rec.zip) ?? []).filter((r) => idx.day[r]! < beforeDay));
    typicalCache.set(rec.zip, t);
  }
  if (!t) return null;
  const sqft = mode === 'request' ? rec.sqft : t.sqft;
  return { zip: rec.zip, sqft, beds: t.beds, baths: t.baths, year: t.year, features: {}, cond: rec.cond as Condition, type: t.type, lat: null, lng: null, mode };
}

export interface BacktestResult {
  source: string;
  split: SplitDays;
  paramsTest: ModelParams;
  predictions: Prediction[];
  /** The comps share chosen on the calibration folds (chooseBlend); 1 = comps only. */
  blend: Blend;
  /** The comps' recency scale (months) chosen on the calibration folds (chooseRecency). */
  recency: number;
  /** The comps' distance scale (km) chosen on the calibration folds (chooseDistance). */
  distance: number;
  /** The recorded subjects' similarity scales learned on the calibration folds (chooseKernel; {} = TUNING's) and the
   *  search's steps with the first fold's error (eval:avm prints them; `kept` whether the held-out fold kept them). */
  kernel: Kernel;
  kernelSearch: { trace: string[]; kept: boolean; folds: { defaults: number[]; learned: number[] } | null } | null;
}


/** The days the back-test of the live estimator fits its models on, each fitModel(asOf(idx, day), day): the test
 *  slice's start and each calibration fold's. The build fits them apart on worker threads (fit-tasks.ts) and passes
 *  them back as backtest()'s `fitted`. */
export function backtestFitDays(idx: CompIndex): number[] {
  const split = splitDays(idx);
  return [split.testStart, ...split.calStarts];
}

/** Runs both slices of one source for the given modes. `estimator` defaults to the live estimator (baselines swap it);
 *  `fitted`: models already fitted per backtestFitDays day (the same fits, made elsewhere). */
export function backtest(idx: CompIndex, modes: readonly SubjectMode[] = SUBJECT_MODES,
  estimator: (idx: CompIndex, p: ModelParams, s: Subject, o: { valuationDay: number; beforeDay: number; excludeRow: number }) => Estimate | null = estimate,
  fitted?: ReadonlyMap<number, ModelParams>): BacktestResult {
  const split = splitDays(idx);
  // the trees only for the live estimator (a baseline estimator does not read them)
  const fit = (ix: CompIndex, day: number): ModelParams => fitted?.get(day) ?? (estimator === estimate ? fitModel(ix, day) : fitParams(ix, day));
  const testIdx = asOf(idx, split.testStart);
  let paramsTest = fit(testIdx, split.testStart);
  const folds = split.calStarts.map((from, k) => { const ix = asOf(idx, from); return { slice: 'calibration' as const, fold: k, from, to: split.calStarts[k + 1] ?? split.testStart, ix, params: fit(ix, from) }; });
  type Slice = (typeof folds)[number] | { slice: 'test'; fold?: undefined; from: number; to: number; ix: CompIndex; params: ModelParams };
  const run = (slices: Slice[], recency: number, distance = TUNING.distKm, kernel?: Kernel, ms = modes): Prediction[] => {
    const out: Prediction[] = [];
    for (const sl of slices) predictSlice(sl, tuned(sl.params, recency, distance, kernel), ms, estimator, out);
    return out;
  };
  // the comps' recency scale per source: each of RECENCY_GRID on the folds, the live estimator only
  const grid = estimator === estimate ? RECENCY_GRID : [TUNING.recencyMonths];
  const byRecency = grid.map((r) => ({ r, preds: run(folds, r) }));
  let chosen = chooseRecency(byRecency);
  // then the distance scale under that recency, by the blend (the live estimator only)
  let distance = TUNING.distKm;
  if (estimator === estimate) ({ d: distance, preds: chosen.preds } = chooseDistance(DISTANCE_GRID.map((d, k) => ({ d, preds: k ? run(folds, chosen.r, d) : chosen.preds }))));
  // then the recorded subjects' similarity scales: searched on the first fold, kept when both folds gain (chooseKernel)
  let kernel: Kernel = {}, kernelSearch: BacktestResult['kernelSearch'] = null;
  if (estimator === estimate && modes.includes('record') && folds.length > 1
    && chosen.preds.filter((p) => p.fold === 0 && p.mode === 'record').length >= KERNEL_MIN_SUBJECTS) {
    const found = chooseKernel(kernelScales(idx), (k) => foldErrors(run(folds.slice(0, 1), chosen.r, distance, k, ['record']))[0] ?? Infinity);
    const check = Object.keys(found.kernel).length > 0 ? kernelWins(chosen.preds, run(folds, chosen.r, distance, found.kernel, ['record'])) : null;
    if (check?.wins) kernel = found.kernel;
    kernelSearch = { trace: found.trace, kept: check?.wins ?? false, folds: check ? { defaults: check.base, learned: check.learned } : null };
  }
  paramsTest = tuned(paramsTest, chosen.r, distance, kernel);
  if (estimator === estimate) {
    // the stacked trees under the chosen weights (their training rows' comps estimates read them), then the folds again
    const stacked = (ix: CompIndex, day: number, p: ModelParams): ModelParams => { const m = fitStacked(ix, day, p); return m ? { ...p, stacked: m } : p; };
    for (const f of folds) f.params = stacked(f.ix, f.from, tuned(f.params, chosen.r, distance, kernel));
    paramsTest = stacked(testIdx, split.testStart, paramsTest);
    chosen = { r: chosen.r, preds: run(folds, chosen.r, distance) };
  }
  const predictions = [...chosen.preds, ...run([{ slice: 'test', from: split.testStart, to: Infinity, ix: testIdx, params: paramsTest }], TUNING.recencyMonths)];
  const blend = estimator === estimate ? chooseBlend(predictions) : COMPS_ONLY;
  if (blend.comps < 1) for (const p of predictions) if (p.mode === 'record') applyBlend(p, blend);
  return { source: idx.data.source, split, paramsTest, predictions, blend, recency: chosen.r, distance, kernel, kernelSearch };
}

/** Recorded subjects a first calibration fold needs for a kernel search (chooseBlend's minimum). */
const KERNEL_MIN_SUBJECTS = 200;

/** The similarity scales a source's kernel search tries: the size scale, beds, baths and year built where its comps
 *  record them, and each assessor feature the comps carry that weighs them (TUNING.features weight > 0). */
export function kernelScales(idx: CompIndex): string[] {
  const known = (col: Float64Array): boolean => col.some((v) => v === v);
  return ['size', ...(known(idx.beds) ? ['beds'] : []), ...(known(idx.baths) ? ['baths'] : []), ...(known(idx.year) ? ['year'] : []),
    ...idx.features.map(([f]) => f).filter((f) => (TUNING.features[f]?.weight ?? 0) > 0)];
}



/** Predicts every residential sale of one slice in each mode (appended to `out`). */
function predictSlice(sl: { slice: 'calibration' | 'test'; fold?: number; from: number; to: number; ix: CompIndex }, params: ModelParams, modes: readonly SubjectMode[],
  estimator: (idx: CompIndex, p: ModelParams, s: Subject, o: { valuationDay: number; beforeDay: number; excludeRow: number }) => Estimate | null, predictions: Prediction[]): void {
  const idx = sl.ix; // the comps as known before the slice (assessor values dated later left out)
  const typical = new Map<string, ReturnType<CompIndex['typical']>>();
  for (let i = 0; i < idx.n; i++) {
    const day = idx.day[i]!;
    if (day < sl.from || day >= sl.to || !RESIDENTIAL_TYPES.has(idx.data.type[i]!)) continue;
    for (const mode of modes) {
      const s = subjectFor(idx, i, mode, sl.from, typical);
      if (!s) continue;
      const e = estimator(idx, params, s, { valuationDay: day, beforeDay: sl.from, excludeRow: i });
      if (!e) continue;
      const actual = idx.data.price[i]!;
      predictions.push({
        source: idx.data.source, row: i, slice: sl.slice, mode, actual, estimate: e.value, tier: e.tier, compCount: e.compCount,
        score: Math.abs(Math.log(actual / e.value)), compsLog: e.compsLog, hedonicLog: e.hedonicLog, gbmLog: e.gbmLog,
        stackedLog: e.stackedLog, ...(sl.fold !== undefined ? { fold: sl.fold } : {}), distKm: e.medianDistanceKm, ageMonths: e.medianAgeMonths,
      });
    }
  }
}

/** The comps as a slice starting on `day` may read them: a row's assessor features dated on or after that day
 *  (CompSetData.features_day: a roll value set after the sale, e.g. a re-assessment) are unknown; the same index
 *  when the source dates none. Same rows in the same order, so predictions keep their row numbers. */
export function asOf(idx: CompIndex, day: number): CompIndex {
  const fd = idx.featuresDay; // NaN: dated before every sale (null in the file)
  const data = fd && fd.some((d) => d >= day) ? idx.toData() : null;
  if (!fd || !data?.features) return idx;
  const features = Object.fromEntries(Object.entries(data.features).map(([f, col]) => [f, col.map((v, i) => (fd[i]! >= day ? null : v))]));
  return new CompIndex({ ...data, features });
}


/** Re-values a prediction with a blend (its estimates kept). */
function applyBlend(p: Prediction, b: Blend): void {
  if (p.compsLog === undefined) return;
  p.estimate = Math.exp(blendLog(b, p.compsLog, p.hedonicLog ?? null, p.gbmLog ?? null, p.stackedLog ?? null));
  p.score = Math.abs(Math.log(p.actual / p.estimate));
}

/** The model name an answer carries: 'comps', or the blend's shares. */
export const modelName = (b: Blend): string => (b.comps >= 1 ? 'comps'
  : `blend: ${[b.comps ? `comps ${b.comps}` : '', b.stacked ? `stacked comps ${b.stacked}` : '', b.hedonic ? `hedonic ${b.hedonic}` : '', b.gbm ? `boosted trees ${b.gbm}` : ''].filter(Boolean).join(', ')}`);

/** Conformal calibration rows from the calibration slice: per source, mode and tier, plus every source pooled ('*'). */
export function calibrate(preds: Prediction[]): CalibrationRow[] {
  const out: CalibrationRow[] = [];
  const cal = preds.filter((p) => p.slice === 'calibration');
  const sources = [...new Set(cal.map((p) => p.source))].sort();
  for (const source of [...sources, '*']) {
    for (const mode of SUBJECT_MODES) {
      for (const tier of TIERS) {
        const scores = cal.filter((p) => (source === '*' || p.source === source) && p.mode === mode && p.tier === tier).map((p) => p.score);
        if (scores.length === 0) continue;
        out.push({ source, mode, tier, n: scores.length, q: Number(conformalQuantile(scores, COVERAGE).toFixed(5)) });
      }
    }
  }
  return out;
}

export interface Metrics {
  n: number;
  mdape: number; // median |estimate / actual - 1|, percent
  ppe10: number; // share within 10%, percent
  ppe20: number;
  coverage: number | null; // share of actuals inside the interval, percent
  width: number | null; // median (high - low) / estimate, percent
}

/** Accuracy of predictions; with `q` (a half-width per prediction) also interval coverage and width. */
export function metrics(preds: Prediction[], q?: (p: Prediction) => number): Metrics {
  const ape = preds.map((p) => Math.abs(p.estimate / p.actual - 1));
  const pct = (x: number): number => Number((x * 100).toFixed(1));
  let coverage: number | null = null, width: number | null = null;
  if (q && preds.length) {
    let hit = 0;
    const widths: number[] = [];
    for (const p of preds) {
      const h = q(p);
      if (p.score <= h) hit++;
      widths.push(Math.exp(h) - Math.exp(-h));
    }
    coverage = pct(hit / preds.length);
    width = pct(median(widths));
  }
  return {
    n: preds.length,
    mdape: preds.length ? pct(median(ape)) : NaN,
    ppe10: preds.length ? pct(ape.filter((a) => a <= 0.1).length / preds.length) : NaN,
    ppe20: preds.length ? pct(ape.filter((a) => a <= 0.2).length / preds.length) : NaN,
    coverage, width,
  };
}

export interface SummaryRow extends Metrics { source: string; mode: SubjectMode; tier: Tier | 'all' }

/** Test-slice metrics per source, mode and tier (and 'all' tiers), intervals from the calibration table. */
export function summarize(preds: Prediction[], table: CalibrationRow[]): SummaryRow[] {
  const test = preds.filter((p) => p.slice === 'test');
  const q = (p: Prediction): number => calibratedQ(table, p.source, p.mode, p.tier);
  const out: SummaryRow[] = [];
  for (const source of [...new Set(test.map((p) => p.source))].sort()) {
    for (const mode of SUBJECT_MODES) {
      const mine = test.filter((p) => p.source === source && p.mode === mode);
      if (!mine.length) continue;
      out.push({ source, mode, tier: 'all', ...metrics(mine, q) });
      for (const tier of TIERS) {
        const t = mine.filter((p) => p.tier === tier);
        if (t.length) out.push({ source, mode, tier, ...metrics(t, q) });
      }
    }
  }
  return out;
}
