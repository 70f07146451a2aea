// A whole state's sale price or sales count ("median sale price in Connecticut", "how many homes sold in Connecticut"):
// the state's own market in the research index (state-market-build.ts: every arm's-length sale its sources place in
// the state, by the towns' and zips' one rule), answered as a town's window is (sales-facts.ts windowPriceFact: its
// months' coverage, a file that does not separate single-family sales, the minimum cohort), where its sales cover every
// county of it (Connecticut); a state whose sales are one market's (Washington: King County's) gets no state figure,
// that market said instead. Before (F4), a state alone was asked to name a zip or city. Rules: warehouse/docs/research.md
// "State figures".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { missing, type Fact } from './facts.ts';
import { windowPriceFact } from './sales-facts.ts';
import { stateNoSalesWhy } from './county-no-sales.ts';

/** The fact of a state asked alone (no zip, city, county or neighbourhood) for its price level or sales count over a
 *  window (12 months unless asked), or null where the build keeps no market of the state or neither was asked. */
export function stateMarketFact(data: ResearchData, u: Understanding, t: Target): Fact | null {
  if (t.zip || t.city || t.area || t.hood || !(u.priceLevel || u.asks.includes('sales_count'))) return null;
  const key = `state|${t.state}`, counties = data.market?.state_counties?.[key];
  // a state whose sales are one market's (Washington's: King County's) is no state figure: which market is said
  if (!counties || counties[0] < counties[1]) {
    const ids = data.market?.sources?.[key] ?? [];
    if (!ids.length) return null;
    const titles = ids.map((id) => data.titles.get(id) ?? id).join(' and ');
    return missing('trends', t, `We have no statewide figure for ${data.stateName(t.state)}: its sales in this build are those of ${titles}`
      + ` only${counties ? `, in ${counties[0]} of its ${counties[1]} counties` : ''}; ask for a city or zip code there`);
  }
  return windowPriceFact(data, { ...u, months: u.months ?? 12 }, t, data.stateName(t.state), null);
}

/** A state asked a price trend or figure no state market answers: where no sales source has a sale in it, said so
 *  (county-no-sales.ts stateNoSalesWhy, h68ask), else a city or zip code of it asked for. */
export const stateNoMarket = (data: ResearchData, u: Understanding, t: Target): Fact =>
  missing('trends', t, stateNoSalesWhy(data, t, u.asks.includes('sales_count') ? 'sales count' : 'home sale prices or price trends') ?? `Price trends are reported per zip code or city; name one in ${data.stateName(t.state)}`);
