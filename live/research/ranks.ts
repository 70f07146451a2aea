// The one rule for a comparison's winner (POST /v1/research/query): every figure a comparison can rank (a median sale
// price, a sales count, price per sqft, days on market, a price change, a rehab score, an investor share, a distressed
// count, an environmental risk score, a landlord friendliness or legal risk score) carries `ranks`, made here from the
// direction the question asks of that figure (asked.ts figureDirection: "cheapest", "fewer", "lowest" ask the low end;
// "most expensive", "more", "highest", or no such word, the high end; with both kinds of words, each figure the end
// the words beside it ask). compose.ts `verdict` reads them and
// names the winner with its figure. Wording: warehouse/docs/research.md "Answers" (comparisons).
import type { Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import { figureDirection } from './asked.ts';

/** What the place at each end is: [two places, three or more] ("is the cheaper", "is the cheapest"); the words that
 *  name the figure in a question (its own direction is read from the parts naming it: asked.ts figureDirection);
 *  `speed`: days on market, whose fastest is its lowest. */
export interface RankWords { high: readonly [string, string]; low: readonly [string, string]; figure: RegExp; speed?: boolean }

const words = (high: [string, string], low: [string, string], figure: RegExp, speed = false): RankWords => ({ high, low, figure, speed });

/** The words of each figure compared. */
export const RANK = {
  price: words(['is the more expensive', 'is the most expensive'], ['is the cheaper', 'is the cheapest'], /\b(prices?|priced|cheap\w*|\w*expensive|afford\w*|pric(ey|ier|iest)|costs?|costl\w*|values?)\b/),
  ppsf: words(['is the more expensive per sqft', 'is the most expensive per sqft'], ['is the cheaper per sqft', 'is the cheapest per sqft'], /per (sq|square)|ppsf|\/ ?sq|\bcheap\w*|\w*expensive/),
  sales: words(['has more sales', 'has the most sales'], ['has fewer sales', 'has the fewest sales'], /\bsales\b|\bsold\b/),
  dom: words(['has the longer median days on market', 'has the longest median days on market'], ['has the shorter median days on market', 'has the shortest median days on market'], /days on market|\bdom\b|\bsell\w*|\bfast\w*|\bquick\w*|\bslow\w*/, true),
  change: words(['has the higher price change', 'has the highest price change'], ['has the lower price change', 'has the lowest price change'], /\bgrowth\b|\bgrow\w*|\bchange\w*|apprecia\w*|\bgain\w*|\bris(e|es|ing|en)\b|\bincreas\w*|\btrend\w*|\bgone up\b/),
  rehab: words(['has the higher rehab momentum', 'has the highest rehab momentum'], ['has the lower rehab momentum', 'has the lowest rehab momentum'], /rehab|renovat\w*|momentum|permits?/),
  investor: words(['has the higher investor share', 'has the highest investor share'], ['has the lower investor share', 'has the lowest investor share'], /investors?|flip\w*/),
  distress: words(['has more distressed properties', 'has the most distressed properties'], ['has fewer distressed properties', 'has the fewest distressed properties'], /distress\w*|foreclos\w*|delinquen\w*|\bliens?\b/),
  envRisk: words(['has the higher environmental risk score', 'has the highest environmental risk score'], ['has the lower environmental risk score', 'has the lowest environmental risk score'], /flood\w*|environment\w*|superfund|hazard\w*|\brisk\w*|\bsafe\w*/),
  friendliness: words(['is the more landlord-friendly', 'is the most landlord-friendly'], ['is the less landlord-friendly', 'is the least landlord-friendly'], /friendl\w*|landlords?/),
  legalRisk: words(['carries the higher legal risk for a landlord', 'carries the highest legal risk for a landlord'], ['carries the lower legal risk for a landlord', 'carries the lowest legal risk for a landlord'], /legal\w*|\brisk\w*/),
} as const;

/** A figure's rank in a comparison (two or more places asked; else nothing): its score signed so that the place the
 *  question asks for scores highest, the figure as shown, and the words for the winner and for places tied at the top.
 *  The end asked is the figure's own (figureDirection over `u.query`; without it, `u.direction`): "lowest price but
 *  highest growth" ranks the price low and the change high; both ends asked of one figure ("the cheapest and the most
 *  expensive") rank it both ways (`moreRanks` the low end). */
export function ranks(u: Pick<Understanding, 'targets' | 'direction'> & { query?: string }, value: number, shown: string, w: RankWords): Pick<Fact, 'ranks' | 'moreRanks'> {
  if (u.targets.length < 2 || !Number.isFinite(value)) return {};
  const dir = u.query === undefined ? u.direction : figureDirection(u.query.toLowerCase(), w.figure, w.speed);
  const at = (low: boolean): NonNullable<Fact['ranks']> => ({ score: low ? -value : value, shown, words: low ? w.low : w.high, tie: low ? 'lowest' : 'highest' });
  return dir === 'both' ? { ranks: at(false), moreRanks: [at(true)] } : { ranks: at(dir === 'low') };
}
