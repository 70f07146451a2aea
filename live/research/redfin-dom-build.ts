// The Redfin zip snapshots the research index keeps (market.json `redfin_dom`, live/research/build.ts), read by
// redfin-dom.ts when days on market is asked of a zip past its sales; apart from it so serving never loads DuckDB.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import type { RedfinDom } from './market-window.ts';

/** The Redfin snapshots of the zips with arm's-length sales (the markets research answers), period end order. */
export async function redfinDom(db: StageContext['db']): Promise<RedfinDom> {
  if (!(await tableExists(db, 'int_market_redfin_zip')) || !(await tableExists(db, 'sales'))) return {};
  const rows = await queryRows<{ z: string; e: string; d: number; s: number | null; t: string | null }>(db, `
    select zip as z, cast(period_end as varchar) as e, cast(median_dom as double) as d, cast(homes_sold as integer) as s, redfin_property_type as t
    from int_market_redfin_zip where median_dom is not null and zip in (select distinct zip from sales where is_arms_length and zip is not null)
    order by zip, period_end`);
  const out: RedfinDom = {};
  for (const r of rows) (out[r.z] ??= []).push([r.e, r.d, r.s, r.t]);
  return out;
}
