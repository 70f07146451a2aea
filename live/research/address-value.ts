// A street address or parcel id asked its value ("what is 2835 Unruh Ave worth", "711 Greenwood Avenue in Brooklyn
// 11218 - what would it appraise at?", "ballpark value for ...", "what is parcel 5393601635 in King County worth"): read
// as its zip's price level (addresses.ts and parcels.ts place it in its zip), and said asked so; value-estimate.ts then
// gives the property's own estimate from the valuation engine (POST /v1/valuation/estimate) when the address matches a
// property record, in place of that reading, or says why there is none. Before (review 28), no topic was read: "I don't
// have data", and the street's name was read as a town (Greenwood, IN). A property asked its recorded sales ("what did
// 6234 Reedland St 19142 sell for", "when was ... last sold", "sale history of ...", "last sale price of ...") is read
// the same way, said asked its sales (`history`); sale-history.ts then lists the property record's own sales (GET
// /v1/property) in place of that reading; before (review 31), it was answered with the zip's typical sale price.
// Rules: warehouse/docs/research.md "Entity rules".
import { ADDRESS } from './street-line.ts';
import type { Understanding } from './intent.ts';
import { PARCEL } from './parcels.ts';

/** Words asking what one property is worth. */
const VALUE = /\b(worth|apprais\w*|valu(e|ed|es|ation|ations)|ballpark|estimated? (price|value)|what (would|could|will|might) (it|this|that)( house| home| property)? (sell|go|fetch)|(would|could|will|might)\b[^?.;]{0,80}?\b(sell|go|fetch) for|how much (is|would|could) (it|this|that)( house| home| property)?( be)?( worth)?)\b/i;

/** Words asking a property's recorded sales: a sale in the past ("sold", "did it sell", "bought"), its history or its
 *  price ("sale history", "last sale price", "purchase price"); never what it would sell for (VALUE). */
const HISTORY = /\b(sold|did\b[^?.;]{0,80}?\b(sell|sale|go for|trade)|sales? (history|histories|records?|dates?|prices?)|(last|previous|prior|recent|recorded) (sales?|purchases?|transfers?|deeds?)|bought|purchased|purchase (price|history|date)|transfer history|deed history|price history|transaction history)\b/i;

/** Words asking one property's record or its owner ("property at ...", "tell me about ...", "who owns ..."). */
const RECORD = /^\s*(?:what(?:'s| is) )?(?:the |a )?(?:property|house|home|record|details|info(?:rmation)?|facts)\s+(?:at|on|for|of|about)\b|\b(?:tell me about|look ?up|who owns|owner of)\b/i;
const OWNER = /\bwho owns\b|\bowner of\b/i;

/** Words asking other properties' sales near it, never its own ("sold comps for parcel ...", "recently sold homes near
 *  2926 Ridge Ave"): comparable sales, answered as such. */
const OTHERS = /\b(comps?|comparables?|comparable|nearby|near|around|homes|houses|properties|listings|neighbou?rs?|similar)\b/i;

/** A property asked its value (or, `history`, its recorded sales; `also`: its value too): the street line or the parcel
 *  id as written (the address the valuation is asked), and the reading said for it (`line`, in the Understanding's
 *  readAs, which value-estimate.ts or sale-history.ts replaces). */
export interface WorthAsked { address: string; parcel: boolean; line: string; history: boolean; also?: WorthAsked }

/** Reads a street address or parcel id asked its value or its recorded sales as its zip's price level (in place), with
 *  the reading to say; null when no address or parcel, no value or sale word, or when a topic other than sale prices
 *  is asked (a flood risk, a rule). */
export function addressValue(u: Understanding, query: string): WorthAsked | null {
  const m = ADDRESS.exec(query);
  const p = m ? null : PARCEL.exec(query);
  // another topic asked with it ("flood risk and value of ..."): that topic's answer, with no reading of a value
  // one property's record or owner asked ("property at 1515 Stoney Ln 19115", "who owns ..."): its record's sales, whatever
  // topic its words also read (h78ask: a seller's disclosure rule, or the zip's owner counts, answered before)
  const record = !!m && RECORD.test(query);
  const history = record || (HISTORY.test(query) && !OTHERS.test(query));
  if ((!m && !p) || !(history || VALUE.test(query)) || (!record && !u.intents.every((i) => i === 'comps' || i === 'trends'))) return null;
  if (record) u.intents.splice(0, u.intents.length);
  if (record && OWNER.test(query)) u.gaps.push(`No property's owner is given here: a property record names the buyer of each recorded deed (named with its sales where the source records one), not its owner of record; owners are counted by type per zip or city ("who owns homes in ${u.targets.find((t) => t.zip)?.zip ?? 'a zip'}")`);
  // comparable sales asked too ("comps near ... and what is it worth") stay asked, beside the price level
  if (!u.intents.includes('trends')) u.intents.push('trends');
  u.priceLevel = true;
  const address = m ? m[0].trim() : p![1]!;
  const shown = m ? address : `parcel ${address}`;
  const value = `"${shown}" asked its value as its zip's typical sale price (a property's own estimate, with comparable sales and a range: POST /v1/valuation/estimate)`;
  if (!history) {
    u.readAs.push(value);
    return { address, parcel: !m, line: value, history };
  }
  const line = `"${shown}" asked its recorded sales, answered with its zip's typical sale price (a property's recorded sales: GET /v1/property)`;
  u.readAs.push(line);
  // its value asked too ("what is it worth and what did it sell for"): both, each with its own reading
  if (VALUE.test(query)) u.readAs.push(value);
  return { address, parcel: !m, line, history, ...(VALUE.test(query) ? { also: { address, parcel: !m, line: value, history: false } } : {}) };
}
