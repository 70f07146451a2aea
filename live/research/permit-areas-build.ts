// The Chicago community areas' building permits for the research index (live/research/build.ts -> places.json
// `permit_areas`, read by permit-areas.ts): the Chicago permits file names each permit's community area (77 areas;
// ../shared/data/chicago-building-permits/SOURCE.md), a place the sales, trends and investor figures do not keep. Per
// area, the permits the build kept (the canonical permits table: cancelled, revoked and repeated permits left out,
// 30_market_21_permits_chicago.sql) issued in the 12 months to the file's last issue date, by canonical type, and the
// reported cost of the renovation/alteration permits.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';

/** [area, state, city, as_of, all permits, renovation/alteration, new construction, demolition, repair and addition,
 *  renovation reported cost] over the 12 months to as_of. */
export type PermitArea = [name: string, state: string, city: string, asOf: string, all: number, renovation: number, built: number, demolished: number, repair: number, renovationCost: number];

export async function permitAreas(db: StageContext['db']): Promise<PermitArea[]> {
  if (!(await tableExists(db, 'stg_chicago__permits')) || !(await tableExists(db, 'permits'))) return [];
  const rows = await queryRows<{ n: string; a: string; all: number; r: number; b: number; d: number; p: number; c: number }>(db, `
    with area as (select 'chicago:' || permit_number as permit_id, any_value(community_area_name) as n
                  from stg_chicago__permits where community_area_name is not null group by 1),
    p as (select p.*, area.n from permits p join area using (permit_id) where p.source = 'chicago'),
    e as (select max(issue_date) as as_of from p)
    select n, cast(e.as_of as varchar) as a, count(*)::int as "all",
           count(*) filter (where permit_type = 'renovation')::int as r, count(*) filter (where permit_type = 'new')::int as b,
           count(*) filter (where permit_type = 'demolition')::int as d, count(*) filter (where permit_type in ('repair', 'addition'))::int as p,
           coalesce(sum(valuation) filter (where permit_type = 'renovation'), 0)::double as c
    from p cross join e where issue_date > e.as_of - interval 12 month group by n, e.as_of order by n`);
  return rows.map((r) => [r.n, 'IL', 'Chicago', r.a, r.all, r.r, r.b, r.d, r.p, r.c]);
}
