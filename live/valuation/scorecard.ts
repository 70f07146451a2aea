// The valuation scorecard (GET /v1/valuation/scorecard, the build report's "Valuation scorecard" section and
// `npm run eval:avm`): the back-test's test slice per source and confidence tier (count, MdAPE, PPE10, PPE20, 80%
// coverage, median width) and the assessment-industry fairness measures by price tier (PRD and PRB, IAAO Standard on
// Ratio Studies, with their accepted ranges). Pure except the live module at the end, which serves
// <build>/live/valuation/scorecard.json. warehouse/docs/valuation.md "Scorecard".
import fs from 'node:fs';
import path from 'node:path';
import { unavailable, type LiveAnswer, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import type { Prediction, SummaryRow } from './backtest.ts';
import { median } from './helpers.ts';
import type { Unvalued } from './unvalued.ts';

/** IAAO accepted ranges: price-related differential 0.98-1.03, price-related bias -0.05..0.05. */
export const PRD_RANGE = [0.98, 1.03] as const;
export const PRB_RANGE = [-0.05, 0.05] as const;
/** Price tiers: quartiles of the test slice's sale prices per source. */
export const PRICE_TIERS = ['all', 'q1', 'q2', 'q3', 'q4'] as const;

/** PRD: the mean of the ratios estimate / price over the price-weighted mean ratio (sum of estimates / sum of prices).
 *  Above 1.03: cheap properties valued high relative to dear ones (regressive); below 0.98: progressive. */
export function prd(estimates: number[], prices: number[]): number {
  const n = estimates.length;
  if (n === 0) return NaN;
  let mean = 0, se = 0, sp = 0;
  for (let i = 0; i < n; i++) { mean += estimates[i]! / prices[i]!; se += estimates[i]!; sp += prices[i]!; }
  return mean / n / (se / sp);
}

/** PRB (IAAO Standard on Ratio Studies 9.2.7): the slope of the least-squares regression of (ratio - median ratio) /
 *  median ratio on log2 of the value proxy 0.5 x (estimate / median ratio) + 0.5 x price. 0.02 = ratios rise 2% each
 *  time value doubles; negative = regressive. */
export function prb(estimates: number[], prices: number[]): number {
  const n = estimates.length;
  if (n < 3) return NaN;
  const ratios = estimates.map((e, i) => e / prices[i]!);
  const med = median(ratios);
  const y = ratios.map((r) => (r - med) / med);
  const x = estimates.map((e, i) => Math.log(0.5 * (e / med) + 0.5 * prices[i]!) / Math.LN2);
  const mx = x.reduce((a, b) => a + b, 0) / n, my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; i++) { sxy += (x[i]! - mx) * (y[i]! - my); sxx += (x[i]! - mx) ** 2; }
  return sxx > 0 ? sxy / sxx : NaN;
}

export interface FairnessRow {
  source: string;
  price_tier: (typeof PRICE_TIERS)[number];
  price_low: number;
  price_high: number;
  n: number;
  median_ratio: number;
  prd: number;
  /** Over all the source's test sales only ('all'): PRB is a slope over the whole value range, and within a price
   *  quartile selecting on the sale price alone makes the slope meaningless (it reached 0.6 on King County). */
  prb: number | null;
  prd_ok: boolean;
  prb_ok: boolean | null;
}

/** PRD and PRB of the test slice's recorded subjects per source over all its test sales, then the median ratio and PRD
 *  per sale-price quartile (q1 cheapest): a q1 median ratio above q4's means cheap houses are valued high. */
export function fairness(preds: Prediction[]): FairnessRow[] {
  const out: FairnessRow[] = [];
  const test = preds.filter((p) => p.slice === 'test' && p.mode === 'record');
  for (const source of [...new Set(test.map((p) => p.source))].sort()) {
    const mine = test.filter((p) => p.source === source).sort((a, b) => a.actual - b.actual);
    const n = mine.length;
    const tiers: [(typeof PRICE_TIERS)[number], Prediction[]][] = [['all', mine]];
    for (let q = 0; q < 4; q++) tiers.push([PRICE_TIERS[q + 1]!, mine.slice(Math.floor((n * q) / 4), Math.floor((n * (q + 1)) / 4))]);
    for (const [tier, list] of tiers) {
      if (list.length < 3) continue;
      const e = list.map((p) => p.estimate), a = list.map((p) => p.actual);
      const d = prd(e, a), b = tier === 'all' ? prb(e, a) : null;
      out.push({
        source, price_tier: tier, price_low: a[0]!, price_high: a[a.length - 1]!, n: list.length,
        median_ratio: round(median(e.map((v, i) => v / a[i]!)), 3), prd: round(d, 3), prb: b === null ? null : round(b, 3),
        prd_ok: d >= PRD_RANGE[0] && d <= PRD_RANGE[1], prb_ok: b === null ? null : b >= PRB_RANGE[0] && b <= PRB_RANGE[1],
      });
    }
  }
  return out;
}

const round = (v: number, k: number): number => (Number.isFinite(v) ? Number(v.toFixed(k)) : v);

export interface AccuracyRow {
  source: string; subject: string; confidence: string; n: number; mdape: number; ppe10: number; ppe20: number;
  coverage_80: number | null; median_width: number | null;
}

export interface Scorecard {
  build_id: string;
  /** What the test slice is. */
  method: string;
  /** Per source: the estimator that answers its subjects (the back-test's winner) and its test split day; test_sales:
   *  the test slice's sales valued as recorded subjects (a sale with no comp before the split is not valued);
   *  test_slice_sales (additive): the residential sales in the test slice, valued or not. */
  sources: { source: string; model: string; test_start: string; test_sales: number; test_slice_sales?: number }[];
  accuracy: AccuracyRow[];
  fairness: FairnessRow[];
  accepted: { coverage_80: [number, number]; prd: readonly [number, number]; prb: readonly [number, number] };
  /** Additive: the sales sources with arm's-length residential sales that are not valued, and why (unvalued.ts). */
  unvalued?: Unvalued[];
}

export const SCORECARD_METHOD = 'time split per source: calibration folds at 48-64% and 64-80% of its sales by date, test on the last 20%, each sale valued only from earlier sales; fairness over the test sales valued as recorded subjects';

export function scorecard(buildId: string, summary: SummaryRow[], preds: Prediction[], sources: Scorecard['sources'], unvalued: Unvalued[] = []): Scorecard {
  return {
    build_id: buildId, method: SCORECARD_METHOD, sources,
    accuracy: summary.map((r) => ({
      source: r.source, subject: r.mode, confidence: r.tier, n: r.n, mdape: r.mdape, ppe10: r.ppe10, ppe20: r.ppe20, coverage_80: r.coverage, median_width: r.width,
    })),
    fairness: fairness(preds),
    accepted: { coverage_80: [78, 82], prd: PRD_RANGE, prb: PRB_RANGE },
    unvalued,
  };
}

/** The scorecard as report / terminal tables: headers and rows. */
export const ACCURACY_HEADERS = ['source', 'subject', 'confidence', 'n (test)', 'MdAPE %', 'PPE10 %', 'PPE20 %', '80% coverage %', 'median width %'];
export const FAIRNESS_HEADERS = ['source', 'price tier', 'price range', 'n', 'median ratio', `PRD (${PRD_RANGE.join('-')})`, `PRB (${PRB_RANGE.join('..')})`];
export function accuracyRows(s: Scorecard): unknown[][] {
  return s.accuracy.map((r) => [r.source, r.subject, r.confidence, r.n, r.mdape, r.ppe10, r.ppe20, r.coverage_80 ?? '', r.median_width ?? '']);
}
export function fairnessRows(s: Scorecard): unknown[][] {
  const mark = (v: number | null, ok: boolean | null): string => (v === null ? '' : `${v}${ok === false ? ' (outside)' : ''}`);
  return s.fairness.map((r) => [r.source, r.price_tier, `${Math.round(r.price_low)}-${Math.round(r.price_high)}`, r.n, r.median_ratio, mark(r.prd, r.prd_ok), mark(r.prb, r.prb_ok)]);
}

/** GET /v1/valuation/scorecard: scorecard.json of the build, parsed once. */
const scorecardModule: LiveModule<Record<string, unknown>> = {
  name: 'valuation-scorecard',
  async load(build: LiveBuild): Promise<LiveInstance<Record<string, unknown>>> {
    const file = path.join(build.dir, 'live', 'valuation', 'scorecard.json');
    if (!fs.existsSync(file)) return unavailable('the valuation scorecard is not available in this build');
    let body: Scorecard;
    try {
      body = JSON.parse(fs.readFileSync(file, 'utf8')) as Scorecard;
    } catch (err) {
      return unavailable(`the valuation scorecard is not available in this build (unreadable: ${(err as Error).message})`);
    }
    return { handle: (): LiveAnswer => ({ ok: true, body }) };
  },
};
export default scorecardModule;
