// int_property_files: one row per source file a property row cites (sales, parcels, permits, distress): the file as
// the warehouse records it (an absolute path), its name relative to the sources folder (what lineage shows: never a
// path of the build machine), the source id and the source's vintage (pipelines/sources/registry.ts). Read by
// 60_mart_property_10_tables.sql. Also creates int_property_extra (empty) for the per-source steps, and
// int_property_field_cites: per source row (source, file, line) and field whose value that row's own columns do not
// hold, the file and line it was read from (cite_file, cite_line) or how the adapter filled it (imputed):
//   - Denver's beds, baths, sqft, lot and year built: the residential file's row (int_sale_fact_rows of 30_market_14);
//   - a canonical sale's address (and the unit read from it), city, state and zip taken from its parcel's parcels.csv
//     row (int_market_canonical_place_fills of 30_market_40): that parcels.csv line;
//   - an adapter's fallback constant for a value its file leaves empty (FALLBACKS): 'source_constant', as the
//     constants an adapter writes on every row (int_property_source_constants, 60_mart_property_10_tables.sql).
// Rules: warehouse/docs/property.md.
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { sqlString } from '../../warehouse/sql.ts';
import { SOURCES } from '../sources/registry.ts';

export const requires = ['sales', 'parcels', 'permits', 'distress'];

/** The characteristics Denver's sales rows take from the residential file's row (int_sale_fact_rows). */
const FACT_FIELDS = ['beds', 'baths', 'sqft', 'lot_sqft', 'year_built'];

/** An adapter's constant written only where its file leaves the column empty (`coalesce(upper(state_code), 'CA')`):
 *  the rows whose staging column is null (the adapter's condition) carry the constant, not the file's value. No row
 *  of the shipped files leaves these empty; a file that did would otherwise be cited as read. */
const FALLBACKS = [
  { source: 'sacramento', table: 'sales', stg: 'stg_sacramento__sales', column: 'state_code', field: 'state' }, // 30_market_11: 'CA'
  { source: 'nashville', table: 'permits', stg: 'stg_nashville__permits', column: 'state_code', field: 'state' }, // 30_market_20: 'TN'
];

export async function run(ctx: StageContext): Promise<void> {
  const parts: string[] = [];
  if (await tableExists(ctx.db, 'int_sale_fact_rows')) {
    parts.push(`select s.source, s.file, s.line, unnest([${FACT_FIELDS.map(sqlString).join(', ')}]) as field, f.fact_file as cite_file,
      f.fact_line as cite_line, null::varchar as imputed from int_sale_fact_rows f join sales s using (sale_id)`);
  }
  if (await tableExists(ctx.db, 'int_market_canonical_place_fills')) {
    parts.push(`select 'canonical' as source, file, line, unnest(case field when 'address' then ['address', 'unit'] else [field] end) as field,
      parcel_file as cite_file, parcel_line as cite_line, null::varchar as imputed from int_market_canonical_place_fills`);
  }
  for (const f of FALLBACKS) {
    if (!(await tableExists(ctx.db, f.stg))) continue;
    parts.push(`select t.source, t.file, t.line, ${sqlString(f.field)} as field, t.file as cite_file, t.line as cite_line, 'source_constant' as imputed
      from ${f.table} t join ${f.stg} r on r.file = t.file and r.row_number + 1 = t.line
      where t.source = ${sqlString(f.source)} and r.${f.column} is null`);
  }
  await ctx.db.run(`create or replace table int_property_field_cites as
    select * from (${parts.length ? parts.join('\nunion all by name ') : 'select null::varchar as source, null::varchar as file, null::bigint as line, null::varchar as field, null::varchar as cite_file, null::bigint as cite_line, null::varchar as imputed where false'})
    qualify row_number() over (partition by source, file, line, field order by cite_file, cite_line) = 1`);
  const files = await queryRows<{ source: string; file: string }>(ctx.db, `
    select distinct source, file from (
      select source, file from sales union all select source, file from parcels
      union all select source, file from permits union all select source, file from distress
      union all select source, cite_file from int_property_field_cites)
    where file is not null order by 1, 2`);
  const vintage = new Map(SOURCES.map((s) => [s.id, s.vintage]));
  const root = path.resolve(ctx.paths.sources);
  const rows = files.map((f) => {
    const rel = path.isAbsolute(f.file) ? path.relative(root, f.file).split(path.sep).join('/') : f.file;
    return `(${sqlString(f.file)}, ${sqlString(rel)}, ${sqlString(f.source)}, ${vintage.has(f.source) ? sqlString(vintage.get(f.source)!) : 'null'})`;
  });
  await ctx.db.run('create or replace table int_property_files (file varchar, rel_file varchar, source varchar, vintage varchar)');
  if (rows.length) await ctx.db.run(`insert into int_property_files values ${rows.join(', ')}`);
  // facts some sources record beyond the canonical columns (lot area, the owner's mailing address and state), by file and
  // line; filled by the optional 60_mart_property_0x_<source>.sql steps, each skipped when its raw table is absent
  await ctx.db.run('create or replace table int_property_extra (file varchar, line bigint, lot_sqft double, mailing_street varchar, mailing_zip varchar, mailing_state varchar)');
}
