// A state judged by its prices alone ("is connecticut expensive", "is CT pricey", "how affordable is pennsylvania"):
// its price level, as "connecticut home prices" is answered (state-market.ts: the state's own market where its sales
// cover it, else which market its sales are), never "I don't have data" (h67ask2: the "is X expensive" reading,
// intent.ts HOME_WORDS, took a zip, city or county only). Pure, no I/O.
import type { Target } from './places.ts';

/** Words that judge a place's prices with no other price word ("is seattle cheap": before, no topic read either). */
export const PRICE_JUDGED = /\b(expensive|affordable|unaffordable|pricey|pricy|cheap|cheaper|cheapest|overpriced|costly|inexpensive|pricier|priciest)\b/;

/** Whether a question naming states only, and at least one, judges their prices (`lower`: the question lower-cased). */
export const statePriceJudged = (lower: string, targets: readonly Target[]): boolean =>
  targets.length > 0 && targets.every((t) => !t.zip && !t.city && !t.area && !t.hood) && PRICE_JUDGED.test(lower);
