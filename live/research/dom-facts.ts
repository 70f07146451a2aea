// Days on market asked of a city, borough or county (POST /v1/research/query: "how fast are homes selling in Denver"):
// the public sales files record no listing date, and the build's only other source of days on market, the Redfin zip
// snapshots, stands for a zip's comps window only by the comps' rule (mart_comps redfin_stands_for: its 90 days inside the
// window, its type this one or all residential, 5 or more homes sold; warehouse/docs/market.md "Days on market /
// list-to-sale"). When no zip of the place has the figure, the answer says so first and gives what the records
// do show about the pace of sales: how many sold over the last 12 months of its data (warehouse/docs/research.md).
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, fmt, plural, type Fact } from './facts.ts';
import { ownMarket, salesCountFact } from './sales-facts.ts';
import { windowFigure } from './market-window.ts';
import { SPEED_RANK } from './asked.ts';
import { redfinPlaceFact } from './redfin-city.ts';

/** The days-on-market fact of a place whose zips' comps facts are `facts` (each zip's `dom`, city-summary.ts); null when
 *  days on market is not asked. */
export async function domFact(data: ResearchData, u: Understanding, t: Target, facts: readonly Fact[]): Promise<Fact | null> {
  if (!u.asks.includes('dom') || t.zip) return null;
  const place = areaName(t);
  const withDom = facts.filter((f) => f.zip?.dom != null).sort((a, b) => a.zip!.dom! - b.zip!.dom! || a.zip!.zip.localeCompare(b.zip!.zip));
  // which zip sells fastest (slowest): the lowest (highest) median days on market of the zips that have one
  const speed = SPEED_RANK.exec(u.query.toLowerCase())?.[1] ?? null;
  if (withDom.length) {
    const doms = withDom.map((f) => f.zip!.dom!);
    const range = doms[0] === doms.at(-1) ? `${fmt(doms[0]!)} days` : `${fmt(doms[0]!)} to ${fmt(doms.at(-1)!)} days`;
    const end = speed && withDom.length > 1 ? (/slow/.test(speed) ? withDom.at(-1)! : withDom[0]!) : null;
    const ranked = end ? `; of these, homes sell ${/slow/.test(speed!) ? 'slowest' : 'fastest'} in zip ${end.zip!.zip} (median ${fmt(end.zip!.dom!)} days on market)` : '';
    return {
      intent: 'comps', target: t, value: `median days on market ${range} (${plural(withDom.length, 'zip')})`,
      sentence: `Days on market is known for ${plural(withDom.length, 'zip')} of ${place} only (${withDom.map((f) => `zip ${f.zip!.zip}`).join(', ')}: median ${range}, from Redfin zip snapshots of a 90-day period inside each zip's sales window)${ranked}; the sales records carry no listing dates`,
      detail: [], source: withDom[0]!.source, confidence: 'low', primary: true, uncertain: null,
    };
  }
  // a place with no sales records, or a month past its sales: its zips' Redfin snapshots, never one figure (redfin-city.ts)
  const redfin = redfinPlaceFact(data, u, t, place, speed);
  if (redfin) return redfin;
  // the pace of sales instead: the place's own market (a borough's where the build keeps one), 12 months
  const counted = { ...u, months: 12, asks: [...u.asks, 'sales_count' as const] };
  const own = await ownMarket(t, (city) => windowFigure(data.market, { state: t.state, city }, u.propertyType, 12));
  const count = own.city ? salesCountFact(data, counted, own, own === t ? place : `${own.city}, ${own.state}`) : null;
  const lead = `${place} has no days-on-market figure${speed ? ', so none of its zips can be ranked by how fast homes sell' : ''}: none of its sales records carries a listing date, and the Redfin zip snapshots (the build's only other source of days on market) give none for its sales windows (a snapshot stands for a zip's window only when its 90 days lie inside the window, its type is the one asked or all residential, and 5 or more homes sold)`;
  const instead = count && count.source ? `; what the records show of the pace of sales instead: ${count.sentence}` : '';
  return {
    intent: 'comps', target: t, value: 'no days on market', sentence: `${lead}${instead}`,
    detail: count?.detail ?? [], source: count?.source ?? null, confidence: count?.source ? count.confidence : 'low', primary: true, uncertain: null,
  };
}

/** A comps answer's days on market (pipelines/shards/comps.sql): the median, where it comes from, and the Redfin zip
 *  tracker period when it is Redfin's. */
export interface CompsDom {
  median: number | null; source?: 'sales' | 'redfin' | null;
  redfin?: { property_type: string; period_start: string; period_end: string; homes_sold: number } | null;
}

/** Where a comps answer's days on market comes from, when it is Redfin's: its tracker period, type and homes sold (the
 *  comps' rule, mart_comps redfin_stands_for: 90 days inside the window, 5 or more homes sold); '' otherwise. */
export function domFrom(c: { days_on_market: CompsDom }): string {
  const r = c.days_on_market.redfin;
  if (c.days_on_market.source !== 'redfin' || !r) return '';
  const type = r.property_type === 'All Residential' ? 'all residential' : r.property_type;
  return ` (Redfin zip tracker, ${type} sales of ${r.period_start} to ${r.period_end}, ${plural(r.homes_sold, 'home')} sold)`;
}
