// A count of New York City co-op sales asked ("how many co-op sales in manhattan in 2024", "co-ops sold in 10025"):
// co-ops are no property type of the figures (market.md "Co-ops": shares in a cooperative, building classes 09, 10 and
// 17), so no co-op price is given, but the research index counts their arm's-length sales over each window of 3-24
// months to the market's latest sale (market.json `windows`, `<market>|coop`, build.ts), and that count is said with
// why no price is (h67ask: before, the question got the condo count, with a reading that co-ops are left out).
// A calendar period is not kept for co-ops: said, with the window of the months asked or the latest 3 (the shortest).
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import type { Composed } from './compose.ts';
import { placeName, type Depth } from './facts.ts';
import { salesSaid, windowFigure } from './market-window.ts';
import { windowMonths } from './sales-facts.ts';
import { windowGap } from './window-gaps.ts';
import { windowStart } from './permit-counts.ts';

const COOP = /\bco-?ops?\b|\bcooperatives?\b|\bco-?operative (apartments?|buildings?)\b/i;
/** A price word: a co-op price asked is the condo reading's (type-words.ts), not a count. */
const PRICE = /\b(median|prices?|pric(ed|ing)|cost|values?|worth|expensive|cheap\w*|afford\w*|per (sq|square)|sqft|\$)/i;
const COUNT = /\bhow many\b|\bnumber of\b|\bcount\b|\bsales\b|\bsold\b|\bvolume\b/i;

/** The market of a co-op count: a zip, a neighbourhood, or a borough's own (a borough is a city market of its own sales). */
const coopMarket = (t: Target): Target => (t.area && !t.zip && !t.hood ? { state: t.state, city: t.area.name.replace(/^the /, ''), from: t.from } : t);

export function coopCount(data: ResearchData, u: Understanding, depth: Depth): Composed | null {
  const q = u.query;
  if (!COOP.test(q) || !COUNT.test(q) || PRICE.test(q) || u.targets.length !== 1) return null;
  const t = u.targets[0]!;
  const m = coopMarket(t);
  const asked = u.months !== null && u.months >= 3 && u.months <= 24 ? u.months : null;
  const months = asked ?? (u.years ? 3 : 12);
  const w = windowFigure(data.market, m, 'coop', months);
  const where = placeName(data, t);
  if (!w) return t.state === 'NY' ? null : { answer: `We have no co-op sales for ${where}: co-ops are typed apart only in New York City's sales (NYC DOF rolling sales, building classes 09, 10 and 17); no other sales source here records co-ops.`, sources: [], confidence: 'low', facts: [] };
  const from = windowStart(w.asOf, months);
  const gap = windowGap(data, m, windowMonths(w.asOf, months), w.asOf);
  const period = u.years ? `Co-op sales are counted over windows of 3 to 24 months to the latest sale, not by calendar year or month, so none is kept for ${u.years.label} alone; ` : '';
  const lead = `${period}${u.years ? 'in' : 'In'} ${where}, there were ${salesSaid(w.sales, "arm's-length co-op sale")} in the ${months} months to ${w.asOf} (${from} to ${w.asOf})${gap}`;
  const why = 'No co-op price or other co-op figure is given: a co-op sale is of shares in a cooperative, with no deed (New York City building classes 09, 10 and 17), and no property type of the figures here covers co-ops; the condo figures are condominiums only';
  const citation = `reii warehouse: arm's-length co-op sales of ${where}, ${months} months to ${w.asOf}`;
  const read = u.readAs.filter((r) => !/co-?op/i.test(r));
  const answer = `${read.length ? `Reading ${read.join('; ')}: ` : ''}${lead}. ${why}.`;
  return { answer: depth === 'deep' ? `${answer}\n\nSources: ${citation}` : answer, sources: [{ type: 'sales', category: 'market', citation }], confidence: w.sales >= 50 ? 'high' : 'medium', facts: [] };
}
