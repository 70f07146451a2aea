// The rehab momentum fact of one zip (POST /v1/research/query), read from its rehab-score shard: the score, its label
// and 30-day trend, and, where no permit component is computed (no permit source covers the zip: King County, NYC),
// the shard note's clause saying the score is the rehab resale share alone (review r16b #19). Wording:
// warehouse/docs/research.md.
import type { ResearchData, ShardKeys } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, missing, MONTH_TRIES, pct, type Confidence, type Fact } from './facts.ts';
import { RANK, ranks } from './ranks.ts';

interface Rehab { zip_code: string; city: string; state: string; rehab_momentum_score: number; label: string; trend: string; trend_pct: number; trend_end?: string; confidence: Confidence; as_of: string; note?: string | null }

export async function rehabFact(data: ResearchData, u: Understanding, t: Target, zip: string, primary: boolean): Promise<Fact> {
  const keys = (months: number): ShardKeys => ({ zip, months: String(months) });
  const tries = MONTH_TRIES(u.months, 6);
  for (const months of tries) {
    const r = await data.shard<Rehab>('rehab', keys(months));
    if (!r) continue;
    // no permit component (no permit source covers the zip: King County, NYC): the score's own note says so (r16b #19)
    const resalesOnly = (r.note ?? '').split('; ').find((c) => c.includes('the score is the rehab resale share alone'));
    return {
      ...ranks(u, r.rehab_momentum_score, fmt(r.rehab_momentum_score), RANK.rehab), intent: 'rehab', target: t, value: `${fmt(r.rehab_momentum_score)} (${r.label})`,
      // the trend is its own 30 days to trend_end (the day the zip's sources are complete through, market.md), not the window
      sentence: `Zip ${zip}${r.city ? ` (${r.city}, ${r.state})` : ''} has a rehab momentum score of ${fmt(r.rehab_momentum_score)} out of 100 (${r.label}) over the ${months} months to ${r.as_of}${resalesOnly ? `; ${resalesOnly}` : ''}; its rehab events (${resalesOnly ? 'rehab resales' : 'renovation permits and rehab resales'}) in the 30 days to ${r.trend_end ?? r.as_of} were ${r.trend} (${pct(r.trend_pct)}) on the 30 days before`,
      detail: [`Rehab score confidence: ${r.confidence} (by the count of the rehab permits and sales it is computed from).`],
      source: { type: 'rehab', category: 'market', citation: `reii warehouse: rehab momentum for ${zip}, ${months} months, as of ${r.as_of}` },
      confidence: r.confidence, primary, uncertain: null,
      zip: { zip, measure: r.rehab_momentum_score, group: r.label, months, asOf: r.as_of, resalesOnly: !!resalesOnly },
    };
  }
  return missing('rehab', t, await data.hasFamily('rehab', keys(tries[0]!)) ? `We have no renovation permit data for zip ${zip}` : 'Rehab momentum data is not part of this build');
}
