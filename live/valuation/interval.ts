// The estimate's confidence and interval (pure, no I/O): the confidence tier rule, the split-conformal quantile and the
// lookup of the calibration table (calibration.json: q per source, subject mode and tier). warehouse/docs/valuation.md
// "Confidence" and "Interval: split-conformal calibration".
import type { Estimate, SubjectMode, Tier } from './types.ts';

export const COVERAGE = 0.8;

/** The conformal calibration table: the COVERAGE quantile of |log(actual / estimate)| per source, mode and tier. */
export interface CalibrationRow {
  source: string; // a source id or '*' (all sources pooled)
  mode: SubjectMode;
  tier: Tier;
  n: number;
  q: number;
}

/** The split-conformal quantile: the ceil((n + 1) * level)-th smallest score (capped at the largest). */
export function conformalQuantile(scores: number[], level = COVERAGE): number {
  if (scores.length === 0) return NaN;
  const s = [...scores].sort((a, b) => a - b);
  const k = Math.min(s.length, Math.ceil((s.length + 1) * level));
  return s[k - 1]!;
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
