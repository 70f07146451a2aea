// The Redfin zip tracker snapshots in research answers: one index file (redfin.json, redfin-index.ts: every snapshot
// with a median days on market of every zip of the 2025-05..2025-09 captures, ../shared/data/redfin-zip-market-snapshots/
// SOURCE.md; written by redfin-build.ts) serves the two questions the sales records cannot answer, as they carry no
// listing dates and the comps take a snapshot only when its 90 days stand for the comps window (dom-facts.ts):
// - days on market of a zip with no sales records at all (Chicago 60614, Cambridge 02139; review r16b #18): its latest
//   snapshot (by period end, then capture), or that of the month asked, naming Redfin and the capture month;
// - days on market of a zip for a month (or year) past its sales' last month ("days on market in 98103 in August 2025";
//   review 16 #4): the snapshot whose period ends in that month, the 90 days and month it is from, its type and homes
//   sold said (under 5 homes sold said); a month no snapshot ends in names the months they do.
// Prices are never taken from the snapshots: the build does not load them (each zip's row is of whichever property type
// came first in Redfin's file, so its median is no like-for-like sale price), and a price question of such a place says
// so. Wording: warehouse/docs/research.md "Days on market from Redfin".
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, plural, type Fact } from './facts.ts';
import type { RedfinSnap } from './market-window.ts';
import type { RedfinIndex } from './redfin-index.ts';
import type { ResearchData } from './data.ts';

/** Why the snapshots give no price, where a price is asked of a place without sales whose zips have snapshots ('' else). */
export function redfinNoPrice(data: ResearchData, t: Target): string {
  const zips = t.zip ? [t.zip] : t.city ? data.cityInState(t.city, t.state)?.zips ?? [] : [];
  const n = zips.filter((z) => data.redfin.has(z)).length;
  if (n === 0) return '';
  return `; the Redfin zip tracker snapshots this build loads${t.zip ? '' : ` (${plural(n, 'zip')} of ${t.city}, ${t.state})`} are used for days on market only, not for prices: Redfin's row for a zip is of whichever property type came first in its file, so its median is no like-for-like sale price`;
}

/** The days-on-market fact of a zip asked that has no sales records at all, from its latest Redfin snapshot; null when
 *  days on market is not asked or the zip has no snapshot. No zip figure: a city's summary never mixes it with comps
 *  windows. */
export function redfinLatestFact(snaps: RedfinSnap[] | undefined, u: Understanding, t: Target, zip: string, where: string): Fact | null {
  // a month or year asked: its snapshot (none: no Redfin answer), else the latest
  const row = u.years ? snapshotOf(snaps ?? [], u.years) : snaps?.at(-1);
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

/** The snapshot whose period ends in the month asked (or the latest ending in the years asked); of two captures of one
 *  period end, the later. */
export function snapshotOf(snaps: RedfinSnap[], y: NonNullable<Understanding['years']>): RedfinSnap | undefined {
  const asked = y.month ?? y.months?.[1] ?? null;
  return [...snaps].reverse().find((s) => (asked ? s[1].slice(0, 7) === asked : Number(s[1].slice(0, 4)) >= y.from && (y.to === null || Number(s[1].slice(0, 4)) <= y.to)));
}

/** The days-on-market fact of a zip asked for a month (or year) after its comps' window, from Redfin; null when not
 *  asked so, or the zip has no snapshot. `salesEnd`: the sales' last day (the comps' as_of). */
function pastSalesFact(u: Understanding, zip: string, where: string, salesEnd: string, snaps: RedfinSnap[] | undefined, base: Fact): Fact | null {
  const y = u.years;
  if (!u.asks.includes('dom') || !y || !snaps?.length) return null;
  const asked = y.month ?? y.months?.[1] ?? null;
  if ((asked ?? `${y.to ?? y.from}-12`) <= salesEnd.slice(0, 7)) return null;
  const hit = snapshotOf(snaps, y);
  const months = [...new Set(snaps.map((s) => s[1].slice(0, 7)))];
  const sales = `the sales records of ${where} end ${salesEnd.slice(0, 7)} and carry no listing dates`;
  if (!hit) {
    return { ...base, value: 'no days on market', sentence: `${where[0]!.toUpperCase()}${where.slice(1)} has no days-on-market figure for ${y.label}: ${sales}, and the Redfin zip tracker snapshots we keep end in ${months.join(', ')}`, confidence: 'low', ranks: undefined };
  }
  const [, end, dom, sold, type] = hit;
  const few = sold !== null && sold < 5 ? `; only ${plural(sold, 'home')} sold, too few to stand for the zip (the comps need 5)` : '';
  return {
    ...base, value: `median ${dom} days on market (Redfin, 90 days to ${end})`,
    sentence: `For ${y.label}, the figure is Redfin's, not the sales records' (${sales}): the Redfin zip tracker gives ${where} a median ${plural(dom, 'day')} on market over the 90 days to ${end} (so from ${end.slice(0, 7)} and the two months before it; ${type ? `${type} sales` : 'its property type not recorded'}${sold !== null ? `, ${plural(sold, 'home')} sold` : ''})${few}`,
    source: { type: 'redfin', category: 'market', citation: `Redfin zip market tracker (redfin.com/news/data-center), zip ${zip}, 90 days to ${end}` },
    confidence: 'low', ranks: undefined,
  };
}

/** A zip's comps facts with the Redfin figure in place of the comps' when days on market is asked past the sales. */
export function withRedfinDom(redfin: RedfinIndex, u: Understanding, t: { zip?: string }, intent: string, facts: Fact[]): Fact[] {
  if (intent !== 'comps' || !t.zip) return facts;
  return facts.map((f) => {
    if (!f.zip || f.zip.zip !== t.zip) return f;
    const city = /^In (zip \d{5}(?: \([^)]*\))?)/.exec(f.sentence)?.[1] ?? `zip ${t.zip}`;
    return pastSalesFact(u, t.zip, city, f.zip.asOf, redfin.snapshots(t.zip), f) ?? f;
  });
}
