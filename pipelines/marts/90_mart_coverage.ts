// mart_coverage: one row, the counts of GET /v1/coverage/summary. Runs last among the marts so every table of
// the build exists; counts only tables that exist (other domains add theirs), 0 for an absent one.
// Counting rules: warehouse/docs/geo.md "Coverage".
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { quotedIdentifier } from '../../warehouse/sql.ts';
import { CATEGORIES } from '../../warehouse/regulations/schema.ts';

export const requires = ['states', 'counties', 'cities', 'zips'];

async function count(ctx: StageContext, table: string, where = 'true'): Promise<number> {
  if (!(await tableExists(ctx.db, table))) return 0;
  const rows = await queryRows<{ n: number }>(ctx.db, `select count(*)::bigint::double as n from ${quotedIdentifier(table)} where ${where}`);
  return rows[0]?.n ?? 0;
}

/** Active regulation records per category; every one of the nine categories is present (0 when none). */
async function regulationsByCategory(ctx: StageContext): Promise<Record<string, number>> {
  const out: Record<string, number> = Object.fromEntries(CATEGORIES.map((c) => [c, 0]));
  if (!(await tableExists(ctx.db, 'regulations'))) return out;
  const rows = await queryRows<{ category: string; n: number }>(ctx.db,
    `select category, count(*)::bigint::double as n from regulations where status = 'active' group by category`);
  for (const r of rows) if (Object.hasOwn(out, r.category)) out[r.category] = r.n;
  return out;
}

/** Rows of every base table of the main schema except int_* helpers and this mart: canonical tables + marts. */
async function dataPoints(ctx: StageContext): Promise<number> {
  const tables = await queryRows<{ name: string }>(ctx.db,
    `select table_name as name from duckdb_tables()
     where schema_name = 'main' and database_name = current_database() and not temporary
       and table_name not like 'int\\_%' escape '\\' and table_name <> 'mart_coverage'
     order by table_name`);
  if (!tables.length) return 0;
  const sql = tables.map((t) => `select count(*)::bigint as n from ${quotedIdentifier(t.name)}`).join(' union all ');
  const rows = await queryRows<{ n: number }>(ctx.db, `select sum(n)::double as n from (${sql})`);
  return rows[0]?.n ?? 0;
}

export async function run(ctx: StageContext): Promise<void> {
  const byCategory = await regulationsByCategory(ctx);
  const values: Record<string, unknown> = {
    // what the address endpoints can find (the autocomplete index's rule), not every address row known
    addresses: await count(ctx, 'addresses', 'address_is_indexable(zip, zip_imputed, lat, lng, county, city, state_code)'),
    regulations: await count(ctx, 'regulations', `status = 'active'`),
    states: await count(ctx, 'states', 'is_state'),
    cities: await count(ctx, 'cities'),
    zips: await count(ctx, 'zips'),
    counties: await count(ctx, 'counties'),
    data_points: await dataPoints(ctx),
    last_refreshed: ctx.builtAt.toISOString(),
  };
  // Category names are identifiers from code (the spec's nine), their counts are bound values.
  const struct = CATEGORIES.map((c, i) => `${quotedIdentifier(c)}: $cat${i}::bigint`).join(', ');
  for (const [i, c] of CATEGORIES.entries()) values[`cat${i}`] = byCategory[c] ?? 0;
  await ctx.db.run(`
    create or replace table mart_coverage as
    select
        $addresses::bigint as addresses,
        $regulations::bigint as regulations,
        {${struct}} as regulations_by_category,
        $states::bigint as states,
        $cities::bigint as cities,
        $zips::bigint as zips,
        $counties::bigint as counties,
        $data_points::bigint as data_points,
        $last_refreshed::varchar as last_refreshed`, values as never);
}
