// The build report's account of the arm's-length rule (30_market_45_sale_flags.sql) and of the source repairs
// (meta.repairs): rows per source and rule, appended to <build>/report-sections.json as "Sales kept but not counted,
// and repairs". A flagged sale stays in `sales` (it is a real record) and is left out of every market figure; a
// repair is a source value changed by a rule the source's notes justify. Rules: warehouse/docs/market.md.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { appendReportSection } from '../../warehouse/build-folder.ts';

export const requires = ['sales'];

export const REPORT_TITLE = 'Sales kept but not counted, and repairs';
export const REPORT_HEADERS = ['source', 'kind', 'rule', 'rows'];

/** Rows per source and rule: each flag of `sales` (a row may carry several) and each repair rule. */
export async function flagCounts(db: StageContext['db']): Promise<{ source: string; kind: string; rule: string; rows: number }[]> {
  return queryRows(db, `
    select source, kind, rule, count(*)::int as rows from (
        select source, 'flag' as kind, non_arms_length_reason as rule from sales where non_arms_length_reason is not null
        union all select source, 'flag', 'portfolio' from sales where is_portfolio
        union all select source, 'flag', 'duplicate' from sales where is_duplicate
        union all select source, 'repair', rule from meta.repairs
    )
    group by all order by source, kind, rule`);
}

export async function run(ctx: StageContext): Promise<void> {
  const rows = await flagCounts(ctx.db);
  appendReportSection(ctx.paths.build, { title: REPORT_TITLE, headers: REPORT_HEADERS, rows: rows.map((r) => [r.source, r.kind, r.rule, r.rows]) });
  ctx.log.info('sales flags and repairs', Object.fromEntries(rows.map((r) => [`${r.source}.${r.rule}`, r.rows])));
}
