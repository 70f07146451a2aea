// The sales sources the valuation cannot value (review 25: a canonical market whose sales.csv leaves `sqft` empty built
// and published with "live/valuation sources=0", an empty scorecard and an eval table of "(no rows)", nothing saying
// why). A comparable sale needs its price, date, zip and living area (loadCompSets); a source with arm's-length
// residential sales but no such comp is named with its counts and the reason, in the build log (a warning), the
// scorecard (`unvalued`), the build report and `npm run eval:avm`. warehouse/docs/valuation.md "Scorecard".
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, tableExists } from '../../warehouse/db.ts';

export interface Unvalued {
  source: string;
  /** its arm's-length residential sales with a price */
  sales: number;
  /** of them, those with a zip and a living area (sqft) */
  with_sqft: number;
  reason: string;
}

/** Every source of `sales` with arm's-length residential sales that no comp set was made from (`valued`: the sources
 *  that have one), with why. */
export async function unvaluedSources(db: DuckDBConnection, valued: readonly string[]): Promise<Unvalued[]> {
  if (!(await tableExists(db, 'sales'))) return [];
  const rows = await queryRows<{ source: string; sales: number; with_zip: number; with_sqft: number }>(db, `
    select source, count(*)::integer as sales, count(*) filter (where zip is not null)::integer as with_zip,
           count(*) filter (where zip is not null and sqft > 0)::integer as with_sqft
    from sales where is_arms_length and sale_price > 0 and property_type in ('sfr', 'multi', 'condo', 'coop')
    group by source order by source`);
  const done = new Set(valued);
  const n = (v: number): string => v.toLocaleString('en-US');
  // what a user can do: fill the column in their own file (canonical/); a public source's records are as published
  const fill = (col: string, s: string): string => (s === 'canonical' ? `: fill ${col} in sales.csv to value this market` : '');
  return rows.filter((r) => !done.has(r.source)).map((r) => ({
    source: r.source, sales: r.sales, with_sqft: r.with_sqft,
    reason: r.with_zip === 0
      ? `none of its ${n(r.sales)} arm's-length residential sales has a zip code, and a comparable sale needs one${fill('zip', r.source)}`
      : r.with_sqft === 0
        ? `none of its ${n(r.sales)} arm's-length residential sales records a living area (sqft), and a comparable sale needs its price, date, zip and sqft${fill('sqft', r.source)}`
        : `none of its ${n(r.with_sqft)} arm's-length residential sales with a zip and a living area (of ${n(r.sales)}) is usable as a comparable sale (a price per sqft outside the kept bounds, or an apartment building of 5 or more units)`,
  }));
}

/** One line per source not valued: "valuation: source canonical not valued: ...". */
export const unvaluedLine = (u: Unvalued): string => `valuation: source ${u.source} not valued: ${u.reason}`;
