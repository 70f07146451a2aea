// The valuation estimator: pure functions and data structures, no I/O. The same code answers
// POST /v1/valuation/estimate (live/valuation/endpoint.ts), runs the back-test inside the build
// (live/valuation/build.ts) and the offline evaluation (scripts/eval-avm.ts).
// warehouse/docs/valuation.md documents every rule and constant here.
import { gridDisk, latLngToCell } from 'h3-js';

// ---------------------------------------------------------------- constants

export type Condition = 'excellent' | 'good' | 'fair' | 'poor';
export type Tier = 'low' | 'medium' | 'high';
export const TIERS: readonly Tier[] = ['high', 'medium', 'low'];
/** Condition codes in the comp files: 0 poor, 1 fair, 2 good, 3 excellent. */
export const CONDITION_CODES: readonly Condition[] = ['poor', 'fair', 'good', 'excellent'];
/** Value multipliers relative to "good" (the request default). Applied to the subject and, for comps that
 *  carry a condition, removed from the comp, so a comp in excellent condition is adjusted down for a good subject. */
export const CONDITION_FACTOR: Readonly<Record<Condition, number>> = { excellent: 1.08, good: 1.0, fair: 0.9, poor: 0.78 };
/** Types the valuation covers (comps and subjects). */
export const RESIDENTIAL_TYPES: ReadonlySet<number> = new Set([0, 1, 2]);

/** H3 resolution of the comp cells (~0.46 km edge, ~0.74 km2). */
export const H3_RES = 8;
/** The estimator's tuning (warehouse/docs/valuation.md "Weights"): rings searched around the subject's cell,
 *  widening until minCandidates earlier sales are found; comps kept (highest weights); weight scales of distance
 *  (km, Cauchy), recency (months, exponential), size (|log sqft ratio|), beds, baths and year built. */
export const TUNING = {
  rings: [2, 4, 7] as number[],
  minCandidates: 40,
  /** At most this many of the zip's most recent earlier sales are candidates when the rings are not used. */
  zipMax: 400,
  maxComps: 15,
  distKm: 0.6,
  recencyMonths: 9,
  size: 0.3,
  beds: 0.15,
  baths: 0.2,
  year: 25,
  /** Assessor features some sources carry (feature -> similarity weight per unit of difference, slope bounds). */
  features: {
    grade: { weight: 1.0, lo: 0, hi: 0.4 }, // King County construction grade 1-13
    view: { weight: 0.5, lo: 0, hi: 0.3 }, // King County view rating 0-4
    waterfront: { weight: 2.0, lo: 0, hi: 1.0 }, // King County waterfront 0/1
    log_lot: { weight: 1.0, lo: 0, hi: 0.5 }, // log of the lot size in sqft
  } as Record<string, { weight: number; lo: number; hi: number }>,
  /** Months the index may be carried forward past its last month along its recent trend (damped). */
  trendMonths: 3,
};
/** Bounds of the fitted size elasticity (log price on log sqft within zips). */
export const ELASTICITY_BOUNDS = [0.35, 0.95] as const;
export const DEFAULT_ELASTICITY = 0.65;
export const DAY_MS = 86_400_000;
const MONTH_DAYS = 30.4375;
export const COVERAGE = 0.8;

// ---------------------------------------------------------------- data

/** One market's comparable sales, columnar (as written to live/valuation/comps-<source>.json). Unknown = null. */
export interface CompSetData {
  source: string;
  zips: string[]; // dictionary of zips
  zip: number[]; // index into zips
  day: number[]; // sale date, days since 1970-01-01
  price: number[];
  sqft: number[];
  beds: (number | null)[];
  baths: (number | null)[];
  year: (number | null)[]; // year built
  cond: (number | null)[]; // CONDITION_CODES index
  type: number[]; // PROPERTY_TYPES index
  lat: (number | null)[];
  lng: (number | null)[];
  key: (string | null)[]; // normalised street address (+ " #unit"), or the parcel id where a source has no address
  /** Assessor features where a source has them (King County: grade, view, waterfront, log_lot; TUNING.features). */
  features?: Record<string, (number | null)[]>;
}

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
}

/** The conformal calibration table: the COVERAGE quantile of |log(actual / estimate)| per source, mode and tier. */
export interface CalibrationRow {
  source: string; // a source id or '*' (all sources pooled)
  mode: SubjectMode;
  tier: Tier;
  n: number;
  q: number;
}

/** live/valuation/meta.json: per source its files and as_of (latest sale), per zip its source, city and state. */
export interface ZipMeta { source: string; city: string; state: string; sales: number; last_sale: string }
export interface ValuationMeta {
  format: number;
  build_id: string;
  sources: Record<string, { comps_file: string; subjects_file: string; comps: number; subjects: number; as_of: string }>;
  zips: Record<string, ZipMeta>;
}

// ---------------------------------------------------------------- small helpers

export const dayOf = (iso: string): number => Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);
export const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const monthOfDay = (day: number): number => { const d = new Date(day * DAY_MS); return d.getUTCFullYear() * 12 + d.getUTCMonth(); };

const nz = (v: number | null | undefined): number => (v === null || v === undefined ? NaN : v);

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Weighted median of values (weights > 0). */
export function weightedMedian(values: number[], weights: number[]): number {
  const idx = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (const i of idx) {
    acc += weights[i]!;
    if (acc >= total / 2) return values[i]!;
  }
  return values[idx[idx.length - 1]!]!;
}

/** The split-conformal quantile: the ceil((n + 1) * level)-th smallest score (capped at the largest). */
export function conformalQuantile(scores: number[], level = COVERAGE): number {
  if (scores.length === 0) return NaN;
  const s = [...scores].sort((a, b) => a - b);
  const k = Math.min(s.length, Math.ceil((s.length + 1) * level));
  return s[k - 1]!;
}

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 12_742.0176 * Math.asin(Math.min(1, Math.sqrt(a)));
}

// ---------------------------------------------------------------- the comp index

export interface ZipTypical { sqft: number; beds: number | null; baths: number | null; year: number | null; type: number; n: number }

/** A market's comps with their lookup structures (H3 cells, zips, address keys). */
export class CompIndex {
  readonly n: number;
  readonly day: Float64Array;
  readonly month: Int32Array; // year * 12 + month - 1 of the sale
  readonly logPrice: Float64Array;
  readonly logSqft: Float64Array;
  readonly beds: Float64Array;
  readonly baths: Float64Array;
  readonly year: Float64Array;
  readonly features: [string, Float64Array][];
  readonly condLog: Float64Array; // log CONDITION_FACTOR of the comp, 0 when unknown
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  readonly byCell = new Map<string, number[]>();
  readonly byZip = new Map<string, number[]>();
  readonly byKey = new Map<string, number>(); // "<zip>|<key>" -> latest row

  constructor(readonly data: CompSetData) {
    const n = (this.n = data.day.length);
    this.day = Float64Array.from(data.day);
    this.month = Int32Array.from(data.day, monthOfDay);
    this.logPrice = Float64Array.from(data.price, Math.log);
    this.logSqft = Float64Array.from(data.sqft, Math.log);
    this.beds = Float64Array.from(data.beds, nz);
    this.baths = Float64Array.from(data.baths, nz);
    this.year = Float64Array.from(data.year, nz);
    this.features = Object.entries(data.features ?? {}).map(([k, v]) => [k, Float64Array.from(v, nz)]);
    this.condLog = Float64Array.from(data.cond, (c) => (c === null ? 0 : Math.log(CONDITION_FACTOR[CONDITION_CODES[c]!])));
    this.lat = Float64Array.from(data.lat, nz);
    this.lng = Float64Array.from(data.lng, nz);
    for (let i = 0; i < n; i++) {
      const zip = data.zips[data.zip[i]!]!;
      push(this.byZip, zip, i);
      if (Number.isFinite(this.lat[i]) && Number.isFinite(this.lng[i])) push(this.byCell, latLngToCell(this.lat[i]!, this.lng[i]!, H3_RES), i);
      const key = data.key[i];
      if (i > 0 && data.zip[i - 1] === data.zip[i] && data.day[i - 1]! > data.day[i]!) throw new Error('comps must be ordered by zip, then date');
      if (key) {
        const k = `${zip}|${key}`;
        const prev = this.byKey.get(k);
        if (prev === undefined || this.day[prev]! <= this.day[i]!) this.byKey.set(k, i);
      }
    }
  }

  private readonly disks = new Map<string, string[]>();
  /** The cells of the comps within k rings of a cell (memoised; cells without comps left out). */
  disk(cell: string, k: number): string[] {
    const key = `${cell}:${k}`;
    let d = this.disks.get(key);
    if (!d) {
      d = gridDisk(cell, k).filter((c) => this.byCell.has(c));
      if (this.disks.size > 200_000) this.disks.clear();
      this.disks.set(key, d);
    }
    return d;
  }

  /** The subject described by a recorded row (the back-test's subjects; address matches in the live endpoint). */
  subjectOf(i: number, cond?: Condition): Subject {
    const d = this.data;
    const c = d.cond[i];
    return {
      zip: d.zips[d.zip[i]!]!, sqft: d.sqft[i]!, beds: d.beds[i] ?? null, baths: d.baths[i] ?? null, year: d.year[i] ?? null,
      features: Object.fromEntries(this.features.map(([k, v]) => [k, v[i]!]).filter(([, v]) => Number.isFinite(v))), cond: cond ?? (c === null || c === undefined ? 'good' : CONDITION_CODES[c]!), type: d.type[i]!,
      lat: d.lat[i] ?? null, lng: d.lng[i] ?? null, mode: 'record',
    };
  }

  /** The zip's typical residential property (medians of the rows given, most common type). */
  typical(zip: string, rows?: number[]): ZipTypical | null {
    const all = (rows ?? this.byZip.get(zip) ?? []).filter((i) => RESIDENTIAL_TYPES.has(this.data.type[i]!));
    if (all.length === 0) return null;
    const counts = new Map<number, number>();
    for (const i of all) counts.set(this.data.type[i]!, (counts.get(this.data.type[i]!) ?? 0) + 1);
    const type = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const ofType = all.filter((i) => this.data.type[i] === type);
    const med = (arr: Float64Array): number | null => { const v = median(ofType.map((i) => arr[i]!).filter(Number.isFinite)); return Number.isFinite(v) ? v : null; };
    return { sqft: Math.round(Math.exp(med(this.logSqft)!)), beds: med(this.beds), baths: med(this.baths), year: med(this.year), type, n: ofType.length };
  }
}

function push<K>(m: Map<K, number[]>, k: K, v: number): void {
  const a = m.get(k);
  if (a) a.push(v); else m.set(k, [v]);
}

// ---------------------------------------------------------------- the estimator

export interface EstimateOptions {
  /** The valuation date (day number): comps are time-adjusted to it. */
  valuationDay: number;
  /** Only comps sold strictly before this day are used (the back-test's split; live: after the last sale). */
  beforeDay: number;
  /** A row never used as its own comp (the back-test subject). */
  excludeRow?: number;
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
  const usable = (i: number): boolean => idx.day[i]! < opts.beforeDay && i !== opts.excludeRow && RESIDENTIAL_TYPES.has(idx.data.type[i]!);

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
  if (cand.length === 0) return null;
  // same property type when there are enough of them
  const sameType = cand.filter((i) => idx.data.type[i] === s.type);
  if (sameType.length >= 5) cand = sameType;

  const n = cand.length;
  const adj = new Float64Array(n);
  const w = new Float64Array(n);
  const dist = new Float64Array(n);
  // per-subject constants hoisted out of the loop
  const sBeds = nz(s.beds), sBaths = nz(s.baths), sYear = nz(s.year);
  const fCols: Float64Array[] = [], fVal: number[] = [], fSlope: number[] = [], fW: number[] = [];
  for (const [name, col] of idx.features) {
    const v = s.features[name];
    if (v === undefined || !Number.isFinite(v)) continue;
    fCols.push(col); fVal.push(v); fSlope.push(p.features[name] ?? 0); fW.push(TUNING.features[name]?.weight ?? 0.5);
  }
  const nf = fCols.length;
  const invSize = 1 / TUNING.size, invYear = 1 / TUNING.year, invDist = 1 / TUNING.distKm;
  const invRecency = 1 / (TUNING.recencyMonths * MONTH_DAYS);
  const sLat = s.lat ?? NaN, sLng = s.lng ?? NaN;
  for (let j = 0; j < n; j++) {
    const i = cand[j]!;
    const dLogSqft = sLogSqft - idx.logSqft[i]!;
    let a = idx.logPrice[i]! + sIdx - indexAtMonth(p, idx.month[i]!) + p.elasticity * dLogSqft + sCond - idx.condLog[i]!;
    // log of the weight: -(size, beds, baths, year, feature distances) - age / recency
    let lw = -Math.abs(dLogSqft) * invSize - Math.max(0, opts.valuationDay - idx.day[i]!) * invRecency;
    const db = sBeds - idx.beds[i]!;
    if (db === db) { a += p.beds * db; lw -= Math.abs(db) * TUNING.beds; }
    const dba = sBaths - idx.baths[i]!;
    if (dba === dba) { a += p.baths * dba; lw -= Math.abs(dba) * TUNING.baths; }
    const dy = sYear - idx.year[i]!;
    if (dy === dy) { a += p.year * dy; lw -= Math.abs(dy) * invYear; }
    for (let f = 0; f < nf; f++) {
      const df = fVal[f]! - fCols[f]![i]!;
      if (df === df) { a += fSlope[f]! * df; lw -= Math.abs(df) * fW[f]!; }
    }
    let wd = 1;
    dist[j] = NaN;
    if (hasPoint && idx.lat[i] === idx.lat[i]) {
      const d = haversineKm(sLat, sLng, idx.lat[i]!, idx.lng[i]!);
      dist[j] = d;
      const r = d * invDist;
      wd = 1 / (1 + r * r);
    }
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
  for (let k = 0; k < vals.length; k++) {
    if (Math.abs(vals[k]! - mid) > cut) continue;
    sw += ws[k]!; sv += ws[k]! * vals[k]!; sw2 += ws[k]! ** 2;
  }
  const logValue = sw > 0 ? sv / sw : mid;
  const effectiveComps = sw > 0 ? (sw * sw) / sw2 : 1;
  const ages = order.map((j) => (opts.valuationDay - idx.day[cand[j]!]!) / MONTH_DAYS);
  const dists = order.map((j) => dist[j]!).filter(Number.isFinite);
  let asOfDay = -Infinity;
  for (const j of order) asOfDay = Math.max(asOfDay, idx.day[cand[j]!]!);
  const est: Estimate = {
    value: Math.exp(logValue), logValue, compCount: order.length, asOfDay, tier: 'low', dispersion, effectiveComps,
    medianAgeMonths: median(ages), medianDistanceKm: dists.length ? median(dists) : null, scope, rows: order.map((j) => cand[j]!),
  };
  est.tier = confidenceTier(est, s.mode);
  return est;
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

/** Confidence from comp density (count, effective count, distance), dispersion and recency. */
export function confidenceTier(e: Pick<Estimate, 'compCount' | 'dispersion' | 'effectiveComps' | 'medianAgeMonths' | 'medianDistanceKm'>, mode: SubjectMode): Tier {
  if (mode === 'typical') return 'low'; // neither the property nor its size is known
  if (mode === 'request') return e.compCount >= 8 && e.dispersion <= 0.12 && e.medianAgeMonths <= 9 ? 'medium' : 'low';
  const near = e.medianDistanceKm === null || e.medianDistanceKm <= 1.5;
  if (e.compCount >= 10 && e.effectiveComps >= 4 && e.dispersion <= 0.08 && e.medianAgeMonths <= 9 && near) return 'high';
  if (e.compCount >= 5 && e.dispersion <= 0.16 && e.medianAgeMonths <= 15) return 'medium';
  return 'low';
}

/** q when the table has no usable row at all (an empty or partial calibration.json): about the widest calibrated
 *  record/request rows of the real build. Never calibrated: the answer's confidence is forced to low. */
export const UNCALIBRATED_Q = 0.35;

/** Where a half-width came from, most specific first. 'any-mode' (another subject mode's pooled row of the same
 *  tier) and 'default' (UNCALIBRATED_Q) were not calibrated for the subject's mode. */
export type CalibrationBasis = 'source-tier' | 'pooled-tier' | 'source-mode' | 'pooled-mode' | 'any-mode' | 'default';
export interface CalibrationPick { q: number; basis: CalibrationBasis; calibrated: boolean }

/** The half-width (log scale) for a source, mode and tier. Rows need n >= minN; in order: the source's row of the
 *  mode and tier, every source pooled ('*') for the mode and tier, the source's largest row of the mode (any tier),
 *  the pooled largest row of the mode, the pooled largest row of the tier in any mode, else UNCALIBRATED_Q. */
export function calibrationFor(table: CalibrationRow[], source: string, mode: SubjectMode, tier: Tier, minN = 100): CalibrationPick {
  const pick = (src: string, m: SubjectMode | null, t: Tier | null): CalibrationRow | undefined => {
    const rows = table.filter((r) => r.source === src && (m === null || r.mode === m) && (t === null || r.tier === t) && r.n >= minN);
    return rows.sort((a, b) => b.n - a.n)[0];
  };
  const order: [CalibrationBasis, () => CalibrationRow | undefined][] = [
    ['source-tier', () => pick(source, mode, tier)], ['pooled-tier', () => pick('*', mode, tier)],
    ['source-mode', () => pick(source, mode, null)], ['pooled-mode', () => pick('*', mode, null)], ['any-mode', () => pick('*', null, tier)],
  ];
  for (const [basis, f] of order) {
    const row = f();
    if (row) return { q: row.q, basis, calibrated: basis !== 'any-mode' };
  }
  return { q: UNCALIBRATED_Q, basis: 'default', calibrated: false };
}

/** calibrationFor's half-width alone (the back-test summary). */
export function calibratedQ(table: CalibrationRow[], source: string, mode: SubjectMode, tier: Tier, minN = 100): number {
  return calibrationFor(table, source, mode, tier, minN).q;
}

// ---------------------------------------------------------------- fitting (build side, same module)

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
  // months with >= 20 sales get a dummy; the others take the index of their neighbours (interpolated)
  const monthCount = new Map<number, number>();
  for (const i of rows) { const m = idx.month[i]!; monthCount.set(m, (monthCount.get(m) ?? 0) + 1); }
  const months = [...monthCount.entries()].filter(([, c]) => c >= 20).map(([m]) => m).sort((a, b) => a - b);
  const monthCol = new Map(months.map((m, k) => [m, k]));
  // full rows for the slopes (sqft always; beds, baths, year known; quality where the source grades)
  const full = rows.filter((i) => Number.isFinite(idx.beds[i]) && Number.isFinite(idx.baths[i]) && Number.isFinite(idx.year[i]));
  const useChars = full.length >= Math.max(200, rows.length * 0.5);
  // assessor features known on at least 90% of the full rows enter the fit (rows missing one are left out)
  const feats = useChars ? idx.features.filter(([, col]) => full.filter((i) => Number.isFinite(col[i])).length >= full.length * 0.9) : [];
  const fitRows = useChars ? full.filter((i) => feats.every(([, col]) => Number.isFinite(col[i]))) : rows;
  const off = useChars ? 4 + feats.length : 1; // first month column
  const nx = off + Math.max(0, months.length - 1);
  const X: number[][] = [];
  const y: number[] = [];
  const zipOf: number[] = [];
  for (const i of fitRows) {
    const m = idx.month[i]!;
    const row = new Array<number>(nx).fill(0);
    row[0] = idx.logSqft[i]!;
    if (useChars) { row[1] = idx.beds[i]!; row[2] = idx.baths[i]!; row[3] = idx.year[i]!; }
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
  const monthEffect = new Map<number, number>(months.map((m, k) => [m, k === 0 ? 0 : beta[off + k - 1]!]));
  // the index over every month of the range: fitted months, interpolated between them, flat at the ends
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
  return {
    source: d.source, month0: m0, index: index.map((v) => round(v, 5)),
    elasticity: round(clamp(beta[0]!, ...ELASTICITY_BOUNDS), 4),
    beds: round(useChars ? clamp(beta[1]!, -0.08, 0.08) : 0, 4),
    baths: round(useChars ? clamp(beta[2]!, -0.05, 0.12) : 0, 4),
    year: round(useChars ? clamp(beta[3]!, -0.006, 0.006) : 0, 5),
    features: Object.fromEntries(feats.map(([name], k) => {
      const b = TUNING.features[name] ?? { lo: -0.5, hi: 0.5 };
      return [name, round(clamp(beta[4 + k]!, b.lo, b.hi), 4)];
    })),
    fitted_rows: fitRows.length,
  };
}

const round = (v: number, k: number): number => Number(v.toFixed(k));

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
