// The one rule for a comparison's winner (POST /v1/research/query): every figure a comparison can rank (a median sale
// price, a sales count, price per sqft, days on market, a price change, a rehab score, an investor share, a distressed
// count, an environmental risk score, a landlord friendliness or legal risk score) carries `ranks`, made here from the
// direction the question asks (Understanding.direction, read once in intent.ts: "cheapest", "fewer", "lowest" ask the
// low end; "most expensive", "more", "highest", or no such word, the high end). compose.ts `verdict` reads them and
// names the winner with its figure. Wording: warehouse/docs/research.md "Answers" (comparisons).
import type { Fact } from './facts.ts';
import type { Understanding } from './intent.ts';

/** What the place at each end is: [two places, three or more] ("is the cheaper", "is the cheapest"). */
export interface RankWords { high: readonly [string, string]; low: readonly [string, string] }

const words = (high: [string, string], low: [string, string]): RankWords => ({ high, low });

/** The words of each figure compared. */
export const RANK = {
  price: words(['is the more expensive', 'is the most expensive'], ['is the cheaper', 'is the cheapest']),
  ppsf: words(['is the more expensive per sqft', 'is the most expensive per sqft'], ['is the cheaper per sqft', 'is the cheapest per sqft']),
  sales: words(['has more sales', 'has the most sales'], ['has fewer sales', 'has the fewest sales']),
  dom: words(['has the longer median days on market', 'has the longest median days on market'], ['has the shorter median days on market', 'has the shortest median days on market']),
  change: words(['has the higher price change', 'has the highest price change'], ['has the lower price change', 'has the lowest price change']),
  rehab: words(['has the higher rehab momentum', 'has the highest rehab momentum'], ['has the lower rehab momentum', 'has the lowest rehab momentum']),
  investor: words(['has the higher investor share', 'has the highest investor share'], ['has the lower investor share', 'has the lowest investor share']),
  distress: words(['has more distressed properties', 'has the most distressed properties'], ['has fewer distressed properties', 'has the fewest distressed properties']),
  envRisk: words(['has the higher environmental risk score', 'has the highest environmental risk score'], ['has the lower environmental risk score', 'has the lowest environmental risk score']),
  friendliness: words(['is the more landlord-friendly', 'is the most landlord-friendly'], ['is the less landlord-friendly', 'is the least landlord-friendly']),
  legalRisk: words(['carries the higher legal risk for a landlord', 'carries the highest legal risk for a landlord'], ['carries the lower legal risk for a landlord', 'carries the lowest legal risk for a landlord']),
} as const;

/** A figure's rank in a comparison (two or more places asked; else nothing): its score signed so that the place the
 *  question asks for scores highest, the figure as shown, and the words for the winner and for places tied at the top. */
export function ranks(u: Pick<Understanding, 'targets' | 'direction'>, value: number, shown: string, w: RankWords): Pick<Fact, 'ranks'> {
  if (u.targets.length < 2 || !Number.isFinite(value)) return {};
  const low = u.direction === 'low';
  return { ranks: { score: low ? -value : value, shown, words: low ? w.low : w.high, tie: low ? 'lowest' : 'highest' } };
}
