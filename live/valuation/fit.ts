// Fitting a market's ModelParams (build side and back-test; pure, no I/O): the monthly hedonic price index and the
// adjustment slopes, least squares with zip fixed effects. warehouse/docs/valuation.md "Adjustments".
import { RESIDENTIAL_TYPES, type ModelParams } from './types.ts';
import { push } from './helpers.ts';
import type { CompIndex } from './comps.ts';
import { GBM_BASE_FEATURES, STACK_FEATURES, TUNING, estimate, indexAtMonth } from './estimate.ts';
import { GBM_DEFAULTS, fitGbm, type GbmModel, type GbmOptions } from './gbm.ts';
import { partialMonths } from '../../warehouse/price-index.ts';

/** Bounds of the fitted size elasticity (log price on log sqft within zips). */
export const ELASTICITY_BOUNDS = [0.35, 0.95] as const;
export const DEFAULT_ELASTICITY = 0.65;

/** Fits the monthly index and the hedonic slopes on rows sold before `beforeDay`: log price on log sqft, beds,
 *  baths, year built and month dummies, every variable demeaned within its zip (zip fixed effects). */
export function fitParams(idx: CompIndex, beforeDay: number): ModelParams {
  const d = idx.data;
  const rows: number[] = [];
  let m0 = Infinity, m1 = -Infinity;
  for (let i = 0; i < idx.n; i++) {
    if (idx.day[i]! >= beforeDay || !RESIDENTIAL_TYPES.has(d.type[i]!)) continue;
    const m = idx.month[i]!;
    m0 = Math.min(m0, m); m1 = Math.max(m1, m);
    rows.push(i);
  }
  const empty: ModelParams = { source: d.source, month0: Number.isFinite(m0) ? m0 : 0, index: [0], elasticity: DEFAULT_ELASTICITY, beds: 0, baths: 0, year: 0, features: {}, fitted_rows: 0 };
  if (rows.length < 50) return empty;
  const sourceMonths: number[] = [];
  for (let i = 0; i < idx.n; i++) if (RESIDENTIAL_TYPES.has(d.type[i]!)) sourceMonths.push(idx.month[i]!);
  const months = indexedMonths(rows.map((i) => idx.month[i]!), sourceMonths);
  const monthCol = new Map(months.map((m, k) => [m, k]));
  // a sale of a month without its own level (thin or partial) would read as the first month's level: left out of the
  // fit, unless no month has a level (one index level for all: Sacramento's five days)
  const dated = months.length > 0 ? rows.filter((i) => monthCol.has(idx.month[i]!)) : rows;
  // full rows for the slopes (sqft always; each of beds, baths and year built the source records on half its rows or
  // more; quality where the source grades): NYC records no beds or baths, and its year built and lot were left out of
  // the fit with them until issue 24's fourth round (valuation.md "Adjustments")
  const chars = [idx.beds, idx.baths, idx.year];
  const charKnown = chars.map((col) => dated.filter((i) => Number.isFinite(col[i])).length >= dated.length * 0.5);
  const full = dated.filter((i) => chars.every((col, c) => !charKnown[c] || Number.isFinite(col[i])));
  const useChars = charKnown.some(Boolean) && full.length >= Math.max(200, dated.length * 0.5);
  // assessor features known on at least 90% of the full rows enter the fit (rows missing one are left out)
  // (a feature marked slope: false - the assessment - only weights comps and feeds the trees)
  const feats = useChars ? idx.features.filter(([name, col]) => TUNING.features[name]?.slope !== false && full.filter((i) => Number.isFinite(col[i])).length >= full.length * 0.9) : [];
  const fitRows = useChars ? full.filter((i) => feats.every(([, col]) => Number.isFinite(col[i]))) : dated;
  const off = useChars ? 4 + feats.length : 1; // first month column
  const nx = off + Math.max(0, months.length - 1);
  const X: number[][] = [];
  const y: number[] = [];
  const zipOf: number[] = [];
  for (const i of fitRows) {
    const m = idx.month[i]!;
    const row = new Array<number>(nx).fill(0);
    row[0] = idx.logSqft[i]!;
    if (useChars) chars.forEach((col, c) => { if (charKnown[c]) row[1 + c] = col[i]!; });
    feats.forEach(([, col], k) => { row[4 + k] = col[i]!; });
    const col = monthCol.get(m);
    if (col !== undefined && col > 0) row[off + col - 1] = 1;
    X.push(row);
    y.push(idx.logPrice[i]! - idx.condLog[i]!);
    zipOf.push(d.zip[i]!);
  }
  // demean within zip
  const groups = new Map<number, number[]>();
  zipOf.forEach((z, r) => push(groups, z, r));
  for (const members of groups.values()) {
    const my = members.reduce((a, r) => a + y[r]!, 0) / members.length;
    for (const r of members) y[r]! -= my;
    for (let c = 0; c < nx; c++) {
      const mc = members.reduce((a, r) => a + X[r]![c]!, 0) / members.length;
      for (const r of members) X[r]![c]! -= mc;
    }
  }
  const beta = ols(X, y, 1e-6) ?? new Array<number>(nx).fill(0);
  const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, Number.isFinite(v) ? v : 0));
  // the index ends at the last month with a level: a later (partial) month is carried along the trend (indexAtMonth)
  const index = marketTimeIndex(new Map<number, number>(months.map((m, k) => [m, k === 0 ? 0 : beta[off + k - 1]!])), m0, months.at(-1) ?? m1);
  const out: ModelParams = {
    source: d.source, month0: m0, index: index.map((v) => round(v, 5)),
    elasticity: round(clamp(beta[0]!, ...ELASTICITY_BOUNDS), 4),
    beds: round(useChars && charKnown[0] ? clamp(beta[1]!, -0.08, 0.08) : 0, 4),
    baths: round(useChars && charKnown[1] ? clamp(beta[2]!, -0.05, 0.12) : 0, 4),
    year: round(useChars && charKnown[2] ? clamp(beta[3]!, -0.006, 0.006) : 0, 5),
    features: Object.fromEntries(feats.map(([name], k) => {
      const b = TUNING.features[name] ?? { lo: -0.5, hi: 0.5 };
      return [name, round(clamp(beta[4 + k]!, b.lo, b.hi), 4)];
    })),
    fitted_rows: fitRows.length,
  };
  Object.assign(out, locationEffects(idx, out, fitRows));
  return out;
}

/** The trees' training rows: the latest GBM_MAX_ROWS residential sales before `beforeDay` (undefined under 500). */
function gbmRows(idx: CompIndex, beforeDay: number): number[] | undefined {
  const rows: number[] = [];
  for (let i = 0; i < idx.n; i++) if (idx.day[i]! < beforeDay && RESIDENTIAL_TYPES.has(idx.data.type[i]!)) rows.push(i);
  if (rows.length < 500) return undefined;
  rows.sort((a, b) => idx.day[a]! - idx.day[b]! || a - b);
  return rows.slice(-GBM_MAX_ROWS);
}

/** The trees' feature columns over `use` (estimate.ts gbmRow builds a subject's row the same way). */
function gbmColumns(idx: CompIndex, use: number[]): { names: string[]; X: Float64Array[] } {
  const names = [...GBM_BASE_FEATURES, ...idx.features.map(([f]) => f)];
  const cols: Float64Array[] = [idx.lat, idx.lng, idx.logSqft, idx.beds, idx.baths, idx.year, idx.condLog, ...idx.features.map(([, c]) => c)];
  return { names, X: cols.map((c) => Float64Array.from(use, (i) => c[i]!)) };
}

/** fitParams and the market's boosted trees: every parameter of the estimator (build and back-test). */
export function fitModel(idx: CompIndex, beforeDay: number): ModelParams {
  const p = fitParams(idx, beforeDay);
  const gbm = fitMarketGbm(idx, beforeDay, p);
  return gbm ? { ...p, gbm } : p;
}

/** At most this many of the latest training sales train the trees (bounds the build's time on big markets). */
export const GBM_MAX_ROWS = 20_000;

/** The market's boosted trees (gbm.ts), trained on its residential sales before `beforeDay` (the latest GBM_MAX_ROWS):
 *  target log price - index(sale month), features the point, log sqft, beds, baths, year built, log condition factor
 *  and the assessor features (estimate.ts gbmRow builds a subject's row the same way). */
export function fitMarketGbm(idx: CompIndex, beforeDay: number, p: ModelParams): GbmModel | undefined {
  const use = gbmRows(idx, beforeDay);
  if (!use) return undefined;
  const { names, X } = gbmColumns(idx, use);
  const y = Float64Array.from(use, (i) => idx.logPrice[i]! - indexAtMonth(p, idx.month[i]!));
  // rows with none of the assessor features (a fold's rows whose roll values are dated after it: backtest.ts asOf)
  const extra = X.slice(GBM_BASE_FEATURES.length);
  const featureless = extra.length ? use.filter((_, k) => extra.every((c) => !Number.isFinite(c[k]!))).length : 0;
  return { ...fitGbm(names, X, y), featureless_rows: featureless };
}

/** The stacked trees' settings (issue 24 eighth round, King County folds: 400 rounds rate 0.08 8.08%, 150 / 0.05 depth 4
 *  8.01%, 300 / 0.05 leaves of 30+ 7.91%). */
export const STACK_GBM: GbmOptions = { ...GBM_DEFAULTS, rounds: 300, rate: 0.05, minLeaf: 30 };

/** The stacked trees (ModelParams.stacked): trained on the same rows as the trees (fitMarketGbm), target log price -
 *  the row's comps estimate from the sales before its own day (its property's sales left out; under `p`, whose
 *  recency the market chose: a row without one trains on 0), features the trees' and the comps' shape
 *  (STACK_FEATURES). They learn where the comps go wrong (few, far, old or unlike comps). */
export function fitStacked(idx: CompIndex, beforeDay: number, p: ModelParams): GbmModel | undefined {
  const use = gbmRows(idx, beforeDay);
  if (!use) return undefined;
  const comps: ModelParams = { ...p, gbm: undefined, stacked: undefined, blend: undefined };
  const y = new Float64Array(use.length);
  const C = STACK_FEATURES.map(() => new Float64Array(use.length).fill(NaN));
  use.forEach((i, k) => {
    const day = idx.day[i]!;
    const e = estimate(idx, comps, idx.subjectOf(i), { valuationDay: day, beforeDay: day, excludeRow: i });
    if (!e) return;
    y[k] = idx.logPrice[i]! - e.compsLog;
    e.compFeatures.forEach((v, f) => { C[f]![k] = v; });
  });
  const { names, X } = gbmColumns(idx, use);
  const extra = X.slice(GBM_BASE_FEATURES.length);
  const featureless = extra.length ? use.filter((_, k) => extra.every((c) => !Number.isFinite(c[k]!))).length : 0;
  return { ...fitGbm([...names, ...STACK_FEATURES], [...X, ...C], y, STACK_GBM), featureless_rows: featureless };
}

/** Shrinkage of a cell's mean residual toward 0 (its zip's average): effect = sum / (n + CELL_SHRINK). */
export const CELL_SHRINK = 8;

/** The hedonic level of each zip (mean of log price minus the fitted slopes and index over its rows) and the H3
 *  neighbourhood effect of each res-8 cell: the shrunk mean residual of its rows around their zip level. */
export function locationEffects(idx: CompIndex, p: ModelParams, rows: number[]): { zip_level: Record<string, number>; cells: Record<string, number> } {
  const d = idx.data;
  const zipSum = new Map<number, [number, number]>();
  const base = new Float64Array(rows.length);
  rows.forEach((i, k) => {
    let v = idx.logPrice[i]! - idx.condLog[i]! - p.elasticity * idx.logSqft[i]! - indexAtMonth(p, idx.month[i]!);
    if (Number.isFinite(idx.beds[i])) v -= p.beds * idx.beds[i]!;
    if (Number.isFinite(idx.baths[i])) v -= p.baths * idx.baths[i]!;
    if (Number.isFinite(idx.year[i])) v -= p.year * idx.year[i]!;
    for (const [name, col] of idx.features) if (p.features[name] !== undefined && Number.isFinite(col[i])) v -= p.features[name]! * col[i]!;
    base[k] = v;
    const z = zipSum.get(d.zip[i]!) ?? [0, 0];
    zipSum.set(d.zip[i]!, [z[0] + v, z[1] + 1]);
  });
  const zip_level: Record<string, number> = {};
  for (const [z, [s, n]] of zipSum) zip_level[d.zips[z]!] = round(s / n, 4);
  const cellSum = new Map<string, [number, number]>();
  rows.forEach((i, k) => {
    const c = idx.cell[i];
    if (!c) return;
    const r = base[k]! - zip_level[d.zips[d.zip[i]!]!]!;
    const a = cellSum.get(c) ?? [0, 0];
    cellSum.set(c, [a[0] + r, a[1] + 1]);
  });
  const cells: Record<string, number> = {};
  for (const [c, [s, n]] of [...cellSum].sort((a, b) => a[0].localeCompare(b[0]))) cells[c] = round(s / (n + CELL_SHRINK), 4);
  return { zip_level, cells };
}

const round = (v: number, k: number): number => Number(v.toFixed(k));

/** THE per-market monthly time index of the valuation (the trends issue's market_monthly is built on another branch;
 *  the lead reconciles the two): a hedonic time-dummy index. `monthEffect` holds the month coefficients of fitParams'
 *  regression over the training sales only (log price, condition removed, on log sqft, beds, baths, year built, the
 *  assessor features and one dummy per month of indexedMonths, all demeaned within zip), 0 at the first such month.
 *  The index covers every month m0..m1: a fitted month is its coefficient, a month between two fitted ones is linearly
 *  interpolated, months before the first / after the last take the nearest fitted value. Log scale: a comp sold in
 *  month a is carried to month b by index[b] - index[a] (estimate.ts indexAtMonth, which also carries the index past
 *  its last month along its last three months' trend for at most TUNING.trendMonths). */
export function marketTimeIndex(monthEffect: Map<number, number>, m0: number, m1: number): number[] {
  const months = [...monthEffect.keys()].sort((a, b) => a - b);
  const index: number[] = [];
  for (let m = m0; m <= m1; m++) {
    if (monthEffect.has(m)) { index.push(monthEffect.get(m)!); continue; }
    const before = months.filter((x) => x < m).pop();
    const after = months.find((x) => x > m);
    if (before === undefined && after === undefined) index.push(0);
    else if (before === undefined) index.push(monthEffect.get(after!)!);
    else if (after === undefined) index.push(monthEffect.get(before)!);
    else { const t = (m - before) / (after - before); index.push(monthEffect.get(before)! * (1 - t) + monthEffect.get(after)! * t); }
  }
  return index;
}

/** The months of the training sales that get their own index level: MIN_MONTH_SALES or more training sales, in a
 *  month the source covers whole (not among warehouse/price-index.ts partialMonths of all the source's residential
 *  sales, the trends' rule: at least half the sales of the months before and after it). A source's partial last month
 *  (an extract that ends mid-month: the deeds recorded by then are not a fair sample) or survivor-biased first months would set the level
 *  comps are carried to: Philadelphia's December 2022 (42 sales to the 12th against 830 in November) read 12% under
 *  November and moved every live Philadelphia estimate down by as much (review 11). The back-test's own cut is no such
 *  month (every sale of it is recorded), so a training slice's last month keeps its level. A month without one takes
 *  its neighbours' level (marketTimeIndex), and the index ends at the last month with a level (indexAtMonth carries it
 *  on along its trend). */
export const MIN_MONTH_SALES = 20;
export function indexedMonths(trainingMonths: readonly number[], sourceMonths: readonly number[]): number[] {
  const count = (months: readonly number[]): Map<number, number> => {
    const c = new Map<number, number>();
    for (const m of months) c.set(m, (c.get(m) ?? 0) + 1);
    return c;
  };
  const partial = partialMonths(count(sourceMonths));
  return [...count(trainingMonths)].filter(([m, c]) => c >= MIN_MONTH_SALES && !partial.has(m)).map(([m]) => m).sort((a, b) => a - b);
}

/** Least squares with a small ridge (normal equations, Gaussian elimination); null when singular. */
export function ols(X: number[][], y: number[], ridge = 0): number[] | null {
  const p = X[0]?.length ?? 0;
  if (p === 0) return null;
  const A = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  for (let r = 0; r < X.length; r++) {
    const x = X[r]!;
    for (let i = 0; i < p; i++) {
      const xi = x[i]!;
      if (xi === 0) continue;
      const Ai = A[i]!;
      for (let j = 0; j < p; j++) Ai[j]! += xi * x[j]!;
      Ai[p]! += xi * y[r]!;
    }
  }
  for (let i = 0; i < p; i++) A[i]![i]! += ridge * (A[i]![i]! || 1);
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[piv]![c]!)) piv = r;
    if (Math.abs(A[piv]![c]!) < 1e-12) return null;
    [A[c], A[piv]] = [A[piv]!, A[c]!];
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / A[c]![c]!;
      if (f === 0) continue;
      for (let k = c; k <= p; k++) A[r]![k]! -= f * A[c]![k]!;
    }
  }
  return A.map((row, i) => row[p]! / row[i]!);
}
