// The valuation's shared vocabulary (pure, imports nothing): property conditions and their value factors, the
// residential types, confidence tiers, subject modes, the estimator's subject and estimate, and the shapes of
// params-<source>.json and meta.json under <build>/live/valuation/. warehouse/docs/valuation.md documents every rule and
// constant here.

import type { GbmModel } from './gbm.ts';

export type Condition = 'excellent' | 'good' | 'fair' | 'poor';
/** Shares of the estimates (sum 1): `stacked` is the comps estimate corrected by the stacked trees (ModelParams.stacked);
 *  absent = 0. */
export interface Blend { comps: number; hedonic: number; gbm: number; stacked?: number }
export type Tier = 'low' | 'medium' | 'high';
export const TIERS: readonly Tier[] = ['high', 'medium', 'low'];
/** Condition codes in the comp files: 0 poor, 1 fair, 2 good, 3 excellent. */
export const CONDITION_CODES: readonly Condition[] = ['poor', 'fair', 'good', 'excellent'];
/** Value multipliers relative to "good" (the request default). Applied to the subject and, for comps that
 *  carry a condition, removed from the comp, so a comp in excellent condition is adjusted down for a good subject. */
export const CONDITION_FACTOR: Readonly<Record<Condition, number>> = { excellent: 1.08, good: 1.0, fair: 0.9, poor: 0.78 };
/** Types the valuation covers (comps and subjects). */
export const RESIDENTIAL_TYPES: ReadonlySet<number> = new Set([0, 1, 2]);

/** Fitted per market: the monthly log price index and the hedonic adjustment slopes. */
export interface ModelParams {
  source: string;
  month0: number; // first month of the index, as year * 12 + (month - 1)
  index: number[]; // log index per month from month0 (0 at the first month)
  elasticity: number; // d log price / d log sqft
  beds: number; // d log price per bedroom (sqft held)
  baths: number; // d log price per bathroom
  year: number; // d log price per year of construction
  features: Record<string, number>; // d log price per unit of each assessor feature the source has
  fitted_rows: number;
  /** The estimator that won the source's back-test (backtest.ts chooseBlend); absent = 'comps'. */
  model?: string;
  /** Shares of the comps, hedonic and boosted-trees estimates in a recorded subject's answer (log scale; backtest.ts
   *  chooseBlend). Absent = comps only. */
  blend?: Blend;
  /** The comps' recency scale in months (the weight's exp(-age / recency)), chosen on the source's back-test folds
   *  (choose.ts chooseRecency); absent = TUNING.recencyMonths. */
  recency_months?: number;
  /** The comps' distance scale in km (the weight's 1 / (1 + (d / scale)^2)), chosen on the source's back-test folds
   *  (choose.ts chooseDistance); absent = TUNING.distKm. */
  distance_km?: number;
  /** The comps' similarity scales learned for the source's recorded subjects (choose.ts chooseKernel, issue 24
   *  fourteenth round): `size` and `year` (scales: |Δlog sqft| / size, |Δyear| / year), `beds`, `baths` and each assessor
   *  feature's name (weights per unit of difference); a scale absent = TUNING's. Absent where the folds kept the defaults. */
  kernel?: Record<string, number>;
  /** The boosted trees over the sales' own characteristics and point (gbm.ts), target log price - index. */
  gbm?: GbmModel;
  /** The stacked trees (fit.ts fitStacked): trained on log price - the comps estimate over the trees' features and the
   *  comps' own shape (STACK_FEATURES); a recorded subject's stacked estimate is its comps estimate + their prediction.
   *  Present where the blend gives it a share. */
  stacked?: GbmModel;
  /** Hedonic level per zip: mean over its rows of log price minus the fitted slopes and index (fit.ts). */
  zip_level?: Record<string, number>;
  /** H3 neighbourhood effect per res-8 cell (shrunk mean hedonic residual; absent = 0, the zip's average). */
  cells?: Record<string, number>;
}

/** Subject of a valuation. Unknown characteristics are null; lat/lng null means "somewhere in the zip". */
export interface Subject {
  zip: string;
  sqft: number;
  beds: number | null;
  baths: number | null;
  year: number | null;
  /** Known assessor features (TUNING.features names); absent = unknown. */
  features: Record<string, number>;
  cond: Condition;
  type: number;
  lat: number | null;
  lng: number | null;
  /** The tax block of a recorded subject where the source records one (CompSetData.block); absent = unknown. */
  block?: string | null;
  mode: SubjectMode;
}

/** How the subject was described (warehouse/docs/valuation.md "Subject"): 'record' = the characteristics of a recorded
 *  sale or parcel at the address; 'request' = address not found, the zip's typical property with the request's sqft;
 *  'typical' = address not found and no sqft sent: the zip's typical property, its sqft included. Each mode has its own
 *  back-test subjects and calibration rows. */
export type SubjectMode = 'record' | 'request' | 'typical';
export const SUBJECT_MODES: readonly SubjectMode[] = ['record', 'request', 'typical'];

export interface Estimate {
  value: number; // USD
  logValue: number;
  /** The comps estimate, the hedonic estimate (zip level + slopes + neighbourhood + index; null without a zip level)
   *  and the boosted trees' estimate (null without trees). */
  compsLog: number;
  hedonicLog: number | null;
  gbmLog: number | null;
  /** The comps estimate corrected by the stacked trees (null without them, or for a subject not recorded). */
  stackedLog: number | null;
  /** The comps' shape the stacked trees read (estimate.ts STACK_FEATURES order). */
  compFeatures: number[];
  compCount: number;
  asOfDay: number; // most recent comp sale day used
  tier: Tier;
  dispersion: number; // weighted MAD of the comps' adjusted log values
  effectiveComps: number;
  medianAgeMonths: number;
  medianDistanceKm: number | null;
  scope: 'rings' | 'zip' | 'market';
  /** The kept comps' rows of the CompIndex, highest weight first. */
  rows: number[];
  /** With EstimateOptions.detail: every comp of the top maxComps, the dispersion's (so the tier's) comps, in weight
   *  order; `kept` false for an outlier the trim gave no weight (not in rows). */
  comps?: CompDetail[];
}

/** One comp of an estimate (log scale adjustments): its row, distance (null when either side has no point), the time
 *  adjustment (index at the valuation month - index at its sale month), the feature adjustment (size, beds, baths, year
 *  built, assessor features, condition), its adjusted log price, its similarity (0-1: the weight without the age
 *  term) and its share of the estimate (0 for a comp trimmed as an outlier; the shares sum to 1). */
export interface CompDetail {
  row: number;
  distanceKm: number | null;
  timeAdj: number;
  featureAdj: number;
  adjustedLog: number;
  similarity: number;
  weight: number;
  /** Used (kept by the outlier trim: rows, compCount); false: trimmed, weight 0. */
  kept: boolean;
  /** Its share of the weights before the trim (the dispersion's weights: weightedMedian over every listed comp). */
  weightBeforeTrim: number;
}

/** live/valuation/meta.json: per source its files and as_of (latest sale), per zip its source, city and state. */
export interface ZipMeta { source: string; city: string; state: string; sales: number; last_sale: string }
export interface ValuationMeta {
  format: number;
  build_id: string;
  /** unit_sales: the source's arm's-length residential sales of a unit (condo, co-op), unit_sales_sqft: those with a
   *  living area; a source recording it on fewer than half cannot value units (UNIT_SQFT_SHARE). Absent in older builds. */
  sources: Record<string, { comps_file: string; subjects_file: string; params_file: string; comps: number; subjects: number; as_of: string; unit_sales?: number; unit_sales_sqft?: number }>;
  zips: Record<string, ZipMeta>;
}

/** live/valuation/apartments.json, keyed by property_id: an apartment building of five or more units, outside the
 *  valuation's scope (mart_valuation_apartments; warehouse/docs/valuation.md "Scope"). `units` as its source states it. */
export interface ApartmentRow { source: string; units: string; evidence: string }

/** The body of POST /v1/valuation/estimate (endpoint.ts). */
export interface ValuationInput {
  zip: string;
  address: string;
  sqft?: number;
  /** Additive (review 6 #16): beds and baths override the record's or the typical property's, as sqft does. */
  beds?: number;
  baths?: number;
  /** not sent: a matched record's recorded condition, else good (the spec's default); the answer says which */
  condition?: string;
}
