// environmental_risk_score of the Location risk object (warehouse/docs/location.md "environmental_risk_score"): the
// points of each component, their weights, the re-weighting when a component is unknown, and the note an answer
// carries when the score rests on Superfund proximity alone. Shared by the zip mart and the live point lookup.
import { UNMAPPED, type ZoneClass } from './rules.ts';

/** Flood component of the score, 0-100, by label (FEMA-mapped zone D: 35, undetermined; no map: left out). */
export function floodPoints(c: ZoneClass): number {
  if (c.zone === 'D') return 35;
  switch (c.label) {
    case 'Very High': return 100;
    case 'High': return 80;
    case 'Moderate': return 45;
    case 'Low': return 15;
    case 'Minimal': return 0;
  }
}

/** Superfund component, 0-100: none 0, one site 50, two 75, three or more 100. */
export function superfundPoints(count: number): number {
  return count <= 0 ? 0 : Math.min(100, 50 + 25 * (count - 1));
}

/** Weights of the score's components (warehouse/docs/location.md "environmental_risk_score"). */
export const SCORE_WEIGHTS = { flood: 0.45, superfund: 0.30, nri: 0.25 } as const;

/**
 * environmental_risk_score = round(0.45 x flood + 0.30 x superfund + 0.25 x NRI county risk score). A component
 * without a value is left out and the remaining weights are renormalised (divided by their sum): flood when no
 * flood map covers the place (the no-map D, which says nothing about the hazard), NRI when the county has no
 * score. With neither, the score is the Superfund points alone. Clamped to 0-100.
 */
export function environmentalScore(flood: ZoneClass, superfundCount: number, nriRiskScore: number | null): number {
  const parts: [number, number][] = [[SCORE_WEIGHTS.superfund, superfundPoints(superfundCount)]];
  if (flood.key !== UNMAPPED.key) parts.push([SCORE_WEIGHTS.flood, floodPoints(flood)]);
  if (nriRiskScore != null && Number.isFinite(nriRiskScore)) parts.push([SCORE_WEIGHTS.nri, Math.min(100, Math.max(0, nriRiskScore))]);
  const w = parts.reduce((a, [wt]) => a + wt, 0);
  const raw = parts.reduce((a, [wt, v]) => a + wt * v, 0) / w;
  return Math.min(100, Math.max(0, Math.round(raw)));
}

/**
 * The sentence a flood_risk_notes ends with when the score rests on Superfund proximity alone (no flood map and no
 * NRI county score): the score is then only the Superfund points, and 0 means no NPL site within 1 mile, not low
 * risk. Null when the score has a flood or an NRI component.
 */
export function scoreBasisNote(flood: ZoneClass, nriRiskScore: number | null): string | null {
  if (flood.key !== UNMAPPED.key || (nriRiskScore != null && Number.isFinite(nriRiskScore))) return null;
  return 'The environmental_risk_score rests on Superfund proximity alone: no FEMA flood map and no FEMA National Risk Index county score cover this place, so a low score means only that no counted Superfund (NPL) site lies within 1 mile, not that the environmental risk is low.';
}
