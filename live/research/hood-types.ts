// A place whose single-family sales of the window are too few for a median while its other kinds of home have enough
// (Tribeca and SoHo: condos and co-ops, no one-family house since 2022-02; Washington Heights: 1 single-family sale
// in 12 months beside ~186 condo sales; zip 10023): said, with the single-family count, and each other kind that has
// 5 or more sales given apart with its kind and count, never mixed into one median. Before (review 20), "Tribeca
// median price" was "We have no sales of Tribeca" while 559 condo sales were kept; before review 21, a neighbourhood or
// zip with 1-4 single-family sales answered only "too few". Rules: warehouse/docs/research.md "Neighbourhoods".
import type { ResearchData } from './data.ts';
import { minConf, plural, type Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { windowFigure, WINDOW_MIN_SALES } from './market-window.ts';
import { salesCountFact, TYPE_WORDS, windowPriceFact } from './sales-facts.ts';

/** A type named in the question ("single-family", "houses"): then that type's answer stays, none other is offered. */
const TYPE_NAMED = /single[- ]family|\bsfrs?\b|\bhouses?\b|\bdetached\b|townho|row ?house/i;

const lowerFirst = (s: string): string => (s.startsWith('In ') ? `in ${s.slice(3)}` : s);

/** `f`, the place's single-family figure, when its window holds 5 or more single-family sales or the question named
 *  a type; else the other kinds (condo, multi-family) with 5 or more sales in the window, each with its own median
 *  and count, after the single-family count. A count asked keeps its single-family count unless the place has no
 *  single-family sale in its 24 months kept (then its first other kind's count). `f` when no other kind has enough. */
export function hoodOtherType(data: ResearchData, u: Understanding, t: Target, where: string, f: Fact): Fact {
  if (u.propertyType !== 'sfr' || TYPE_NAMED.test(u.query)) return f;
  const months = u.months ?? 12;
  // the longest window kept for a market is 24 months (market-window.ts): older sales of the type are not said absent
  const none = !windowFigure(data.market, t, 'sfr', 24);
  const sfr = windowFigure(data.market, t, 'sfr', months);
  const counted = u.asks.includes('sales_count');
  // a figure `f` gives (a price: "$"), from a longer pool or an older month, stays: only a "too few" or none is replaced
  // places compared keep their single-family figures (a condo median would rank against another's single-family one),
  // unless the place has none in 24 months (review 20's rule)
  if (counted || u.targets.length > 1 ? !none : (sfr?.sales ?? 0) >= WINDOW_MIN_SALES || (f.value ?? '').includes('$')) return f;
  const given: { type: 'condo' | 'multi'; g: Fact; sales: number }[] = [];
  for (const type of ['condo', 'multi'] as const) {
    const v = { ...u, propertyType: type, months };
    const w = windowFigure(data.market, t, type, months);
    const g = counted ? salesCountFact(data, v, t, where) : windowPriceFact(data, v, t, where, null);
    if (!g || g.value === null || !w || (counted ? w.sales === 0 : w.median === null)) continue;
    given.push({ type, g, sales: w.sales });
    if (counted) break;
  }
  if (!given.length) return f;
  const asOf = windowFigure(data.market, t, given[0]!.type, 24)?.asOf;
  // the single-family count first, in the words of its own window answer ("only 1 ... sale fell in the 12 months to")
  const few = none || !sfr ? null : windowPriceFact(data, { ...u, months }, t, where, null);
  const lead = few ? few.sentence : `We have no single-family sales of ${where} in its latest 24 months${asOf ? ` (to ${asOf})` : ''}`;
  const kinds = given.map((k) => TYPE_WORDS[k.type]).join(' and ');
  const [first] = given;
  return {
    ...first!.g,
    value: given.length === 1 ? first!.g.value : given.map((k) => `${TYPE_WORDS[k.type]} ${k.g.value}`).join('; '),
    confidence: given.reduce((c, k) => minConf(c, k.g.confidence), 'medium' as Fact['confidence']),
    sentence: `${lead}, so its ${kinds} sales are given${given.length > 1 ? `, each kind apart (${given.map((k) => plural(k.sales, `${TYPE_WORDS[k.type]} sale`)).join(', ')})` : ''}: ${given.map((k, i) => (i === 0 ? lowerFirst(k.g.sentence) : k.g.sentence.replace(`In ${where}, `, ''))).join('; ')}`,
    source: given.length === 1 ? first!.g.source : { ...first!.g.source!, citation: first!.g.source!.citation.replace(`${TYPE_WORDS[first!.type]} sales`, `${kinds} sales (each apart)`) },
  };
}
