// The Redfin zip tracker snapshots (int_market_redfin_zip: the 2025-05..2025-09 captures of Redfin's latest 90-day row
// per zip) in research answers. The comps take a snapshot's days on market only when it stands for the comps window
// (mart_comps redfin_stands_for); a zip with no sales records at all (Chicago 60614, Cambridge 02139) has no comps
// window, and a days-on-market question of it answers from the zip's latest snapshot, naming Redfin and the month
// (review r16b #18). Prices are never taken from the snapshots: the build does not load them (each zip's row is of
// whichever property type came first in Redfin's file, so its median is no like-for-like sale price), and a price
// question of such a place says so. Wording: warehouse/docs/research.md.
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, plural, type Fact } from './facts.ts';
import type { RedfinRow } from './market-window.ts';
import type { ResearchData } from './data.ts';

/** Why the snapshots give no price, where a price is asked of a place without sales whose zips have snapshots ('' else). */
export function redfinNoPrice(data: ResearchData, t: Target): string {
  const zips = t.zip ? [t.zip] : t.city ? data.cityInState(t.city, t.state)?.zips ?? [] : [];
  const n = zips.filter((z) => data.market?.redfin?.[z]).length;
  if (n === 0) return '';
  return `; the Redfin zip tracker snapshots this build loads${t.zip ? '' : ` (${plural(n, 'zip')} of ${t.city}, ${t.state})`} are used for days on market only, not for prices: Redfin's row for a zip is of whichever property type came first in its file, so its median is no like-for-like sale price`;
}

/** The days-on-market fact of a zip asked that has no comps, from its latest Redfin snapshot; null when days on market
 *  is not asked or the zip has no snapshot. No zip figure: a city's summary never mixes it with comps windows. */
export function redfinDomFact(row: RedfinRow | undefined, u: Understanding, t: Target, zip: string, where: string): Fact | null {
  if (!row || !u.asks.includes('dom')) return null;
  const [month, end, dom, sold, type] = row;
  const start = new Date(`${end}T00:00:00Z`);
  start.setUTCMonth(start.getUTCMonth() - 2, 1); // Redfin's period: the three calendar months to period_end
  const kind = type ? `${type === 'All Residential' ? 'all residential' : type} sales` : 'sales of a property type the snapshot does not record';
  return {
    intent: 'comps', target: t, value: `median ${fmt(dom)} days on market (Redfin ${month})`,
    sentence: `We have no sales records for ${where}, so no days on market of our own; the Redfin zip tracker's ${month} snapshot gives a median ${fmt(dom)} days on market over ${start.toISOString().slice(0, 10)} to ${end} (${kind}${sold === null ? '' : `, ${plural(sold, 'home')} sold`}; data provided by Redfin)`,
    detail: ['Redfin\'s figure for the zip as published, not computed from sales records; a zip\'s row may be of any one residential property type.'],
    source: { type: 'comps', category: 'market', citation: `Redfin Data Center, ZIP Code Market Tracker, snapshot ${month} (period ending ${end}), zip ${zip}` },
    confidence: 'low', primary: true, uncertain: null,
  };
}
