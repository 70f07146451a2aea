// The neighbourhoods of a New York City borough (or of the city) ranked by their sales ("rank Bronx neighborhoods by
// sales since January", "which neighborhoods in Brooklyn had the most sales", "busiest neighborhoods in Queens"): the
// neighbourhoods the sales source names (hoods.ts), each counted over its own window of months to its latest
// arm's-length sale, every sale of the window (market.json, as zip-windows.ts ranks zips). A neighbourhood's sales are
// kept over its latest 3 to 24 months only, never by calendar month, so a calendar period asked ("since January",
// "in 2023") is said not kept and the window that reaches back to its first month (3 to 24 months) is ranked instead
// (as county-years.ts hoodYearsFact says of one neighbourhood). Before, the first question read no topic ("I don't have
// data that answers this question"), the second answered the borough's total and no neighbourhood. Wording:
// warehouse/docs/research.md "Neighbourhoods".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, plural, type Fact } from './facts.ts';
import { hoodName, type Hood } from './hoods.ts';
import { marketKey, windowFigure, WINDOW_MIN_SALES } from './market-window.ts';
import { TYPE_WORDS } from './sales-facts.ts';
import { topAsked } from './asked.ts';
import { resolveLast } from './periods.ts';

/** A ranking of neighbourhoods by sales asked: a neighbourhoods word beside a sales count (asked.ts SALES_COMPARED:
 *  "most sales", "by sales", "busiest neighborhoods"). */
const HOODS = /\bneighbou?rhoods\b|\bhoods\b/;

/** The city part (borough) a place asked is, as the neighbourhoods name theirs: the Bronx area "Bronx", a borough read
 *  as a city of its own sales ("Queens") itself; '' for New York City as a whole; null for any other place. */
function partOf(data: ResearchData, t: Target): string | null {
  if (t.zip || t.hood || t.state !== 'NY') return null;
  if (t.area) return t.area.name.replace(/^the /i, '');
  if (t.city === 'New York') return '';
  return [...data.hoodsByName.values()].flat().some((h) => h.part === t.city) ? t.city! : null;
}

export function hoodRankAsked(data: ResearchData, u: Understanding, t: Target): boolean {
  return partOf(data, t) !== null && HOODS.test(u.query.toLowerCase()) && u.asks.includes('sales_count');
}

/** A name as the source writes it, in title case ("MORRIS PARK/VAN NEST": "Morris Park/Van Nest"). */
const titled = (written: string): string => written.toLowerCase().replace(/\s*\([^)]*\)\s*$/, '').replace(/(^|[\s/-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

/** The month (YYYY-MM) a calendar period asked starts in, given the data's last month (a month or "since January"
 *  with no year: its latest in the data, periods.ts resolveLast), and the period's words. */
function periodStart(u: Understanding, end: string): { first: string; label: string } | null {
  if (!u.years) return null;
  const y = resolveLast(u.years, end);
  return { first: y.since ?? y.months?.[0] ?? y.month ?? `${y.from}-01`, label: y.label };
}

const monthsFrom = (first: string, last: string): number => (Number(last.slice(0, 4)) - Number(first.slice(0, 4))) * 12 + Number(last.slice(5, 7)) - Number(first.slice(5, 7)) + 1;

/** The neighbourhoods of `t`, one per group of the source's names: a name whose names all lie in another's (East
 *  Harlem in Harlem) is left to the wider one; names of the same sales (Bedford Park, Norwood) are one. */
function hoodsOf(data: ResearchData, t: Target): { hood: Hood; name: string }[] {
  const part = partOf(data, t);
  const all = [...data.hoodsByName.values()].flat().filter((h) => h.state === 'NY' && (!part || h.part === part));
  const set = (h: Hood): string => [...h.names].sort().join('|');
  const within = (a: Hood, b: Hood): boolean => a.names.length < b.names.length && a.names.every((n) => b.names.includes(n));
  const out = new Map<string, { hood: Hood; name: string }>();
  for (const h of all) {
    if (all.some((o) => within(h, o))) continue;
    const k = set(h);
    if (!out.has(k)) out.set(k, { hood: h, name: h.names.length === 1 ? titled(h.names[0]!) : hoodName(h) });
  }
  return [...out.values()];
}

/** The ranking fact of the neighbourhoods of `t` by their sales of the type asked. */
export function hoodRankFact(data: ResearchData, u: Understanding, t: Target): Fact {
  const where = areaName(t), noun = TYPE_WORDS[u.propertyType]!;
  const hoods = hoodsOf(data, t);
  const end = hoods.map((h) => data.market?.windows[`${marketKey({ state: 'NY', hood: h.hood })}|${u.propertyType}`]?.as_of ?? '').reduce((a, b) => (b > a ? b : a), '');
  const none = (why: string): Fact => ({ intent: 'trends', target: t, value: null, sentence: `I can't rank the neighbourhoods of ${where}: ${why}`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null });
  if (!end) return none(`no neighbourhood its sales source names has arm's-length ${noun} sales kept in this build`);
  const period = periodStart(u, end.slice(0, 7));
  const months = Math.min(24, Math.max(3, period ? monthsFrom(period.first, end.slice(0, 7)) : u.months ?? 12));
  const rows: { name: string; sales: number; asOf: string }[] = [];
  let few = 0;
  for (const { hood, name } of hoods) {
    const w = windowFigure(data.market, { state: 'NY', hood: { key: hood.key } }, u.propertyType, months);
    if (!w || w.sales === 0) continue;
    if (w.sales < WINDOW_MIN_SALES) { few++; continue; } // 1-4: never said (minimum cohort)
    rows.push({ name, sales: w.sales, asOf: w.asOf });
  }
  const lead = period ? `${period.label.replace(/^\w/, (c) => c.toUpperCase())} is not kept for a neighbourhood: its own sales are kept over its latest 3 to 24 months only, not by calendar month, so ${where}'s neighbourhoods are ranked over the ${months} months to each one's latest sale instead${monthsFrom(period.first, end.slice(0, 7)) < 3 ? ' (3 months is the shortest window kept)' : ''}. ` : '';
  if (rows.length === 0) return none(`no neighbourhood of it had 5 or more arm's-length ${noun} sales in the ${months} months to its latest sale${few ? ` (${plural(few, 'neighbourhood')} had fewer than 5)` : ''}`);
  const low = /\b(fewest|least|lowest|bottom|fewer|quietest)\b/.test(u.query.toLowerCase());
  rows.sort((a, b) => (low ? a.sales - b.sales : b.sales - a.sales) || a.name.localeCompare(b.name));
  const shown = rows.slice(0, Math.min(rows.length, topAsked(u.query.toLowerCase()) ?? 5));
  const ends = [...new Set(rows.map((r) => r.asOf))].sort();
  const endWords = ends.length === 1 ? ends[0]! : `${ends[0]} to ${ends.at(-1)}`;
  const typeNote = /single[- ]?family|sfr|condo|co-?op|multi|duplex|land|commercial/.test(u.query.toLowerCase()) ? '' : ` (${noun} sales: name condos or multi-family for those)`;
  const list = shown.map((r, i) => `${i + 1}. ${r.name} ${plural(r.sales, 'sale')}`).join('; ');
  const fewWords = few ? `; ${plural(few, 'more neighbourhood')} had 1 to 4 sales in ${few === 1 ? 'its window' : 'their windows'}, too few to be said, so ${few === 1 ? 'it is' : 'they are'} not ranked` : '';
  return {
    intent: 'trends', target: t, value: `${shown[0]!.name} ${plural(shown[0]!.sales, 'sale')}`,
    sentence: `${lead}In ${where}, by arm's-length ${noun} sales in the ${months} months to each neighbourhood's own latest sale (${endWords}), every sale of the window counted${typeNote}, as the sales records name the neighbourhoods (names of one place summed), the ${low ? 'fewest' : 'most'} of ${plural(rows.length, 'neighbourhood')} with 5 or more: ${list}${fewWords}`,
    detail: ['A neighbourhood is one its sales source names for each sale (NYC Department of Finance NEIGHBORHOOD); its window ends at its latest arm\'s-length sale; a count of 1-4 sales is not said (minimum cohort).'],
    source: { type: 'trends', category: 'market', citation: `reii warehouse: arm's-length ${u.propertyType} sales per neighbourhood of ${where}, ${months} months to each one's latest sale (${endWords})` },
    confidence: shown[0]!.sales >= 20 ? 'medium' : 'low', primary: true, uncertain: null,
  };
}
