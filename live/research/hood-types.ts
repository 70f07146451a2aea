// A neighbourhood its sales source names with no sale of the type asked by default in its 24 months kept (Tribeca and
// SoHo: condos and co-ops, no one-family house since 2022-02): said, and its sales of another type given, as "how many homes sold" gives a city's
// condo and multi-family sales beside its single-family ones. Before (review 20), "Tribeca median price" was "We have
// no sales of Tribeca" while 559 condo sales were kept. Rules: warehouse/docs/research.md "Neighbourhoods".
import type { ResearchData } from './data.ts';
import { minConf, type Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { windowFigure } from './market-window.ts';
import { salesCountFact, TYPE_WORDS, windowPriceFact } from './sales-facts.ts';

/** A type named in the question ("single-family", "houses"): then that type's answer stays, none other is offered. */
const TYPE_NAMED = /single[- ]family|\bsfrs?\b|\bhouses?\b|\bdetached\b|townho|row ?house/i;

/** `f`, the neighbourhood's single-family figure, when it has one or the question named the type; else its first
 *  other type with sales (condo, then multi-family), said as such. */
export function hoodOtherType(data: ResearchData, u: Understanding, t: Target, where: string, f: Fact): Fact {
  if (f.value !== null || u.propertyType !== 'sfr' || TYPE_NAMED.test(u.query) || windowFigure(data.market, t, 'sfr', 24)) return f;
  for (const type of ['condo', 'multi'] as const) {
    const v = { ...u, propertyType: type, months: u.months ?? 12 };
    const g = u.asks.includes('sales_count') ? salesCountFact(data, v, t, where) : windowPriceFact(data, v, t, where, null);
    if (!g || g.value === null) continue;
    const lower = g.sentence.startsWith('In ') ? `in ${g.sentence.slice(3)}` : g.sentence;
    // the longest window kept for a market is 24 months (market-window.ts): older sales of the type are not said absent
    const asOf = windowFigure(data.market, t, type, 24)?.asOf;
    return { ...g, confidence: minConf(g.confidence, 'medium'), sentence: `We have no single-family sales of ${where} in its latest 24 months${asOf ? ` (to ${asOf})` : ''}, so its ${TYPE_WORDS[type]} sales are given: ${lower}` };
  }
  return f;
}
