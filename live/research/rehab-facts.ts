// The rehab momentum fact of one zip (POST /v1/research/query), read from its rehab-score shard: the score, its label
// and 30-day trend, and, where no permit component is computed (no permit source covers the zip: King County, NYC),
// the shard note's clause saying the score is the rehab resale share alone (review r16b #19); where no sales record
// covers the zip (Chicago, Nashville: permit sources only), that its score and 30-day events are its building permits
// alone, never "rehab resales" that no record could show (review 16 left-over); where its permit and sales records end
// apart (a canonical folder's permits.csv and sales.csv), the months to each one's end (the shard's permits_window and
// sales_window), not one window to as_of; where the zip is a PO-box or unique zip of a permit source's area, the rehab
// 404's words (unaddressed.ts). Wording: warehouse/docs/research.md.
import type { ResearchData, ShardKeys } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, missing, MONTH_TRIES, pct, windowEnd, type Confidence, type Fact } from './facts.ts';
import { RANK, ranks } from './ranks.ts';
import { unaddressedWhy } from './unaddressed.ts';

interface Rehab { zip_code: string; city: string; state: string; rehab_momentum_score: number; label: string; trend: string; trend_pct: number; trend_end?: string; counts?: { trend_last_30d?: number; trend_prior_30d?: number }; confidence: Confidence; as_of: string; note?: string | null;
  coverage?: { window_end: string } | null; permits_window?: { window_end: string } | null; sales_window?: { window_end: string } | null }

/** Whether the build holds no arm's-length sale of a zip (market.json `sources`, else its sales windows): its rehab
 *  score and events are then its building permits alone. */
export function noSalesRecords(data: ResearchData, zip: string): boolean {
  const m = data.market;
  if (!m) return false;
  if (m.sources) return !(`zip|${zip}` in m.sources);
  return !['sfr', 'condo', 'multi', 'land', 'commercial'].some((type) => `zip|${zip}|${type}` in m.windows);
}

/** What a rehab score's 30-day events are, by the records that can show them. */
const EVENTS = { both: 'rehab events (renovation permits and rehab resales)', resales: 'rehab events (rehab resales)', permits: 'rehab permits (residential renovation, addition and repair permits: no sales record covers this zip, so no rehab resales)' };

/** A trend on fewer than 5 events in the 30 days before says the counts it rests on (market.md mart_rehab "Trend"). */
function fewEvents(r: Rehab): string {
  const last = r.counts?.trend_last_30d;
  const prior = r.counts?.trend_prior_30d;
  return last === undefined || prior === undefined || prior >= 5 || last + prior === 0 ? '' : `: ${last} against ${prior}, too few events to read much into`;
}

export async function rehabFact(data: ResearchData, u: Understanding, t: Target, zip: string, primary: boolean): Promise<Fact> {
  const keys = (months: number): ShardKeys => ({ zip, months: String(months) });
  const tries = MONTH_TRIES(u.months, 6);
  for (const months of tries) {
    const r = await data.shard<Rehab>('rehab', keys(months));
    if (!r) continue;
    // no permit component (no permit source covers the zip: King County, NYC): the score's own note says so (r16b #19)
    const resalesOnly = (r.note ?? '').split('; ').find((c) => c.includes('the score is the rehab resale share alone'));
    // no sales record of the zip (Chicago, Nashville): the score and its events are its permits alone
    const permitsOnly = !resalesOnly && noSalesRecords(data, zip);
    // permits whose building use the operator's permits.csv does not record: commercial work may be counted (review 22)
    const useUnrecorded = (r.note ?? '').split('; ').find((c) => c.includes("do not record the building's use"));
    // each measure's own window (market.md mart_rehab "Window"): said apart where they end apart
    const [pw, sw] = [r.permits_window, r.sales_window];
    const over = pw && sw && pw.window_end !== sw.window_end
      ? `over the ${months} months to ${pw.window_end} for its permits and to ${sw.window_end} for its sales (their records end apart)`
      : `over the ${months} months to ${windowEnd(r)}`;
    return {
      ...ranks(u, r.rehab_momentum_score, fmt(r.rehab_momentum_score), RANK.rehab), intent: 'rehab', target: t, value: `${fmt(r.rehab_momentum_score)} (${r.label})`,
      // the trend is its own 30 days to trend_end (the day the zip's sources are complete through, market.md), not the window
      sentence: `Zip ${zip}${r.city ? ` (${r.city}, ${r.state})` : ''} has a rehab momentum score of ${fmt(r.rehab_momentum_score)} out of 100 (${r.label}) ${over}${resalesOnly ? `; ${resalesOnly}` : permitsOnly ? ', from its building permits alone' : ''}; its ${EVENTS[resalesOnly ? 'resales' : permitsOnly ? 'permits' : 'both']} in the 30 days to ${r.trend_end ?? r.as_of} were ${r.trend} (${pct(r.trend_pct)}${fewEvents(r)}) on the 30 days before${useUnrecorded ? `; ${useUnrecorded}` : ''}`,
      detail: [`Rehab score confidence: ${r.confidence} (by the count of the ${permitsOnly ? 'residential rehab permits' : resalesOnly ? "residential arm's-length sales" : "residential rehab permits and residential arm's-length sales"} it is computed from).`],
      source: { type: 'rehab', category: 'market', citation: `reii warehouse: rehab momentum for ${zip}, ${months} months, as of ${r.as_of}` },
      confidence: r.confidence, primary, uncertain: null,
      zip: { zip, measure: r.rehab_momentum_score, group: r.label, months, asOf: r.as_of, resalesOnly: !!resalesOnly, permitsOnly },
    };
  }
  // a PO-box or unique zip in a permit source's area: the rehab 404's words (h27: "no renovation permit data" for 37202,
  // whose county the Nashville source covers)
  const po = data.unaddressed(zip);
  if (po) {
    const { why, ask } = unaddressedWhy(po.unaddressed, po.permits);
    return missing('rehab', t, `We have no rehab momentum score for zip ${zip}: ${why}; ${ask}`);
  }
  return missing('rehab', t, await data.hasFamily('rehab', keys(tries[0]!)) ? `We have no renovation permit data for zip ${zip}` : 'Rehab momentum data is not part of this build');
}
