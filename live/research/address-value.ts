// A street address asked its value ("what is 2835 Unruh Ave worth", "711 Greenwood Avenue in Brooklyn 11218 - what
// would it appraise at?", "ballpark value for ..."): the research keeps no valuation of one property, so the question is
// read as its zip's price level (addresses.ts places the address in its zip), and the answer says where the property's
// own estimate is (POST /v1/valuation/estimate). Before (review 28), no topic was read: "I don't have data", and the
// street's name was read as a town (Greenwood, IN). Rules: warehouse/docs/research.md "Entity rules".
import { ADDRESS } from './street-line.ts';
import type { Understanding } from './intent.ts';

/** Words asking what one property is worth. */
const VALUE = /\b(worth|apprais\w*|valu(e|ed|es|ation|ations)|ballpark|estimated? (price|value)|what (would|could|will|might) (it|this|that)( house| home| property)? (sell|go|fetch)|how much (is|would|could) (it|this|that)( house| home| property)?( be)?( worth)?)\b/i;

/** Reads a street address asked its value as its zip's price level (in place), with the reading to say; nothing when
 *  no address or no value word, or when a topic other than sale prices is asked (a flood risk, a rule). */
export function addressValue(u: Understanding, query: string): void {
  const m = ADDRESS.exec(query);
  // another topic asked with it ("flood risk and value of ..."): that topic's answer, with no reading of a value
  if (!m || !VALUE.test(query) || !u.intents.every((i) => i === 'comps' || i === 'trends')) return;
  // comparable sales asked too ("comps near ... and what is it worth") stay asked, beside the price level
  if (!u.intents.includes('trends')) u.intents.push('trends');
  u.priceLevel = true;
  u.readAs.push(`"${m[0].trim()}" asked its value as its zip's typical sale price: the research keeps no valuation of one property (its own estimate, with comparable sales and a range: POST /v1/valuation/estimate)`);
}
