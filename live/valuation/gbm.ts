// A small histogram gradient-boosted regression tree ensemble (pure, no I/O): Huber loss (Friedman's M-TreeBoost),
// features pre-binned into quantile bins, depth-limited trees, shrinkage. Trained in the build, serialised into
// each market's params-<source>.json, evaluated per request. warehouse/docs/valuation.md "Boosted trees".

import { median } from './helpers.ts';

export interface GbmModel {
  features: string[];
  base: number;
  /** Trees as flat arrays: per node [feature, threshold, left, right] or a leaf [-1, value, 0, 0]. */
  trees: number[][];
  /** Training rows that knew none of the assessor features (fit.ts fitMarketGbm): where 0, the trees never learnt
   *  how to value such a record, and estimate.ts treesRead keeps them from one; absent (an older build): 0. */
  featureless_rows?: number;
}

/** `loss`: 'huber' clips each round's residuals at their `huberQuantile` quantile of |residual| (the trees split on
 *  the clipped residuals; a leaf is its residuals' median plus the mean clipped deviation from it), so a few deeds far
 *  from their market move the trees little; 'squared' is least squares (the mean). Issue 24 seventh round: King County
 *  trees alone 9.08 -> 8.61%, the chosen blend 8.32 -> 8.16% on the calibration folds (before: squared loss, 250
 *  rounds; squared loss with 400 rounds: 8.92 / 8.26, so the loss gains, not the rounds). */
export interface GbmOptions { rounds: number; depth: number; rate: number; minLeaf: number; bins: number; lambda: number; loss: 'squared' | 'huber'; huberQuantile: number }
export const GBM_DEFAULTS: GbmOptions = { rounds: 400, depth: 5, rate: 0.08, minLeaf: 20, bins: 48, lambda: 1, loss: 'huber', huberQuantile: 0.7 };

/** Fits the ensemble on rows X (NaN = unknown: sent left of every split, as the smallest value) and targets y. */
export function fitGbm(names: string[], X: Float64Array[], y: Float64Array, opts: GbmOptions = GBM_DEFAULTS): GbmModel {
  const n = y.length, nf = names.length;
  const huber = opts.loss === 'huber';
  const base = huber && n > 0 ? median(Array.from(y)) : y.reduce((a, b) => a + b, 0) / Math.max(1, n);
  // quantile bin edges per feature; bin k holds values <= edges[k] (NaN -> bin 0)
  const edges: Float64Array[] = [];
  const bin: Uint8Array[] = [];
  for (let f = 0; f < nf; f++) {
    const col = X[f]!;
    const vals = Array.from(col).filter((v) => v === v).sort((a, b) => a - b);
    const e: number[] = [];
    for (let k = 1; k < opts.bins; k++) {
      const v = vals[Math.floor((vals.length * k) / opts.bins)];
      if (v !== undefined && (e.length === 0 || v > e[e.length - 1]!)) e.push(v);
    }
    edges.push(Float64Array.from(e));
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = col[i]!;
      if (v !== v) { b[i] = 0; continue; }
      let lo = 0, hi = e.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (v <= e[mid]!) hi = mid; else lo = mid + 1; }
      b[i] = lo + 1;
    }
    bin.push(b);
  }
  const pred = new Float64Array(n).fill(base);
  const resid = new Float64Array(n);
  const grad = new Float64Array(n); // what the trees split on: the residual, clipped at ±delta under Huber loss
  const trees: number[][] = [];
  const nb = opts.bins + 1;
  const sumG = new Float64Array(nb), cnt = new Float64Array(nb);
  for (let round = 0; round < opts.rounds; round++) {
    for (let i = 0; i < n; i++) resid[i] = y[i]! - pred[i]!;
    const delta = huber ? quantileAbs(resid, opts.huberQuantile) : Infinity;
    for (let i = 0; i < n; i++) grad[i] = Math.max(-delta, Math.min(delta, resid[i]!));
    const tree: number[] = [];
    // grow breadth-first over row lists
    const grow = (rows: Int32Array, depth: number): number => {
      const at = tree.length;
      tree.push(-1, 0, 0, 0);
      let s = 0;
      for (let k = 0; k < rows.length; k++) s += grad[rows[k]!]!;
      const leaf = (huber ? huberLeaf(resid, rows, delta) * rows.length : s) / (rows.length + opts.lambda) * opts.rate;
      tree[at + 1] = leaf;
      if (depth >= opts.depth || rows.length < 2 * opts.minLeaf) return at;
      const parentScore = (s * s) / (rows.length + opts.lambda);
      let best = 0, bf = -1, bb = -1;
      for (let f = 0; f < nf; f++) {
        sumG.fill(0); cnt.fill(0);
        const b = bin[f]!;
        for (let k = 0; k < rows.length; k++) { const r = rows[k]!; sumG[b[r]!]! += grad[r]!; cnt[b[r]!]! += 1; }
        let ls = 0, lc = 0;
        for (let k = 0; k < nb - 1; k++) {
          ls += sumG[k]!; lc += cnt[k]!;
          const rc = rows.length - lc;
          if (lc < opts.minLeaf || rc < opts.minLeaf) continue;
          const rs = s - ls;
          const gain = (ls * ls) / (lc + opts.lambda) + (rs * rs) / (rc + opts.lambda) - parentScore;
          if (gain > best) { best = gain; bf = f; bb = k; }
        }
      }
      if (bf < 0) return at;
      const left: number[] = [], right: number[] = [];
      const b = bin[bf]!;
      for (let k = 0; k < rows.length; k++) (b[rows[k]!]! <= bb ? left : right).push(rows[k]!);
      // threshold in value space: bin bb holds values <= edges[bb - 1]; bin 0 is NaN only
      const thr = bb === 0 ? -Infinity : edges[bf]![bb - 1]!;
      tree[at] = bf; tree[at + 1] = thr;
      const l = grow(Int32Array.from(left), depth + 1);
      const r = grow(Int32Array.from(right), depth + 1);
      tree[at + 2] = l; tree[at + 3] = r;
      return at;
    };
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    grow(all, 0);
    trees.push(tree.map((v) => (Number.isFinite(v) ? Number(v.toPrecision(7)) : v === -Infinity ? -1e300 : v)));
    for (let i = 0; i < n; i++) pred[i]! += evalTree(tree, X, i);
  }
  return { features: names, base, trees };
}

/** The q quantile of |v| (the Huber threshold of a round). */
function quantileAbs(v: Float64Array, q: number): number {
  const a = Float64Array.from(v, Math.abs).sort();
  return a[Math.min(a.length - 1, Math.floor(a.length * q))] ?? 0;
}

/** A Huber leaf (Friedman 2001, M-TreeBoost): the median of its rows' residuals plus the mean of their deviations
 *  from it clipped at ±delta. */
function huberLeaf(resid: Float64Array, rows: Int32Array, delta: number): number {
  const r = Float64Array.from(rows, (i) => resid[i]!).sort();
  const m = r.length % 2 ? r[(r.length - 1) >> 1]! : (r[r.length / 2 - 1]! + r[r.length / 2]!) / 2;
  let c = 0;
  for (const v of r) c += Math.max(-delta, Math.min(delta, v - m));
  return m + c / Math.max(1, r.length);
}

function evalTree(t: number[], X: Float64Array[], i: number): number {
  let at = 0;
  while (t[at]! >= 0) { const v = X[t[at]!]![i]!; at = v === v && v > t[at + 1]! ? t[at + 3]! : t[at + 2]!; }
  return t[at + 1]!;
}

/** The ensemble's prediction for one row of feature values (in model.features order; NaN = unknown). */
export function predictGbm(m: GbmModel, x: number[]): number {
  let s = m.base;
  for (const t of m.trees) {
    let at = 0;
    while (t[at]! >= 0) { const v = x[t[at]!]!; at = v === v && v > t[at + 1]! ? t[at + 3]! : t[at + 2]!; }
    s += t[at + 1]!;
  }
  return s;
}
