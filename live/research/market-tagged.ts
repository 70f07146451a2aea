// The markets of the research index's sales figures as one `tagged` CTE over the arm's-length sales (market.json's
// windows, sources and years: market-window-build.ts, year-medians-build.ts), the markets market_monthly keys: zip,
// city, a city part (a New York City borough), a neighbourhood its source names, and the state.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { hoodKeys } from './hoods.ts';
import { STATE_TAGGED } from './state-market-build.ts';

/** The markets of market_monthly (30_mart_market_monthly.sql) as a `tagged` CTE over the arm's-length sales, `cols` of
 *  each: a sale counts in its zip's market and its city's, and a sale with a city part (a New York City borough,
 *  int_market_city_parts) in its part's too, so a borough's market is its own sales; and every sale in its state's (STATE_TAGGED). */
export async function taggedSales(db: StageContext['db'], cols: readonly string[]): Promise<string> {
  let parts = (await tableExists(db, 'int_market_city_parts')) ? `
        union all
        select 'city|' || a.state_code || '|' || slug(cp.city_part), a.* from arm a join int_market_city_parts cp using (sale_id)
        where a.state_code is not null and slug(cp.city_part) <> ''` : '';
  if (await tableExists(db, 'int_market_neighborhoods')) {
    // a neighbourhood's market (hood|<state>|<name asked>, hoods.ts): the sales its source names it for
    const keys = hoodKeys((await queryRows<{ n: string }>(db, 'select distinct neighborhood as n from int_market_neighborhoods order by 1')).map((r) => r.n));
    const names = [...keys].flatMap(([n, ks]) => ks.map((k) => `('${n.replaceAll("'", "''")}', '${k.replaceAll("'", "''")}')`));
    if (names.length) parts += `
        union all
        select 'hood|' || h.state_code || '|' || hk.k, a.* from arm a join int_market_neighborhoods h using (sale_id)
        join (values ${names.join(', ')}) hk(n, k) on hk.n = h.neighborhood`;
  }
  return `arm as (select sale_id, ${cols.join(', ')} from sales where is_arms_length),
    tagged as (
        select 'zip|' || zip as k, * from arm where zip is not null
        union all
        select 'city|' || state_code || '|' || city_slug, * from arm where state_code is not null and city_slug is not null and city_slug <> ''${parts}${STATE_TAGGED}
    )`;
}
