// Days on market asked of a zip for a month past its sales' last month ("days on market in 98103 in August 2025"): the
// sales records carry no listing dates and the comps use a Redfin zip snapshot only when its 90 days lie inside the
// comps window (dom-facts.ts), so a month after the sales end had no figure, said as the sales records' lack. The Redfin
// snapshots (2025-05..2025-09 captures, ../shared/data/redfin-zip-market-snapshots/SOURCE.md) give a zip's median days
// on market for the 90 days to a period end: a month asked that a snapshot's period ends in is answered with it, the
// month and 90 days it is from, its type and homes sold said (a Redfin figure, not the sales records'; under 5 homes
// sold said); a month no snapshot ends in names the months they do. Index: market.json `redfin_dom` (redfin-dom-build.ts).
// Rules: warehouse/docs/research.md "Days on market past the sales".
import type { Understanding } from './intent.ts';
import type { Fact } from './facts.ts';
import { plural } from './facts.ts';
import type { RedfinDom } from './market-window.ts';


/** The days-on-market fact of a zip asked for a month (or year) after its comps' window, from Redfin; null when not
 *  asked so, or the zip has no snapshot. `salesEnd`: the sales' last day (the comps' as_of). */
export function redfinDomFact(u: Understanding, zip: string, where: string, salesEnd: string, snaps: RedfinDom[string] | undefined, base: Fact): Fact | null {
  const y = u.years;
  if (!u.asks.includes('dom') || !y || !snaps?.length) return null;
  const asked = y.month ?? y.months?.[1] ?? null;
  if ((asked ?? `${y.to ?? y.from}-12`) <= salesEnd.slice(0, 7)) return null;
  const hit = asked ? snaps.find((s) => s[0].slice(0, 7) === asked) : [...snaps].reverse().find((s) => Number(s[0].slice(0, 4)) >= y.from && (y.to === null || Number(s[0].slice(0, 4)) <= y.to));
  const months = snaps.map((s) => s[0].slice(0, 7));
  const sales = `the sales records of ${where} end ${salesEnd.slice(0, 7)} and carry no listing dates`;
  if (!hit) {
    return { ...base, value: 'no days on market', sentence: `${where[0]!.toUpperCase()}${where.slice(1)} has no days-on-market figure for ${y.label}: ${sales}, and the Redfin zip tracker snapshots we keep end in ${months.join(', ')}`, confidence: 'low', ranks: undefined };
  }
  const [end, dom, sold, type] = hit;
  const few = sold !== null && sold < 5 ? `; only ${plural(sold, 'home')} sold, too few to stand for the zip (the comps need 5)` : '';
  return {
    ...base, value: `median ${dom} days on market (Redfin, 90 days to ${end})`,
    sentence: `For ${y.label}, the figure is Redfin's, not the sales records' (${sales}): the Redfin zip tracker gives ${where} a median ${plural(dom, 'day')} on market over the 90 days to ${end} (so from ${end.slice(0, 7)} and the two months before it; ${type ? `${type} sales` : 'its property type not recorded'}${sold !== null ? `, ${plural(sold, 'home')} sold` : ''})${few}`,
    source: { type: 'redfin', category: 'market', citation: `Redfin zip market tracker (redfin.com/news/data-center), zip ${zip}, 90 days to ${end}` },
    confidence: 'low', ranks: undefined,
  };
}

/** A zip's comps facts with the Redfin figure in place of the comps' when days on market is asked past the sales. */
export function withRedfinDom(redfin: RedfinDom | undefined, u: Understanding, t: { zip?: string }, intent: string, facts: Fact[]): Fact[] {
  if (intent !== 'comps' || !t.zip || !redfin) return facts;
  return facts.map((f) => {
    if (!f.zip || f.zip.zip !== t.zip) return f;
    const city = /^In (zip \d{5}(?: \([^)]*\))?)/.exec(f.sentence)?.[1] ?? `zip ${t.zip}`;
    return redfinDomFact(u, t.zip, city, f.zip.asOf, redfin[t.zip], f) ?? f;
  });
}
