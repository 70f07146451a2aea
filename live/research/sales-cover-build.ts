// live/research/sales-cover.json: every market (a zip, or a state and city slug) where a sales source of the build
// records a sale of any kind, arm's-length or flagged, with its sources and the counts of each: the rows of
// mart_market_source (pipelines/marts/30_mart_market_source.ts). The market endpoints read it (api/market-source.ts)
// to tell a market no source covers from one whose records are all flagged not arm's-length (review 18: zip 06779,
// Watertown CT, holds one land sale flagged by its non-use code, and was answered "No sales source covers zip 06779");
// the answers' `source` is written in their shards from the same mart. A few hundred markets: small.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';

/** One market's sales records: `sources` (source ids), `arms_length` (the sales the market endpoints count), `flagged`
 *  (the records flagged not arm's-length, duplicates included) and `reasons` (flagged records by reason). */
export interface SalesCover { sources: string[]; arms_length: number; flagged: number; reasons: Record<string, number> }
/** Keys: `zip|<zip>` and `city|<state>|<city slug>`, as market.json's `sources`. */
export type SalesCoverFile = Record<string, SalesCover>;

export async function salesCover(db: StageContext['db']): Promise<SalesCoverFile> {
  if (!(await tableExists(db, 'mart_market_source'))) return {};
  const rows = await queryRows<{ k: string; s: string[]; a: number; f: number; r: { reason: string; n: number }[] }>(db, `
    select market_key as k, sources as s, cast(arms_length as integer) as a, cast(flagged as integer) as f,
           list_transform(reasons, x -> {reason: x.reason, n: cast(x.n as integer)}) as r
    from mart_market_source order by market_key`);
  const out: SalesCoverFile = {};
  for (const row of rows) out[row.k] = { sources: [...row.s], arms_length: row.a, flagged: row.f, reasons: Object.fromEntries(row.r.map((x) => [x.reason, x.n])) };
  return out;
}
