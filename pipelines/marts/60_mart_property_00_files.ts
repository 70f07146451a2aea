// int_property_files: one row per source file a property row cites (sales, parcels, permits, distress): the file as
// the warehouse records it (an absolute path), its name relative to the sources folder (what lineage shows: never a
// path of the build machine), the source id and the source's vintage (pipelines/sources/registry.ts). Read by
// 60_mart_property_10_tables.sql. Also creates int_property_extra (empty) for the per-source steps, and
// int_property_fact_rows: per sales row (file, line) whose characteristics were read from another file (Denver's
// residential file, int_sale_fact_rows of 30_market_14), that file and line. Rules: warehouse/docs/property.md.
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { sqlString } from '../../warehouse/sql.ts';
import { SOURCES } from '../sources/registry.ts';

export const requires = ['sales', 'parcels', 'permits', 'distress'];

export async function run(ctx: StageContext): Promise<void> {
  await ctx.db.run(`create or replace table int_property_fact_rows as ${await tableExists(ctx.db, 'int_sale_fact_rows')
    ? 'select s.source, s.file, s.line, f.fact_file, f.fact_line from int_sale_fact_rows f join sales s using (sale_id)'
    : 'select null::varchar as source, null::varchar as file, null::bigint as line, null::varchar as fact_file, null::bigint as fact_line where false'}`);
  const files = await queryRows<{ source: string; file: string }>(ctx.db, `
    select distinct source, file from (
      select source, file from sales union all select source, file from parcels
      union all select source, file from permits union all select source, file from distress
      union all select source, fact_file from int_property_fact_rows)
    where file is not null order by 1, 2`);
  const vintage = new Map(SOURCES.map((s) => [s.id, s.vintage]));
  const root = path.resolve(ctx.paths.sources);
  const rows = files.map((f) => {
    const rel = path.isAbsolute(f.file) ? path.relative(root, f.file).split(path.sep).join('/') : f.file;
    return `(${sqlString(f.file)}, ${sqlString(rel)}, ${sqlString(f.source)}, ${vintage.has(f.source) ? sqlString(vintage.get(f.source)!) : 'null'})`;
  });
  await ctx.db.run('create or replace table int_property_files (file varchar, rel_file varchar, source varchar, vintage varchar)');
  if (rows.length) await ctx.db.run(`insert into int_property_files values ${rows.join(', ')}`);
  // facts some sources record beyond the canonical columns (lot area, the owner's mailing address), by file and
  // line; filled by the optional 60_mart_property_0x_<source>.sql steps, each skipped when its raw table is absent
  await ctx.db.run('create or replace table int_property_extra (file varchar, line bigint, lot_sqft double, mailing_street varchar, mailing_zip varchar)');
}
