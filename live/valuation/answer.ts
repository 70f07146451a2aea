// The additive parts of the valuation answer (pure, no I/O): `subject` (did the address match a record, its
// property_id, every fact the estimator used and where it came from) and `comps[]` (each comp of the estimate's top 15, an outlier trimmed marked, with
// its time and feature adjustments, adjusted price, similarity and weight) and `time_index` (the levels of the
// market's monthly index those time adjustments read). warehouse/docs/valuation.md "The answer".
import type { Blend, CompDetail, Estimate, ModelParams, Subject, SubjectMode, Tier } from './types.ts';
import type { CalibrationPick } from './interval.ts';
import { isoOfDay, monthOfDay } from './helpers.ts';
import { indexAtMonth } from './estimate.ts';
import type { CompIndex } from './comps.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';

/** Where a fact of the subject came from: the matched record, the request, or the zip's typical property. */
export type FactSource = 'record' | 'request' | 'zip_typical' | 'default';
export interface SubjectFact { name: string; value: number | string; source: FactSource }
export interface SubjectBody {
  matched: boolean;
  /** property_id() of the matched record (the property record's id); null when unmatched. */
  property_id: string | null;
  /** 'sale' (a recorded sale at the address) or 'parcel' (the assessor roll); null when unmatched. */
  matched_on: 'sale' | 'parcel' | null;
  /** record = matched; request = unmatched with sqft sent; typical = unmatched without sqft (confidence low). */
  mode: SubjectMode;
  facts: SubjectFact[];
}
export interface CompBody {
  property_id: string | null;
  address: string | null;
  zip: string;
  sale_date: string;
  price: number;
  sqft: number;
  distance_km: number | null;
  similarity: number;
  time_adjustment_pct: number;
  feature_adjustment_pct: number;
  adjusted_price: number;
  weight: number;
  /** Additive: false for a comp of the top 15 the outlier trim gave no weight (listed: the tier measured it). */
  kept: boolean;
  /** Additive: its share of the weights before the trim, the weights confidence_basis.dispersion is measured with. */
  weight_before_trim: number;
}

/** What the confidence tier was read from (interval.ts confidenceTier), so an answer's tier can be checked against its
 *  comps[]: the count, effective count (1 / Σ weight²), median age (months before valuation_date) and median distance
 *  of the comps used (kept), and the dispersion of every comp listed, before the trim (the weighted median absolute
 *  deviation of ln adjusted_price around its weighted median, weights weight_before_trim). `tier` is the rule's tier,
 *  the interval's; `confidence` may be lower (notes say why). */
export interface ConfidenceBasis {
  tier: Tier;
  comps: number;
  effective_comps: number;
  dispersion: number;
  median_age_months: number;
  median_distance_km: number | null;
  valuation_date: string;
}

export function confidenceBasis(e: Estimate, valuationDay: number): ConfidenceBasis {
  return {
    tier: e.tier, comps: e.compCount, effective_comps: r(e.effectiveComps, 4), dispersion: r(e.dispersion, 4),
    median_age_months: r(e.medianAgeMonths, 4), median_distance_km: e.medianDistanceKm === null ? null : r(e.medianDistanceKm, 4),
    valuation_date: isoOfDay(valuationDay),
  };
}

/** The record an address matched: which index (comps = a sale, subjects = a parcel) and its row. */
export interface SubjectMatch { on: 'sale' | 'parcel'; ix: CompIndex; row: number }

const r = (v: number, k: number): number => Number(v.toFixed(k));

/** How an assessor feature (mart_valuation_features column) is named in `facts`: back from its log ('exp', rounded to
 *  a unit) or its code (the value's label); a feature not listed keeps its name and value. */
export const FEATURE_FACTS: Record<string, [string, 'exp' | Record<number, string>]> = {
  log_lot: ['lot_sqft', 'exp'], log_assessed: ['assessed_value', 'exp'], log_land: ['land_sqft', 'exp'],
  log_area: ['lot_sqft', 'exp'], log_frontage: ['frontage_ft', 'exp'],
  quality: ['quality_grade', Object.fromEntries(['E', 'E+', 'D-', 'D', 'D+', 'C-', 'C', 'C+', 'B-', 'B', 'B+', 'A-', 'A', 'A+'].map((g, k) => [k, g]))],
  central_air: ['central_air', { 0: 'N', 1: 'Y' }], attached: ['attachment', { 0: 'row', 1: 'semi-detached', 2: 'detached' }],
  exterior: ['exterior_condition', {}], garage: ['garage_spaces', {}],
};
const pct = (logAdj: number): number => r((Math.exp(logAdj) - 1) * 100, 1);

/** The subject block: matched or not, and each fact the estimator used with its origin. */
export function subjectBody(s: Subject, match: SubjectMatch | null, sent: { sqft?: boolean; beds?: boolean; baths?: boolean }, condition: string, conditionFrom: FactSource, found: string | null = null): SubjectBody {
  const rest: FactSource = match ? 'record' : 'zip_typical';
  const facts: SubjectFact[] = [{ name: 'sqft', value: s.sqft, source: sent.sqft ? 'request' : rest }];
  const add = (name: string, v: number | null | undefined, k = 0): void => {
    if (v !== null && v !== undefined && Number.isFinite(v)) facts.push({ name, value: r(v, k), source: (sent as Record<string, boolean | undefined>)[name] ? 'request' : rest });
  };
  add('beds', s.beds, 1);
  add('baths', s.baths, 2);
  add('year_built', s.year);
  facts.push({ name: 'property_type', value: PROPERTY_TYPES[s.type] ?? 'sfr', source: rest });
  for (const [name, v] of Object.entries(s.features).sort()) {
    const fact = FEATURE_FACTS[name];
    if (!fact) add(name, v, 2);
    else if (fact[1] === 'exp') add(fact[0], Math.exp(v));
    else if (Number.isFinite(v) && fact[1][v] !== undefined) facts.push({ name: fact[0], value: fact[1][v]!, source: rest });
    else add(fact[0], v, 2);
  }
  if (s.lat !== null && s.lng !== null) { add('lat', s.lat, 6); add('lng', s.lng, 6); }
  facts.push({ name: 'condition', value: condition, source: conditionFrom }); // request, the record's own, else the default (good)
  // unmatched: the property the property record found at the address, whose record the valuation has no row of
  const pid = match ? (match.ix.data.pid?.at(match.row) ?? null) : found;
  return { matched: match !== null, property_id: pid, matched_on: match?.on ?? null, mode: s.mode, facts };
}

/** The comps of an estimate, highest weight first (an outlier trimmed among them: kept false, weight 0). Each adjusted price to the dollar and each weight to 8 decimals, so
 *  exp(Σ weight x ln adjusted_price) of the answer's own comps[] gives the comps estimate (blend.comps_value, or the
 *  estimated_value of an answer without a blend) to its $100 rounding: with weights to 3 decimals (summing 0.99x-1.00x)
 *  and prices to $100 it missed by up to 3% (review). */
export function compsBody(ix: CompIndex, comps: CompDetail[]): CompBody[] {
  const d = ix.data;
  return comps.map((c) => ({
    property_id: d.pid?.at(c.row) ?? null,
    address: d.key.at(c.row),
    zip: d.zips[d.zip[c.row]!]!,
    sale_date: isoOfDay(d.day[c.row]!),
    price: d.price[c.row]!,
    sqft: d.sqft[c.row]!,
    distance_km: c.distanceKm === null ? null : r(c.distanceKm, 2),
    similarity: r(c.similarity, 3),
    time_adjustment_pct: pct(c.timeAdj),
    feature_adjustment_pct: pct(c.featureAdj),
    adjusted_price: Math.round(Math.exp(c.adjustedLog)),
    weight: r(c.weight, 8),
    kept: c.kept,
    weight_before_trim: r(c.weightBeforeTrim, 8),
  }));
}

/** The index a comp's time_adjustment_pct reads: its level in the comp's month against the valuation month's. */
export interface TimeIndexBody {
  basis: string;
  valuation_month: string;
  /** The index's last month with a level of its own; a later month's level is carried along its trend. */
  last_levelled_month: string | null;
  /** 100 at the valuation month; a comp sold in `month` is adjusted by 100 / level - 1. */
  levels: { month: string; level: number }[];
}

const monthText = (m: number): string => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;

/** The valuation month and every comp's month on the market's own index, rebased to 100 at the valuation month. */
export function timeIndexBody(p: ModelParams, source: string, valuationDay: number, ix: CompIndex, comps: CompDetail[]): TimeIndexBody {
  const at = monthOfDay(valuationDay);
  const base = indexAtMonth(p, at);
  const months = [...new Set([at, ...comps.map((c) => ix.month[c.row]!)])].sort((a, b) => a - b);
  return {
    basis: `the valuation's monthly price index of ${source}'s sales, fitted with the size and feature slopes (warehouse/docs/valuation.md "Time index"); `
      + 'not the median-price index of GET /v1/market/trends, which mixes the months\' sales as they come',
    valuation_month: monthText(at),
    last_levelled_month: p.index.length > 0 ? monthText(p.month0 + p.index.length - 1) : null,
    levels: months.map((m) => ({ month: monthText(m), level: r(100 * Math.exp(indexAtMonth(p, m) - base), 2) })),
  };
}

/** The answer (the spec's Valuation estimate object and its additive fields). */
export interface ValuationBody {
  address: string;
  zip: string;
  city: string;
  state: string;
  estimated_value: number;
  value_low: number;
  value_high: number;
  price_per_sqft: number | null;
  confidence: 'low' | 'medium' | 'high';
  comp_count: number;
  as_of: string;
  /** Additions to the spec's fields (issue 24): the subject as matched, the estimator that answered, its comps; and
   *  how old the comps' source is at the build's date (warehouse/data-age.ts), null when within a year. */
  data_age_note: string | null;
  subject: SubjectBody;
  model: string;
  comps: CompBody[];
  /** Additive: the measures the confidence tier was read from (confidenceBasis). */
  confidence_basis: ConfidenceBasis;
  /** Additive: what the answer says about itself (comps of another property type, a place that contradicts the zip:
   *  notes.ts); empty when nothing. */
  notes: string[];
  /** Additive: the components of a blended estimate (null when the estimate is the comps' alone): blendBody. */
  blend: BlendBody | null;
  /** The index the comps' time adjustments read, so an investor can check them (review 13). */
  time_index: TimeIndexBody;
}

/** A blended estimate's parts (log-scale shares, estimate.ts blendLog): estimated_value = exp(comps_weight x
 *  log comps_value + hedonic_weight x log hedonic_value + trees_weight x log trees_value + stacked_weight x log
 *  stacked_value), before rounding; a part without its own estimate (null) lends its share to the comps. The stacked
 *  value is the comps estimate corrected by the trees fitted on its own error. Null when the estimate is the comps'
 *  alone. */
export interface BlendBody {
  comps_value: number; comps_weight: number;
  hedonic_value: number | null; hedonic_weight: number;
  trees_value: number | null; trees_weight: number;
  stacked_value: number | null; stacked_weight: number;
}

export function blendBody(b: Blend | undefined, mode: SubjectMode, e: Estimate, round: (v: number) => number): BlendBody | null {
  if (!b || mode !== 'record' || b.comps >= 1) return null;
  const v = (log: number | null): number | null => (log === null ? null : round(Math.exp(log)));
  return {
    comps_value: round(Math.exp(e.compsLog)), comps_weight: r(b.comps, 4),
    hedonic_value: v(e.hedonicLog), hedonic_weight: r(b.hedonic, 4),
    trees_value: v(e.gbmLog), trees_weight: r(b.gbm, 4),
    stacked_value: v(e.stackedLog), stacked_weight: r(b.stacked ?? 0, 4),
  };
}

/** The beds and baths a request sent (numbers >= 0; the route has checked them). */
export interface Sent { beds?: number; baths?: number }
export function sentFacts(input: { beds?: unknown; baths?: unknown }): Sent {
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  return { ...(ok(input.beds) ? { beds: input.beds } : {}), ...(ok(input.baths) ? { baths: input.baths } : {}) };
}

const recorded = new WeakMap<CompIndex, Record<keyof Sent, boolean>>();
/** The sent beds and baths the market's comps record (at least one comp has the field), and a note naming those it
 *  does not: there no comp's feature adjustment, weight or model term can read the field (NYC's rolling sales record no
 *  beds or baths), so it would change nothing, and the answer does not list it among the facts used. */
export function usableSent(ix: CompIndex, sent: Sent, source: string): { used: Sent; note: string | null } {
  let has = recorded.get(ix);
  if (!has) recorded.set(ix, (has = { beds: ix.beds.some((v) => !Number.isNaN(v)), baths: ix.baths.some((v) => !Number.isNaN(v)) }));
  const used: Sent = {}, unused: string[] = [];
  for (const k of ['beds', 'baths'] as const) {
    if (sent[k] === undefined) continue;
    if (has[k]) used[k] = sent[k];
    else unused.push(`${k} ${sent[k]}`);
  }
  const note = unused.length === 0 ? null : `${unused.join(' and ')} sent ${unused.length === 1 ? 'was' : 'were'} not used: the comps of this market (${source}) `
    + `record no ${unused.map((u) => u.split(' ')[0]).join(' or ')}, so no comp can be compared on ${unused.length === 1 ? 'it' : 'them'} and the estimate is the same without ${unused.length === 1 ? 'it' : 'them'}`;
  return { used, note };
}

/** Where the subject's condition came from: the request, else the matched record when it records one, else the
 *  spec's default (good). */
export function conditionSource(sent: boolean, match: SubjectMatch | null): FactSource {
  if (sent) return 'request';
  return match && match.ix.cond[match.row]! >= 0 ? 'record' : 'default';
}

/** How an answer was made (tests and diagnostics; not part of the response). */
export interface ValuationExplain {
  source: string;
  subject: Subject;
  /** The comp row of the subject's own recorded sale, left out of its comps; null when not a recorded sale. */
  ownRow: number | null;
  /** The record the address matched (a sale or a parcel); null when unmatched. */
  match: SubjectMatch | null;
  /** The property the property record finds at the address when no row of the valuation is it (its record has no
   *  living area): valued as the zip's typical property, subject.property_id names it; else null. */
  propertyId?: string | null;
  estimate: Estimate;
  /** The confidence the answer gives when calibrated (the estimate's tier, capped: explain) and its notes; the
   *  calibration is the estimate's own tier's (estimate.tier). */
  tier: Tier;
  notes: string[];
  calibration: CalibrationPick;
  comps: CompIndex;
  /** The valuation date (a day number): the source's latest sale. */
  valuationDay: number;
}
