// The towns, cities or zips of a whole state asked ranked by a market figure ("which town in connecticut has the highest
// median price", "which ct town is most expensive"): no ranking across a state is kept, so that is said, with how to
// ask a ranking that is kept (a county's or a city's zips and towns, city-summary.ts, city-years.ts), never the state's
// own median in its place (h67ask: before, Connecticut's statewide median answered "which town", a different question,
// and "which ct town is most expensive" read no topic).
import type { Composed } from './compose.ts';
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';

/** A ranking of a state's places asked: a rank word, then town, city or zip ("which ct town", "most expensive town"). */
const RANKED = /\b(which|what|top|best|cheapest|priciest|most expensive|least expensive|most affordable|highest|lowest)\b[^?]{0,40}?\b(towns?|cities|city|zips?|zip codes?|municipalit(y|ies))\b|\b(towns?|cities|zips?)\b[^?]{0,40}\b(highest|lowest|most|least|cheapest|priciest|fewest)\b/i;
const MARKET = /\b(median|prices?|expensive|cheap\w*|afford\w*|pricey|sales|sold|values?|costs?|market)\b/i;

export function stateRanks(data: ResearchData, u: Understanding): Composed | null {
  if (u.targets.length !== 1 || u.ranking || !u.intents.every((i) => i === 'trends' || i === 'comps')) return null;
  const t = u.targets[0]!;
  if (t.city || t.zip || t.area || t.hood || !RANKED.test(u.query) || !MARKET.test(u.query)) return null;
  const name = data.stateName(t.state) ?? t.state;
  const example = t.state === 'CT' ? '"which town in Fairfield County has the highest median price" (a former county\'s towns)' : '"which zip in King County has the highest median price" or "top 5 zips in Seattle by median price"';
  const answer = `I don't rank the towns, cities or zips of a whole state: no ranking across ${name} is kept, and the state's own median is no answer to which of its places ranks first; rankings are kept within a county or a city, its towns or zips each with its own figure: ask ${example}.`;
  return { answer: u.readAs.length ? `Reading ${u.readAs.join('; ')}: ${answer}` : answer, sources: [], confidence: 'low', facts: [] };
}
