// The valuation estimator: pure functions, no I/O. The same code answers POST /v1/valuation/estimate
// (live/valuation/endpoint.ts), runs the back-test inside the build (live/valuation/build.ts, backtest.ts) and the
// offline evaluation (scripts/eval-avm.ts): candidates around the subject, time adjustment along the fitted index,
// hedonic adjustments, weights, the robust weighted estimate. Its comps: comps.ts; its parameters: fit.ts; its
// confidence tier: interval.ts. warehouse/docs/valuation.md "The estimator" documents every rule and constant here.
// Over 300 lines: one estimate's whole path (candidates, adjustments, weights, the blend and what the trees read) in
// one file, so the back-test and the live answer cannot read two versions of a step.
import { latLngToCell } from 'h3-js';
import { CONDITION_FACTOR, RESIDENTIAL_TYPES, type Blend, type Estimate, type ModelParams, type Subject } from './types.ts';
import { predictGbm, type GbmModel } from './gbm.ts';
import { haversineKm, median, monthOfDay, nz, weightedMedian } from './helpers.ts';
import { H3_RES, parseBlock, type CompIndex } from './comps.ts';
import { confidenceTier } from './interval.ts';

/** The estimator's tuning (valuation.md "Weights"): rings around the subject's cell, widening until minCandidates;
 *  comps kept; weight scales of distance (km), recency (months), size (|log sqft ratio|), beds, baths, year built. */
export const TUNING = {
  rings: [2, 4, 7] as number[],
  minCandidates: 40,
  /** At most this many of the zip's most recent earlier sales are candidates when the rings are not used. */
  zipMax: 400,
  maxComps: 15,
  distKm: 0.6, // the default: a source's back-test may choose another (ModelParams.distance_km, DISTANCE_GRID)
  recencyMonths: 9, // the default: a source's back-test may choose another (ModelParams.recency_months, RECENCY_GRID)
  size: 0.3,
  beds: 0.15,
  baths: 0.2,
  year: 25,
  /** Assessor features some sources carry (feature -> similarity weight per unit of difference, slope bounds). */
  features: {
    grade: { weight: 1.0, lo: 0, hi: 0.4 }, // King County construction grade 1-13; a canonical sales.csv's quality_grade
    view: { weight: 0.5, lo: 0, hi: 0.3 }, // King County view rating 0-4
    waterfront: { weight: 2.0, lo: 0, hi: 1.0 }, // King County waterfront 0/1
    log_lot: { weight: 1.0, lo: 0, hi: 0.5 }, // log of the lot size in sqft
    // log of the assessor's market value (Philadelphia OPA): similarity and trees only, never a hedonic slope (in the
    // regression it took the size's share: elasticity 0.84 -> 0.35, and unmatched subjects, which have no assessment,
    // were adjusted by the smaller slope: Philadelphia `request` MdAPE 24.7% -> 26.8%)
    log_assessed: { weight: 1.0, lo: 0, hi: 0, slope: false },
    // Philadelphia OPA roll fields (quality grade, exterior condition, stories, garage spaces, log lot area, log
    // frontage, central air, attachment): trees only. As comp weights (0.5 or 1.0 per unit) they made the comps worse
    // on the calibration folds (20.0% -> 20.3 / 20.6%); in the trees they took the blend 18.6% -> 18.1% (dated roll)
    ...Object.fromEntries(['quality', 'exterior', 'stories', 'garage', 'log_area', 'log_frontage', 'central_air', 'attached']
      .map((f) => [f, { weight: 0, lo: 0, hi: 0, slope: false as const }])),
    // NYC log land area: weights comps (folds: no weight 16.6%, 0.5 / 1 / 2 / 3 / 5 / 8: 16.4 / 16.2 / 16.1 / 15.9 /
    // 16.1 / 16.3%) and, since the regression fits the characteristics a source has (NYC: year built, no beds or
    // baths), a slope too (fitted 0.22; folds 14.77% -> 14.35%, issue 24 fourth round)
    log_land: { weight: 3.0, lo: 0, hi: 0.5 },
  } as Record<string, { weight: number; lo: number; hi: number; slope?: false }>,
  /** Share of the H3 neighbourhood effect difference (subject cell - comp cell) added to each comp. 0: on King County's
   *  back-test the full adjustment raised MdAPE 8.2% -> 8.4% (the rings already pick near comps); the effects still
   *  enter the hedonic estimate the blend mixes in. */
  locationInComps: 0,
  /** Months the index may be carried forward past its last month along its recent trend (damped). */
  trendMonths: 3,
  /** Location without points (a source with tax blocks, NYC): block-number distance scale of the weight
   *  1 / (1 + (|Δblock| / blockScale)^2) within a block group (borough); a comp in another group or without a block
   *  counts as blockCap blocks away. */
  blockScale: 100,
  blockCap: 1000,
};
const MONTH_DAYS = 30.4375;

export interface EstimateOptions {
  valuationDay: number; // the valuation date (day number): comps are time-adjusted to it
  /** Only comps sold strictly before this day are used (the back-test's split; live: after the last sale). */
  beforeDay: number;
  /** The subject's own sale: neither it nor another sale of its property (CompIndex.sameProperty) is a comp. */
  excludeRow?: number;
  /** More rows never comps (a parcel's sales); unitsOnly: only sales of units (an unmatched unit; CompIndex.unit). */
  excludeRows?: readonly number[]; unitsOnly?: boolean;
  /** Also return each kept comp's adjustments and weight (Estimate.comps: the live answer; the back-test skips it). */
  detail?: boolean;
}

export function indexAt(p: ModelParams, day: number): number {
  return indexAtMonth(p, monthOfDay(day));
}

/** The log index of a month (year * 12 + month - 1). */
export function indexAtMonth(p: ModelParams, month: number): number {
  if (p.index.length === 0) return 0;
  const k = month - p.month0;
  const last = p.index.length - 1;
  if (k > last && TUNING.trendMonths > 0 && last >= 3) {
    // carried forward along the last three months' trend, at most trendMonths
    const slope = (p.index[last]! - p.index[last - 3]!) / 3;
    return p.index[last]! + slope * Math.min(k - last, TUNING.trendMonths);
  }
  return p.index[Math.max(0, Math.min(last, k))]!;
}

/** Estimates the subject's value from the comps of `idx` sold before opts.beforeDay; null when none is usable. */
export function estimate(idx: CompIndex, p: ModelParams, s: Subject, opts: EstimateOptions): Estimate | null {
  const sLogSqft = Math.log(s.sqft);
  const sIdx = indexAt(p, opts.valuationDay);
  const sCond = Math.log(CONDITION_FACTOR[s.cond]);
  const hasPoint = s.lat !== null && s.lng !== null;
  const zipRows = idx.byZip.get(s.zip) ?? [];
  const own = [...(opts.excludeRow !== undefined ? idx.sameProperty(opts.excludeRow) : []), ...(opts.excludeRows ?? [])];
  const usable = (i: number): boolean => idx.day[i]! < opts.beforeDay && !own.includes(i) && RESIDENTIAL_TYPES.has(idx.data.type[i]!) && (!opts.unitsOnly || idx.unit[i] === 1);

  // candidates: H3 rings around the subject, widening; else the zip; else (no coordinates) the zip as well
  let cand: number[] = [];
  let scope: Estimate['scope'] = 'zip';
  if (hasPoint) {
    const cell = latLngToCell(s.lat!, s.lng!, H3_RES);
    for (const k of TUNING.rings) {
      cand = [];
      for (const c of idx.disk(cell, k)) for (const i of idx.byCell.get(c) ?? []) if (usable(i)) cand.push(i);
      if (cand.length >= TUNING.minCandidates) break;
    }
    scope = 'rings';
  }
  if (cand.length < TUNING.minCandidates) {
    // the zip's most recent zipMax earlier sales (zip rows are in date order)
    const z: number[] = [];
    let lo = 0, hi = zipRows.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (idx.day[zipRows[mid]!]! < opts.beforeDay) lo = mid + 1; else hi = mid; }
    for (let k = lo - 1; k >= 0 && z.length < TUNING.zipMax; k--) if (usable(zipRows[k]!)) z.push(zipRows[k]!);
    if (z.length > cand.length) { cand = z; scope = 'zip'; }
  }
  // without a point, the subject's own block's earlier sales are candidates too (older than the zip's most recent)
  const sBlock = hasPoint ? null : parseBlock(s.block);
  const sGroup = sBlock ? idx.blockGroups.indexOf(sBlock.group) : -1;
  if (sBlock && !hasPoint) {
    const inCand = new Set(cand);
    for (const i of idx.byBlock.get(s.block!) ?? []) if (usable(i) && !inCand.has(i)) cand.push(i);
  }
  if (cand.length === 0) return null;
  // same property type when there are enough of them
  const sameType = cand.filter((i) => idx.data.type[i] === s.type);
  if (sameType.length >= 5) cand = sameType;

  const n = cand.length;
  const adj = new Float64Array(n);
  const w = new Float64Array(n);
  const dist = new Float64Array(n);
  const simLog = opts.detail ? new Float64Array(n) : null; // log weight without the age term
  const locW = opts.detail ? new Float64Array(n) : null; // the location (distance or block) factor of the weight
  // per-subject constants hoisted out of the loop
  const sBeds = nz(s.beds), sBaths = nz(s.baths), sYear = nz(s.year);
  // the market's learned similarity scales (ModelParams.kernel) weigh a recorded subject's comps, the subjects they were learned on
  const K = s.mode === 'record' ? p.kernel : undefined;
  const wBeds = K?.beds ?? TUNING.beds, wBaths = K?.baths ?? TUNING.baths;
  const fCols: Float64Array[] = [], fVal: number[] = [], fSlope: number[] = [], fW: number[] = [];
  for (const [name, col] of idx.features) {
    const v = s.features[name];
    if (v === undefined || !Number.isFinite(v)) continue;
    const slope = p.features[name] ?? 0, weight = K?.[name] ?? TUNING.features[name]?.weight ?? 0.5;
    if (slope === 0 && weight === 0) continue; // a trees-only feature (gbmRow reads it from s.features)
    fCols.push(col); fVal.push(v); fSlope.push(slope); fW.push(weight);
  }
  const nf = fCols.length;
  const invSize = 1 / (K?.size ?? TUNING.size), invYear = 1 / (K?.year ?? TUNING.year), invDist = 1 / (p.distance_km ?? TUNING.distKm);
  const invRecency = 1 / ((p.recency_months ?? TUNING.recencyMonths) * MONTH_DAYS);
  const sLat = s.lat ?? NaN, sLng = s.lng ?? NaN;
  const invBlock = 1 / TUNING.blockScale;
  // H3 neighbourhood adjustment: the subject's cell effect (0 = its zip's average when it has no point) minus the comp's
  const loc = cellEffects(idx, p);
  const sLoc = hasPoint ? (p.cells?.[latLngToCell(sLat, sLng, H3_RES)] ?? 0) : 0;
  for (let j = 0; j < n; j++) {
    const i = cand[j]!;
    const dLogSqft = sLogSqft - idx.logSqft[i]!;
    let a = idx.logPrice[i]! + sIdx - indexAtMonth(p, idx.month[i]!) + p.elasticity * dLogSqft + sCond - idx.condLog[i]! + TUNING.locationInComps * (sLoc - loc[i]!);
    // log of the weight: -(size, beds, baths, year, feature distances) - age / recency
    let lw = -Math.abs(dLogSqft) * invSize - Math.max(0, opts.valuationDay - idx.day[i]!) * invRecency;
    const db = sBeds - idx.beds[i]!;
    if (db === db) { a += p.beds * db; lw -= Math.abs(db) * wBeds; }
    const dba = sBaths - idx.baths[i]!;
    if (dba === dba) { a += p.baths * dba; lw -= Math.abs(dba) * wBaths; }
    const dy = sYear - idx.year[i]!;
    if (dy === dy) { a += p.year * dy; lw -= Math.abs(dy) * invYear; }
    for (let f = 0; f < nf; f++) {
      const df = fVal[f]! - fCols[f]![i]!;
      if (df === df) { a += fSlope[f]! * df; lw -= Math.abs(df) * fW[f]!; }
    }
    if (simLog) simLog[j] = lw + Math.max(0, opts.valuationDay - idx.day[i]!) * invRecency;
    let wd = 1;
    dist[j] = NaN;
    if (hasPoint && idx.lat[i] === idx.lat[i]) {
      const d = haversineKm(sLat, sLng, idx.lat[i]!, idx.lng[i]!);
      dist[j] = d;
      const r = d * invDist;
      wd = 1 / (1 + r * r);
    } else if (sBlock) {
      // block distance: same group and both numbered -> |Δ number|; the same key -> 0; else blockCap
      const g = idx.blockGroup[i]!;
      let db = TUNING.blockCap;
      if (g === sGroup && g >= 0) db = Math.min(db, Number.isNaN(sBlock.num) || Number.isNaN(idx.blockNum[i]!) ? (idx.data.block![i] === s.block ? 0 : db) : Math.abs(sBlock.num - idx.blockNum[i]!));
      const r = db * invBlock;
      wd = 1 / (1 + r * r);
    }
    if (locW) locW[j] = wd;
    w[j] = wd * Math.exp(lw);
    adj[j] = a;
  }
  // keep the maxComps highest weights
  const order = topK(w, TUNING.maxComps);
  const vals = order.map((j) => adj[j]!);
  const ws = order.map((j) => Math.max(w[j]!, 1e-12));
  const mid = weightedMedian(vals, ws);
  const dispersion = weightedMedian(vals.map((v) => Math.abs(v - mid)), ws);
  // robust weighted mean: comps farther than 3 MADs (at least 0.15) from the median get no weight
  const cut = Math.max(3 * dispersion, 0.15);
  let sw = 0, sv = 0, sw2 = 0;
  const kept = new Uint8Array(vals.length);
  for (let k = 0; k < vals.length; k++) {
    if (Math.abs(vals[k]! - mid) > cut) continue;
    kept[k] = 1;
    sw += ws[k]!; sv += ws[k]! * vals[k]!; sw2 += ws[k]! ** 2;
  }
  const compsLog = sw > 0 ? sv / sw : mid;
  const hedonicLog = hedonic(p, s, sIdx + sCond + sLoc);
  // only a recorded subject is blended (a typical property lacks the assessor features: King County's `request` MdAPE
  // 11.8% -> 21.8% blended), and the trees only when the record knows some field they read beyond the base (treesRead)
  const gbmLog = p.gbm && treesRead(p, s) ? predictGbm(p.gbm, gbmRow(s, p.gbm.features.slice(GBM_BASE_FEATURES.length))) + sIdx : null;
  const effectiveComps = sw > 0 ? (sw * sw) / sw2 : 1;
  // the comps used are those kept (an outlier got no weight): the count, their dates, ages and distances (with none
  // kept, the median the estimate fell back to stands on all of them)
  const usedAt = order.map((_, k) => k).filter((k) => kept[k] === 1);
  if (usedAt.length === 0) usedAt.push(...order.map((_, k) => k));
  const used = usedAt.map((k) => order[k]!);
  const ages = used.map((j) => (opts.valuationDay - idx.day[cand[j]!]!) / MONTH_DAYS);
  const dists = used.map((j) => dist[j]!).filter(Number.isFinite);
  let asOfDay = -Infinity;
  for (const j of used) asOfDay = Math.max(asOfDay, idx.day[cand[j]!]!);
  const medianAgeMonths = median(ages), medianDistanceKm = dists.length ? median(dists) : null;
  // the comps' shape (STACK_FEATURES): how many, how spread, far and old, and how unlike the subject on average
  const wMean = (col: Float64Array | undefined): number => {
    if (!col || sw <= 0) return NaN;
    let a = 0, b = 0;
    for (let k = 0; k < order.length; k++) { const v = col[cand[order[k]!]!]!; if (kept[k] && v === v) { a += ws[k]! * v; b += ws[k]!; } }
    return b > 0 ? a / b : NaN;
  };
  const grade = idx.features.find(([f]) => f === 'grade')?.[1];
  const compFeatures = [used.length, dispersion, medianDistanceKm ?? NaN, medianAgeMonths, effectiveComps,
    sLogSqft - wMean(idx.logSqft), nz(s.year) - wMean(idx.year), (s.features.grade ?? NaN) - wMean(grade)];
  // the stacked estimate: the comps corrected by the trees fitted on their own error (a recorded subject only, as the trees)
  const stackedLog = p.stacked && s.mode === 'record' && modelReads(p.stacked, s)
    ? compsLog + predictGbm(p.stacked, [...gbmRow(s, p.stacked.features.slice(GBM_BASE_FEATURES.length, -STACK_FEATURES.length)), ...compFeatures]) : null;
  const logValue = s.mode === 'record' ? blendLog(p.blend, compsLog, hedonicLog, gbmLog, stackedLog) : compsLog;
  const est: Estimate = {
    value: Math.exp(logValue), logValue, compsLog, hedonicLog, gbmLog, stackedLog, compFeatures, compCount: used.length, asOfDay, tier: 'low', dispersion, effectiveComps,
    medianAgeMonths, medianDistanceKm, scope, rows: used.map((j) => cand[j]!),
  };
  est.tier = confidenceTier(est, s.mode);
  if (simLog) {
    // every comp the dispersion (so the tier) was measured over, in weight order; an outlier trimmed: kept false, weight 0
    const swAll = ws.reduce((a, b) => a + b, 0), usedSet = new Set(usedAt);
    est.comps = order.map((j, k) => {
      const i = cand[j]!;
      const time = sIdx - indexAtMonth(p, idx.month[i]!);
      return {
        row: i, distanceKm: Number.isFinite(dist[j]!) ? dist[j]! : null, timeAdj: time, featureAdj: adj[j]! - idx.logPrice[i]! - time,
        adjustedLog: adj[j]!, similarity: locW![j]! * Math.exp(simLog[j]!), weight: kept[k] && sw > 0 ? ws[k]! / sw : 0,
        kept: usedSet.has(k), weightBeforeTrim: ws[k]! / swAll,
      };
    });
  }
  return est;
}

/** w_c x comps + w_h x hedonic + w_g x trees + w_s x stacked (log); a missing estimate's share goes to the comps. */
export function blendLog(b: Blend | undefined, compsLog: number, hedonicLog: number | null, gbmLog: number | null, stackedLog: number | null = null): number {
  if (!b) return compsLog;
  let v = b.comps * compsLog;
  v += hedonicLog === null ? b.hedonic * compsLog : b.hedonic * hedonicLog;
  v += gbmLog === null ? b.gbm * compsLog : b.gbm * gbmLog;
  const st = b.stacked ?? 0;
  if (st) v += stackedLog === null ? st * compsLog : st * stackedLog;
  return v;
}

/** The comps' shape the stacked trees read after the trees' own features (Estimate.compFeatures, in this order): the
 *  kept comps' count, dispersion, median distance (km), median age (months), effective count, and the subject's log
 *  sqft, year built and grade minus the comps' weighted means (issue 24 eighth round). */
export const STACK_FEATURES = ['c_count', 'c_disp', 'c_dist', 'c_age', 'c_eff', 'c_dsqft', 'c_dyear', 'c_dgrade'] as const;

/** The boosted trees' feature names of a market (fit.ts fitMarketGbm builds its rows the same way). */
export const GBM_BASE_FEATURES = ['lat', 'lng', 'log_sqft', 'beds', 'baths', 'year', 'cond'] as const;
/** Whether the trees can value this subject: they read no assessor field, it knows one, or they were fitted on rows
 *  that knew none (review 28: Philadelphia's parcels with none of the roll's fields were valued 0.41 of their comps by
 *  trees fitted on sales that all had them; a back-test fold's rows whose roll values come after it know none). */
export const treesRead = (p: ModelParams, s: Subject): boolean => !p.gbm || modelReads(p.gbm, s);
/** treesRead for one ensemble (the trees or the stacked trees: STACK_FEATURES are no assessor field). */
const modelReads = (m: GbmModel, s: Subject): boolean => {
  const fields = m.features.slice(GBM_BASE_FEATURES.length).filter((f) => !(STACK_FEATURES as readonly string[]).includes(f));
  return fields.length === 0 || (m.featureless_rows ?? 0) > 0 || fields.some((f) => Number.isFinite(s.features[f]));
};
/** A subject's row for the trees: unknown = NaN. */
export function gbmRow(s: Subject, features: string[]): number[] {
  const n = (v: number | null): number => (v === null ? NaN : v);
  return [n(s.lat), n(s.lng), Math.log(s.sqft), n(s.beds), n(s.baths), n(s.year), Math.log(CONDITION_FACTOR[s.cond]), ...features.map((f) => s.features[f] ?? NaN)];
}

/** The hedonic estimate (log): the zip's level + the slopes x the subject's known characteristics + `extra` (index at
 *  the valuation month, condition, neighbourhood); null when the zip has no level. */
export function hedonic(p: ModelParams, s: Subject, extra: number): number | null {
  const level = p.zip_level?.[s.zip];
  if (level === undefined) return null;
  let v = level + p.elasticity * Math.log(s.sqft) + extra;
  if (s.beds !== null) v += p.beds * s.beds;
  if (s.baths !== null) v += p.baths * s.baths;
  if (s.year !== null) v += p.year * s.year;
  for (const [name, slope] of Object.entries(p.features)) { const f = s.features[name]; if (f !== undefined && Number.isFinite(f)) v += slope * f; }
  return v;
}

const cellCache = new WeakMap<ModelParams, WeakMap<CompIndex, Float64Array>>();
/** Each comp row's neighbourhood effect under these params (0 without a cell), memoised per params and index. */
export function cellEffects(idx: CompIndex, p: ModelParams): Float64Array {
  let byIdx = cellCache.get(p);
  if (!byIdx) cellCache.set(p, (byIdx = new WeakMap()));
  let out = byIdx.get(idx);
  if (!out) {
    const cells = p.cells ?? {};
    out = Float64Array.from(idx.cell, (c) => (c ? (cells[c] ?? 0) : 0));
    byIdx.set(idx, out);
  }
  return out;
}

/** Positions of the k largest values, largest first (ties: lower position first). */
export function topK(w: Float64Array, k: number): number[] {
  const top: number[] = [];
  for (let j = 0; j < w.length; j++) {
    const v = w[j]!;
    if (top.length === k && v <= w[top[k - 1]!]!) continue;
    let at = top.length;
    while (at > 0 && w[top[at - 1]!]! < v) at--;
    top.splice(at, 0, j);
    if (top.length > k) top.pop();
  }
  return top;
}
