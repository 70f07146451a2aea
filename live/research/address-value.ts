// A street address or parcel id asked its value ("what is 2835 Unruh Ave worth", "711 Greenwood Avenue in Brooklyn
// 11218 - what would it appraise at?", "ballpark value for ...", "what is parcel 5393601635 in King County worth"): read
// as its zip's price level (addresses.ts and parcels.ts place it in its zip), and said asked so; value-estimate.ts then
// gives the property's own estimate from the valuation engine (POST /v1/valuation/estimate) when the address matches a
// property record, in place of that reading, or says why there is none. Before (review 28), no topic was read: "I don't
// have data", and the street's name was read as a town (Greenwood, IN). Rules: warehouse/docs/research.md "Entity rules".
import { ADDRESS } from './street-line.ts';
import type { Understanding } from './intent.ts';
import { PARCEL } from './parcels.ts';

/** Words asking what one property is worth. */
const VALUE = /\b(worth|apprais\w*|valu(e|ed|es|ation|ations)|ballpark|estimated? (price|value)|what (would|could|will|might) (it|this|that)( house| home| property)? (sell|go|fetch)|how much (is|would|could) (it|this|that)( house| home| property)?( be)?( worth)?)\b/i;

/** A property asked its value: the street line or the parcel id as written (the address the valuation is asked), and
 *  the reading said for it (`line`, in the Understanding's readAs, which value-estimate.ts replaces). */
export interface WorthAsked { address: string; parcel: boolean; line: string }

/** Reads a street address or parcel id asked its value as its zip's price level (in place), with the reading to say;
 *  null when no address or parcel, no value word, or when a topic other than sale prices is asked (a flood risk, a rule). */
export function addressValue(u: Understanding, query: string): WorthAsked | null {
  const m = ADDRESS.exec(query);
  const p = m ? null : PARCEL.exec(query);
  // another topic asked with it ("flood risk and value of ..."): that topic's answer, with no reading of a value
  if ((!m && !p) || !VALUE.test(query) || !u.intents.every((i) => i === 'comps' || i === 'trends')) return null;
  // comparable sales asked too ("comps near ... and what is it worth") stay asked, beside the price level
  if (!u.intents.includes('trends')) u.intents.push('trends');
  u.priceLevel = true;
  const address = m ? m[0].trim() : p![1]!;
  const line = `"${m ? address : `parcel ${address}`}" asked its value as its zip's typical sale price (a property's own estimate, with comparable sales and a range: POST /v1/valuation/estimate)`;
  u.readAs.push(line);
  return { address, parcel: !m, line };
}
