// live/research/sales-cover.json: every market (a zip, or a state and city slug) where a sales source of the build
// records a sale of any kind, arm's-length or flagged, with its sources and the counts of each. The market endpoints
// read it (api/market-source.ts) to name the sales source of an answer and to tell a market no source covers from one
// whose records are all flagged not arm's-length (review 18: zip 06779, Watertown CT, holds one land sale flagged by its
// non-use code, and was answered "No sales source covers zip 06779"). A few hundred markets: small.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';

/** One market's sales records: `sources` (source ids), `arms_length` (the sales the market endpoints count), `flagged`
 *  (the records flagged not arm's-length, duplicates included) and `reasons` (flagged records by reason). */
export interface SalesCover { sources: string[]; arms_length: number; flagged: number; reasons: Record<string, number> }
/** Keys: `zip|<zip>` and `city|<state>|<city slug>`, as market.json's `sources`. */
export type SalesCoverFile = Record<string, SalesCover>;

export async function salesCover(db: StageContext['db']): Promise<SalesCoverFile> {
  if (!(await tableExists(db, 'sales'))) return {};
  // a sale with a city part (a New York City borough, int_market_city_parts) counts in its part's market too, as in market.json
  const parts = (await tableExists(db, 'int_market_city_parts')) ? `
      union all
      select 'city|' || s.state_code || '|' || slug(cp.city_part), s.* exclude (sale_id) from s join int_market_city_parts cp using (sale_id)
      where s.state_code is not null and slug(cp.city_part) <> ''` : '';
  const tagged = `with s as (
      select sale_id, zip, state_code, slug(city) as city_slug, source, is_arms_length,
             case when is_arms_length then null
                  else coalesce(nullif(non_arms_length_reason, ''), case when is_duplicate then 'duplicate' when is_portfolio then 'portfolio' else 'unstated' end) end as reason
      from sales where source is not null),
    tagged as (
      select 'zip|' || zip as k, * exclude (sale_id) from s where zip is not null
      union all
      select 'city|' || state_code || '|' || city_slug, * exclude (sale_id) from s where state_code is not null and city_slug is not null and city_slug <> ''${parts})`;
  const rows = await queryRows<{ k: string; s: string[]; a: number | bigint; f: number | bigint }>(db, `${tagged}
    select k, list(distinct source order by source) as s, count(*) filter (where is_arms_length) as a, count(*) filter (where not is_arms_length) as f
    from tagged group by k order by k`);
  const reasons = await queryRows<{ k: string; r: string; n: number | bigint }>(db, `${tagged}
    select k, reason as r, count(*) as n from tagged where reason is not null group by all order by k, n desc, r`);
  const out: SalesCoverFile = {};
  for (const row of rows) out[row.k] = { sources: [...row.s], arms_length: Number(row.a), flagged: Number(row.f), reasons: {} };
  for (const row of reasons) out[row.k]!.reasons[row.r] = Number(row.n);
  return out;
}
