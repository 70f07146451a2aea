// Investment questions (h67ask). A place asked whether it is a good place to invest, or how its market is ("is
// nashville a good place to invest"), whose permits the build holds: its permit count of the latest 12 months is given
// beside what the sales and investor figures say (before, Nashville's answer said only that it has no sales and no
// investor data, not that its building permit applications are here; the count is permit-counts.ts's, as "how many
// permits in Nashville" gives it). And "the best zips in King County for investors": read as the place's market
// overview (intent.ts MARKET_OVERVIEW; before, no topic was read), with what "best" cannot mean here said.
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import { slug } from '../../warehouse/layout.ts';

/** An overview's or an investment question's place with permit counts: the rehab topic and a permit count asked too. */
export function permitsBeside(data: ResearchData, u: Understanding): void {
  if (!u.intents.includes('trends') || !u.intents.includes('investor') || u.intents.includes('rehab') || u.targets.length !== 1) return;
  const t = u.targets[0]!;
  const key = t.zip ? `zip|${t.zip}` : t.city && !t.area ? `city|${t.state}|${slug(t.city)}` : null;
  if (!key || !data.market?.permit_counts?.[key]) return;
  u.intents.unshift('rehab'); // first: a quick answer's two sentences are its count and the sales' (or their absence)
  if (!u.asks.includes('permit_count')) u.asks.push('permit_count');
}

/** "best", "top" places for investors: a ranking no figure here makes. */
const BEST = /\b(best|top|good|great)\b[^?]{0,40}\bfor (?:real estate |property |rental )?(investors?|investing|investments?)\b/i;

/** The best states for investors asked: no figure ranks states so; the state facts investors weigh named instead
 *  (before, "best states for investors" answered a tax sale rule's "name a state", and then the cities' investor shares). */
export const BEST_STATES = 'No figure here ranks states for investors (that rests on your own strategy and costs, and rents, yields and cap rates are not recorded); the state facts kept that investors weigh can each be ranked or listed: landlord friendliness ("most landlord-friendly states"), the foreclosure process ("judicial foreclosure states") and tax sales ("tax lien states", "which states have the longest redemption period")';

/** The gap said where the best places for investors are asked: no figure ranks places so; what is given instead.
 *  Returns the states' answer where states are asked with no place. */
export function bestAsked(u: Understanding): string | null {
  const m = BEST.exec(u.query);
  if (!m || !u.intents.includes('trends') || !/\b(best|top)\b/i.test(m[0])) return null;
  if (!u.targets.length && /\bstates?\b/i.test(u.query)) return BEST_STATES;
  u.gaps.unshift(`No figure here ranks places as "${m[1]!.toLowerCase()}" for investors (that rests on your own strategy and costs, and rents, yields and cap rates are not recorded): the figures given are those we keep (sale prices, and investor activity where the sales records name buyers), for you to weigh`);
  return null;
}
