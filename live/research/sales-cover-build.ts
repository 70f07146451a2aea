// live/research/sales-cover.json: every market (a zip, or a state and city slug) where a sales source of the build
// records a sale of any kind, arm's-length or flagged, with its sources and the counts of each: the rows of
// mart_market_source (pipelines/marts/30_mart_market_source.ts). The market endpoints read it (api/market-source.ts)
// to tell a market no source covers from one whose records are all flagged not arm's-length (review 18: zip 06779,
// Watertown CT, holds one land sale flagged by its non-use code, and was answered "No sales source covers zip 06779");
// each market's `source` is the mart's, the value its shards write, so the 404's wording names the source as the answers
// do. A few hundred markets: small.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';

/** The additive `source` of a market answer, {id, name, vintage}, as the mart composes it from the manifest's names. */
export interface MarketSource { id: string; name: string; vintage: string | null }
/** One market's sales records: `sources` (source ids), `source` (the answers' `source`, as the shards write it),
 *  `arms_length` (the sales the market endpoints count), `flagged` (the records flagged not arm's-length, duplicates
 *  included) and `reasons` (flagged records by reason). */
export interface SalesCover {
  sources: string[]; source: MarketSource | null; arms_length: number; flagged: number; reasons: Record<string, number>;
}
/** Keys: `zip|<zip>` and `city|<state>|<city slug>`, as market.json's `sources`. */
export type SalesCoverFile = Record<string, SalesCover>;

export async function salesCover(db: StageContext['db']): Promise<SalesCoverFile> {
  if (!(await tableExists(db, 'mart_market_source'))) return {};
  type Row = { k: string; s: string[]; src: MarketSource | null; a: number; f: number; r: { reason: string; n: number }[] };
  const rows = await queryRows<Row>(db, `
    select market_key as k, sources as s, source as src, cast(arms_length as integer) as a, cast(flagged as integer) as f,
           list_transform(reasons, x -> {reason: x.reason, n: cast(x.n as integer)}) as r
    from mart_market_source order by market_key`);
  const out: SalesCoverFile = {};
  for (const row of rows) out[row.k] = { sources: [...row.s], source: row.src ? { ...row.src } : null, arms_length: row.a, flagged: row.f, reasons: Object.fromEntries(row.r.map((x) => [x.reason, x.n])) };
  return out;
}
