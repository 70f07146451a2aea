// A home's size asked with its value ("how much is a 2,000 sq ft house in 19146 worth", "value of a 1800 sqft home in
// 98103"): read as the zip's comparable sales, their median price per sqft times that size (and the middle half's per
// sqft figures times it, as a range), said as a zip-level figure, never as a valuation of one property: POST
// /v1/valuation/estimate values an address. Before (review 30) the size was dropped: the zip's median sale price was the
// answer, whatever the size. A place with no zip's comps figure (a city, a county) has the size said as not applied.
// Rules: warehouse/docs/research.md "Entity rules".
import type { ResearchData } from './data.ts';
import { money, type Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import { TYPE_WORDS } from './sales-facts.ts';

const SIZE = /\b(\d{1,2},\d{3}|\d{3,5})[ -]?(?:sq\.? ?f(?:ee|oo)?t\.?|sqft|square[ -]f(?:ee|oo)t|sf)(?![a-z])/i;
const VALUE = /\b(worth|valu(e|ed|es|ation)|cost|costs|price[ds]?|how much|sell for|go for|fetch|apprais\w*|ballpark)\b/i;

export interface SizeAsked { sqft: number; words: string; valued: boolean }

/** The size asked (square feet), with whether a value is asked of it, and the question without it (read for its places,
 *  topics and years: "2000 sqft" is no year 2000); no size: the question as it is. */
export function takeSize(query: string): { text: string; size: SizeAsked | null } {
  const m = SIZE.exec(query);
  const sqft = m ? Number(m[1]!.replace(',', '')) : 0;
  if (!m || sqft < 200 || sqft > 20_000) return { text: query, size: null };
  return { text: `${query.slice(0, m.index)}${query.slice(m.index + m[0].length)}`.replace(/\s{2,}/g, ' '), size: { sqft, words: m[0], valued: VALUE.test(query) } };
}

/** The comparable sales' intent asked for a size asked with a value (beside any other topic asked); false (the size
 *  said as not applied) when no value is asked, or an address asked its value has its own estimate. */
export function sizeAsked(u: Understanding, size: SizeAsked, ownEstimate: boolean): boolean {
  if (ownEstimate) {
    u.readAs.push(`"${size.words}": the property's own estimate below reads the living area its record holds, not the size typed`);
    return false;
  }
  if (!size.valued) {
    u.readAs.push(`"${size.words}": the figures are not kept by home size (only a value is priced by size: a zip's median price per sqft times it), so the size is not applied`);
    return false;
  }
  // another topic asked beside the price ("flood risk and price of a 2000 sq ft house in 98103"): each answered, the
  // size pricing the zip's comparable sales, in the question's order (before, the price was dropped: the flood risk alone)
  // (a quick answer gives one sentence a topic: the sized comps take the unsized price's place, trends, beside another)
  if (u.intents.includes('comps')) return true;
  const at = u.intents.indexOf('trends');
  if (u.intents.length <= 1 && at === 0) u.intents.unshift('comps');
  else if (at >= 0) u.intents.splice(at, 1, 'comps');
  else u.intents.push('comps');
  return true;
}

interface CompsPpsf { price_per_sqft: { p25: number | null; median: number | null; p75: number | null } }

/** To the nearest $1,000: a zip's price per sqft times a size is no closer than that. */
const thousands = (n: number): string => money(Math.round(n / 1000) * 1000);

/** Each zip's comparable-sales fact gains the size's price at its figures; the reading is said in `u.readAs`. */
export async function sizeValue(data: ResearchData, u: Understanding, facts: Fact[], size: SizeAsked): Promise<void> {
  const area = size.sqft.toLocaleString('en-US');
  let priced = 0;
  for (const f of facts) {
    // a zip's own figure, not a city's or county's summary of its zips
    if (f.intent !== 'comps' || !f.target?.zip || f.zip?.zip !== f.target.zip || !f.zip.measure || f.zip.months === null) continue;
    const c = await data.shard<CompsPpsf>('comps', { zip: f.zip.zip, property_type: u.propertyType, months: String(f.zip.months) });
    const p = c?.price_per_sqft;
    if (!p?.median) continue;
    const range = p.p25 !== null && p.p75 !== null ? ` (at the middle half's ${money(p.p25)}-${money(p.p75)} per sqft, ${thousands(p.p25 * size.sqft)} to ${thousands(p.p75 * size.sqft)})` : '';
    f.sentence += `; at that median, ${area} sqft comes to about ${thousands(p.median * size.sqft)}${range}`;
    priced++;
  }
  const zipAsked = u.targets.some((t) => t.zip);
  u.readAs.push(priced
    ? `"${size.words}" as the size to price: the zip's median price per sqft of ${TYPE_WORDS[u.propertyType]} sales times ${area} sqft, a zip-level figure and not an estimate of one property (a property's own estimate, with its comps and a range: POST /v1/valuation/estimate with its address)`
    : `"${size.words}" as the size to price: a size is priced with a zip's median price per sqft and ${zipAsked ? 'no price per sqft is recorded for the zip asked (below)' : 'no zip is asked'}, so the size is not applied${zipAsked ? '' : ' (name a zip code)'}`);
}
