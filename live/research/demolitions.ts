// Demolition permits asked of Chicago ("demolition permits in Chicago"): the build keeps Chicago's demolition permits
// counted per community area only (the research index's places.json `permit_areas`, permit-areas-build.ts: the permits
// file names each permit's area), never per zip nor as a rehab figure (a zip's rehab momentum counts renovation, repair
// and addition permits, not demolitions). Said so, with the areas' counts; before (review 19), the question got the
// zips' rehab scores. Rules: warehouse/docs/research.md "Chicago community areas".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { plural, type Fact } from './facts.ts';

export const DEMOLITION = /\bdemoli\w*|\bwrecking\b|\btear[- ]?downs?\b/;
/** How many areas the answer names. */
const NAMED = 5;

/** The demolition permits of Chicago (or a zip of it) by community area, when asked; null when not asked of Chicago. */
export function demolitionFact(data: ResearchData, u: Understanding, t: Target): Fact | null {
  const city = t.zip ? data.zips.get(t.zip)?.city : t.city;
  if (!DEMOLITION.test(u.query.toLowerCase()) || t.state !== 'IL' || city !== 'Chicago') return null;
  const areas = data.permitAreas.filter((a) => a[2] === 'Chicago');
  if (!areas.length) return null;
  const top = [...areas].sort((a, b) => b[7] - a[7] || a[0].localeCompare(b[0])).slice(0, NAMED);
  const total = areas.reduce((s, a) => s + a[7], 0);
  const asOf = areas[0]![3];
  const zip = t.zip ? `, so none is kept for zip ${t.zip}` : '';
  return {
    intent: 'rehab', target: t, value: `${plural(total, 'demolition permit')} in ${plural(areas.length, 'community area')} (12 months to ${asOf})`,
    sentence: `Chicago's demolition permits are kept per community area only (the permits file names each permit's area; no demolition count is kept per zip${zip}, and the rehab scores count renovation, repair and addition permits, not demolitions): ${plural(total, 'demolition permit')} were issued across its ${areas.length} community areas in the 12 months to ${asOf}, the most in ${top.map((a) => `${a[0]} (${a[7]})`).join(', ')}; ask of an area ("permits in Roseland") for its own`,
    detail: ['Wrecking/demolition permits of the Chicago building permits file, cancelled, revoked and repeated permits left out, by the community area the file names.'],
    source: { type: 'permits', category: 'market', citation: `reii warehouse: Chicago building permits by community area, 12 months to ${asOf}` },
    confidence: 'medium', primary: true, uncertain: null,
  };
}
