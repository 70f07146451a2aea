// The Redfin zip tracker snapshots the research index keeps (redfin.json, redfin-index.ts; written by live/research/build.ts),
// read by redfin.ts: days on market asked of a zip with no sales records (its latest snapshot) or of a month past a
// zip's sales (the snapshot of that month); apart from it so serving never loads DuckDB.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import type { RedfinSnapshots } from './redfin-index.ts';

/** Every snapshot with a median days on market of every zip (int_market_redfin_zip: one row per zip and capture),
 *  by period end, then capture month: a zip's last row is its latest. */
export async function redfinSnapshots(db: StageContext['db']): Promise<RedfinSnapshots> {
  if (!(await tableExists(db, 'int_market_redfin_zip'))) return {};
  const rows = await queryRows<{ z: string; m: string; e: string; d: number; s: number | null; t: string | null }>(db, `
    select zip as z, snapshot_month as m, cast(period_end as varchar) as e, cast(median_dom as double) as d, cast(homes_sold as integer) as s, redfin_property_type as t
    from int_market_redfin_zip where median_dom is not null and period_end is not null
    order by zip, period_end, snapshot_month`);
  const out: RedfinSnapshots = {};
  for (const r of rows) (out[r.z] ??= []).push([r.m, r.e, r.d, r.s === null ? null : Number(r.s), r.t]);
  return out;
}
