// The price index of the market trends (warehouse/docs/market.md "market_monthly and the trends"): pure functions
// shared by the build (pipelines/marts/30_mart_market_trends.ts, which fits it) and the API (api/market-trends.ts, which
// rebases the stored series to the first month of the requested window). A series is stored as log levels with
// standard errors; an index is 100 * exp(level_t - level_base).

/** Repeat-sales needs at least this many pairs in a market and property type (and at least as many months with
 *  CHANGE_MIN_SAMPLE pair ends as the median model has months with that many sales); else the median model is used. */
export const REPEAT_SALES_MIN_PAIRS = 30;
/** A pair's two sales at least a year apart. Case-Shiller leaves out resales within six months (flips); in a file
 *  spanning about a year every resale is one: King County's 177 repeat sales gained a median 54% within 13 months
 *  with the recorded house unchanged, a renovation premium, not the market's move. */
export const REPEAT_SALES_MIN_DAYS = 365;
/** Minimum cohort: a month with fewer sales (median) or pair ends (repeat sales) has no index value. */
export const MIN_COHORT = 5;
/** Random-walk penalty between adjacent months: keeps the repeat-sales fit solvable across months without pairs. */
export const SMOOTHING = 0.01;
/** Two-sided 95% normal quantile: the index bounds. */
export const Z95 = 1.959964;

import { comparable, type Mix } from './price-mix.ts';
export { comparable, mixOf, type Mix } from './price-mix.ts';

export type IndexMethod = 'repeat_sales' | 'median';

export interface LevelPoint {
  /** log level relative to the series' anchor; null below the minimum cohort */
  level: number | null;
  /** its standard error */
  se: number | null;
  /** sales (median) or pair ends (repeat sales) in the month */
  n: number;
}

export interface Pair {
  /** 0-based month of the first and second sale within the series, first < second */
  m1: number;
  m2: number;
  /** ln(second price / first price) */
  y: number;
}

/** Median model: the month's log median price, its standard error ~ 1.2533 sd(ln price) / sqrt(n) (the asymptotic
 *  error of a median, sqrt(pi/2) times that of a mean). Null below the minimum cohort. */
export function medianLevel(medianPrice: number | null, lnSd: number | null, n: number): LevelPoint {
  if (n < MIN_COHORT || medianPrice === null || !(medianPrice > 0)) return { level: null, se: null, n };
  return { level: Math.log(medianPrice), se: 1.2533 * (lnSd ?? 0) / Math.sqrt(n), n };
}

/** Solves the symmetric positive definite system A x = b in place (Cholesky); returns A^-1 too. */
function invertSpd(a: number[][]): number[][] {
  const n = a.length;
  const l = a.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      l[i]![j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / l[j]![j]!;
    }
  }
  // inverse of L, then A^-1 = L^-T L^-1
  const li = a.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    li[i]![i] = 1 / l[i]![i]!;
    for (let j = 0; j < i; j++) {
      let s = 0;
      for (let k = j; k < i; k++) s -= l[i]![k]! * li[k]![j]!;
      li[i]![j] = s / l[i]![i]!;
    }
  }
  const inv = a.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < n; k++) s += li[k]![i]! * li[k]![j]!;
      inv[i]![j] = s;
      inv[j]![i] = s;
    }
  }
  return inv;
}

/**
 * Repeat sales (Bailey-Muth-Nourse, the regression under Case-Shiller): ln(p2/p1) = b[m2] - b[m1] + e with b[0] = 0,
 * least squares with a small random-walk penalty SMOOTHING * sum (b[t] - b[t-1])^2 so months without a pair stay
 * defined. Standard errors from the sandwich s^2 A^-1 X'X A^-1 (A = X'X + penalty). A month whose pair ends number
 * fewer than MIN_COHORT has no level (null).
 */
export function repeatSalesLevels(pairs: readonly Pair[], months: number): LevelPoint[] {
  const k = months - 1; // unknowns b[1..months-1]
  const xtx = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const xty = new Array<number>(k).fill(0);
  const ends = new Array<number>(months).fill(0);
  for (const p of pairs) {
    ends[p.m1]!++;
    ends[p.m2]!++;
    const i = p.m2 - 1; const j = p.m1 - 1; // +1 at m2, -1 at m1 (month 0 is the anchor)
    xtx[i]![i]! += 1; xty[i]! += p.y;
    if (j >= 0) { xtx[j]![j]! += 1; xty[j]! -= p.y; xtx[i]![j]! -= 1; xtx[j]![i]! -= 1; }
  }
  const a = xtx.map((r) => [...r]);
  for (let t = 0; t < k; t++) {
    // (b[t+1] - b[t])^2: the first difference against the anchor b[0] = 0 for t = 0
    a[t]![t]! += SMOOTHING;
    if (t > 0) { a[t - 1]![t - 1]! += SMOOTHING; a[t]![t - 1]! -= SMOOTHING; a[t - 1]![t]! -= SMOOTHING; }
  }
  const inv = invertSpd(a);
  const b = inv.map((row) => row.reduce((s, v, j) => s + v * xty[j]!, 0));
  const level = (m: number): number => (m === 0 ? 0 : b[m - 1]!);
  let rss = 0;
  for (const p of pairs) rss += (p.y - (level(p.m2) - level(p.m1))) ** 2;
  const touched = ends.filter((e) => e > 0).length;
  const s2 = rss / Math.max(pairs.length - Math.max(touched - 1, 1), 1);
  // sandwich: cov = s2 * inv * xtx * inv
  const m = inv.map((row) => xtx.map((_, j) => row.reduce((s, v, q) => s + v * xtx[q]![j]!, 0)));
  const varOf = (t: number): number => m[t]!.reduce((s, v, q) => s + v * inv[q]![t]!, 0) * s2;
  return Array.from({ length: months }, (_, t) => {
    const n = ends[t]!;
    if (n < MIN_COHORT) return { level: null, se: null, n };
    return { level: level(t), se: t === 0 ? 0 : Math.sqrt(Math.max(varOf(t - 1), 0)), n };
  });
}

export interface IndexPoint { index: number | null; low: number | null; high: number | null }

/** The month an index is based on (100): the first complete month (`complete`, else isComplete: the trends' rule,
 *  as the valuation index's indexedMonths) with a level and at least CHANGE_MIN_SAMPLE sales, so neither a thin first
 *  month (Philadelphia's 5 sales of January 2022) nor a partial one (its July 2022: 33 survivor-biased sales at a median
 *  $105,000, which read September at 219) scales every later month; the first complete month with a level when no
 *  complete month has that many; -1 when no complete month has a level. */
export function baseMonth(points: readonly LevelPoint[], complete?: readonly boolean[]): number {
  const ok = (i: number): boolean => completeAt(points, i, complete);
  const first = points.findIndex((p, i) => solid(p) && ok(i));
  return first >= 0 ? first : points.findIndex((p, i) => p.level !== null && ok(i));
}

/**
 * The index of each point relative to the base (baseMonth): 100 * exp(level - base) with a 95%
 * interval; null for a month whose sales are of another mix than the base's (`mix`, comparable). The error of a difference: median months are independent samples (sqrt(se^2 + se_base^2)); repeat-sales
 * levels are correlated, so the bound se + se_base (never narrower than the true one) is used.
 */
export function rebase(points: readonly LevelPoint[], method: IndexMethod, complete?: readonly boolean[], mix?: readonly Mix[]): { base: number | null; points: IndexPoint[] } {
  const base = baseMonth(points, complete);
  if (base < 0) return { base: null, points: points.map(() => ({ index: null, low: null, high: null })) };
  const b = points[base]!;
  return {
    base,
    points: points.map((p, i) => {
      if (p.level === null || p.se === null || !comparable(mix, i, base)) return { index: null, low: null, high: null };
      if (i === base) return { index: 100, low: 100, high: 100 };
      const d = p.level - b.level!;
      const se = method === 'repeat_sales' ? p.se + (b.se ?? 0) : Math.sqrt(p.se ** 2 + (b.se ?? 0) ** 2);
      return { index: 100 * Math.exp(d), low: 100 * Math.exp(d - Z95 * se), high: 100 * Math.exp(d + Z95 * se) };
    }),
  };
}

/** The fewest sales (pair ends for repeat sales) at each end of a change: medium confidence, as confidence_by_count
 *  bands a month (macros.sql). A change from a month of 5 sales is not a figure: Philadelphia's first months of 5 sales
 *  at $50,000-$100,000, before the file's coverage really starts, made a "+260% in 12 months". */
export const CHANGE_MIN_SAMPLE = 20;

const solid = (p: LevelPoint | undefined): boolean => p !== undefined && p.level !== null && p.n >= CHANGE_MIN_SAMPLE;

/** A month whose count is under this share of its reference count (isComplete) is partial. */
export const COMPLETE_SHARE = 0.5;
export const COMPLETE_LOOKBACK = 12;

/** Whether count `i` is at least COMPLETE_SHARE of the larger of the count just before it and the median of the
 *  COMPLETE_LOOKBACK counts before it (true when there are none): the test isComplete runs in each direction. */
function fullAgainst(counts: readonly number[], i: number): boolean {
  const prior = counts.slice(Math.max(0, i - COMPLETE_LOOKBACK), i).toSorted((a, b) => a - b);
  if (prior.length === 0) return true;
  const mid = prior.length >> 1;
  const median = prior.length % 2 ? prior[mid]! : (prior[mid - 1]! + prior[mid]!) / 2;
  return counts[i]! >= COMPLETE_SHARE * Math.max(median, counts[i - 1]!);
}

/**
 * Whether month `i` of a series of monthly counts looks complete: at least COMPLETE_SHARE of the larger of the month
 * before it and the median of the COMPLETE_LOOKBACK months before it, and the same looking ahead: at least that share
 * of the larger of the month after it and the median of the COMPLETE_LOOKBACK months after it (each test true when
 * there are no such months). A file's last months are often partial, because its extract ends mid-month or deeds are
 * recorded weeks late: King County's May 2015 has 279 Seattle sales against 941 in April, Denver's June and July 2019
 * 332 and 21 against 1,149 in May, Philadelphia's December 2022 33 against 746 in November. A file's first months can
 * be as thin, seen from the months after them: Philadelphia's OPA roll keeps each parcel's last sale only, so before
 * its coverage starts in earnest (September 2022, 839 single-family sales) a month holds the few parcels not sold
 * again since: August 2022 97 sales at a median $180,000 against $223,700 in November, a survivor-biased sample that
 * made a 3-month change of +24.3%. Such a month is still shown, but no change starts or ends there and no price level
 * is read from it.
 */
export function isComplete(counts: readonly number[], i: number): boolean {
  const ahead = counts.slice(i).toReversed(); // the months from i on, latest first: month i is the last of them
  return fullAgainst(counts, i) && fullAgainst(ahead, ahead.length - 1);
}

/**
 * A source's partial months: of its monthly record counts (`counts`: month number -> records, any consecutive
 * numbering such as year * 12 + month), the months from its first to its last (a month without a record counts 0)
 * that fail isComplete. A partial month is a property of the source's file (a cut extract, deeds recorded late, a
 * roll's survivor-biased first months), so it is read from the source's total, never from one market's or one type's
 * few sales, whose seasonal dips are no file edge (review 28: zip 98103's January 2015, 17 sales, was marked
 * partial while King County's 978 sales that month are over half of its neighbours'). The one rule of the trends
 * (30_mart_market_trends.ts, over a source's arm's-length sales) and the valuation index (live/valuation/fit.ts
 * indexedMonths, over a source's residential sales).
 */
export function partialMonths(counts: ReadonlyMap<number, number>): Set<number> {
  const months = [...counts.keys()];
  if (months.length === 0) return new Set();
  const first = Math.min(...months);
  const series = Array.from({ length: Math.max(...months) - first + 1 }, (_, i) => counts.get(first + i) ?? 0);
  return new Set(series.flatMap((_, i) => (isComplete(series, i) ? [] : [first + i])));
}

const solidMonths = (points: readonly LevelPoint[]): number => points.filter(solid).length;

/**
 * The index of a market and property type: repeat sales where it has REPEAT_SALES_MIN_PAIRS pairs and at least as many
 * months with CHANGE_MIN_SAMPLE pair ends (and one or more) as the median model has months with that many sales, else
 * the median model. Denver's 35 single-family pairs gave no month of 20 pair ends, so no change figure, beside 600-1,300
 * sales a month.
 */
export function chooseIndex(median: LevelPoint[], pairs: readonly Pair[], months: number): { method: IndexMethod; levels: LevelPoint[] } {
  if (pairs.length < REPEAT_SALES_MIN_PAIRS) return { method: 'median', levels: median };
  const repeat = repeatSalesLevels(pairs, months);
  const n = solidMonths(repeat);
  return n > 0 && n >= solidMonths(median) ? { method: 'repeat_sales', levels: repeat } : { method: 'median', levels: median };
}

/** Whether month i is complete: `complete[i]` when the caller knows (the trends mart: its files cover the month and
 *  none of its sources has it among its partialMonths, market.md), else isComplete over the points' counts. */
const completeAt = (points: readonly LevelPoint[], i: number, complete?: readonly boolean[]): boolean =>
  complete ? complete[i] === true : isComplete(points.map((p) => p.n), i);

/** The latest complete month (`complete`, else isComplete) with a level and at least CHANGE_MIN_SAMPLE sales, where
 *  every change ends; -1 when none. */
export function latestSolid(points: readonly LevelPoint[], complete?: readonly boolean[]): number {
  for (let i = points.length - 1; i >= 0; i--) if (solid(points[i]) && completeAt(points, i, complete)) return i;
  return -1;
}

/** Percent change of the index from `back` months before the latest solid complete month (latestSolid) to it; null
 *  when there is no such month or the month `back` before it has no level, too few sales or is not complete
 *  (`complete`, else isComplete), or its sales are of another mix than the end's (`mix`, comparable): both ends of a
 *  change are solid complete months of one mix. */
export function changePct(points: readonly LevelPoint[], back: number, complete?: readonly boolean[], mix?: readonly Mix[]): number | null {
  const last = latestSolid(points, complete);
  const first = last - back;
  if (last < 0 || first < 0 || !solid(points[first]) || !completeAt(points, first, complete) || !comparable(mix, first, last)) return null;
  return 100 * (Math.exp(points[last]!.level! - points[last - back]!.level!) - 1);
}
