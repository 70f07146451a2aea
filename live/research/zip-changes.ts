// Zips ranked by their price change (POST /v1/research/query): "which zips in Denver had the biggest price increase",
// "fastest appreciating neighborhoods in Philadelphia", "where are prices falling in Brooklyn". Before, a city asked
// this way got its own index change alone, with nothing said of its zips, and "top 5 zips in King County by price
// growth" was ranked by price level. Now the zips' own changes are listed (market-facts.ts countyTrends), the end
// asked first. Wording: warehouse/docs/research.md "Answers".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { trendsFact } from './trends-fact.ts';

/** The parts of a place asked for: zips, neighbourhoods, areas, or "where in" it. */
const PARTS = /\b(zips?|zip ?codes?|neighbou?rhoods?|areas|parts of|sections of|where)\b/;
/** A change ranked: which, where, top, rank, or a superlative of a change. */
const RANKED = /\b(which|what|where|top|rank\w*|list|biggest|largest|greatest|highest|lowest|most|least|fastest|slowest|strongest|weakest|best|worst)\b/;
/** A change asked of prices: rising, falling, growth, appreciation, a change. A price level asked beside these words is
 *  still their change ("zips with rising prices"). */
const CHANGE = /\b(ris(e|es|ing|en)|rose|fall\w*|fell|drop\w*|declin\w*|increas\w*|decreas\w*|apprecia\w*|depreciat\w*|growth|grow\w*|grew|gain\w*|climb\w*|chang\w*|up|down)\b/;
/** The low end of a change asked: prices falling, the smallest or weakest change. */
const LOW_CHANGE = /\b(fall\w*|fell|drop\w*|declin\w*|decreas\w*|down|los(e|es|ing|t)|lowest|least|slowest|weakest|worst|smallest)\b/;

/** Whether a city's or county's zips are asked ranked by their price change, and which end; null when not (a zip, a
 *  neighbourhood, a year, a count or the zips' price level asked, no change asked, or no parts of the place named). */
export function zipChangeRanking(u: Understanding, t: Target): { lowEnd: boolean } | null {
  if (t.zip || t.hood || !(t.city || t.area) || u.years || u.asks.includes('sales_count') || u.asks.includes('zip_price')) return null;
  const q = u.query.toLowerCase();
  // a plural ("zips with rising prices") asks for a list as "which" does
  if (!PARTS.test(q) || !(RANKED.test(q) || /\b(zips|zip ?codes|neighbou?rhoods|areas)\b/.test(q)) || !CHANGE.test(q)) return null;
  return { lowEnd: LOW_CHANGE.test(q) };
}

/** Why none of a city's zips can be ranked by change when the city itself has no change: the city's own reason, true
 *  of every zip (session 26: Sacramento's file holds 2008-05-15..21, one month in part, where the first zip's "no
 *  month with 20 or more sales" was said as the reason); null when the city has a change, or is no city. */
export async function noZipChange(data: ResearchData, u: Understanding, t: Target): Promise<string | null> {
  if (!t.city || t.area || t.hood || u.priceLevel) return null;
  const own = await trendsFact(data, u, t);
  return !own.period && own.value === 'too few sales' ? `${own.sentence}, so none of its zips has one either` : null;
}
