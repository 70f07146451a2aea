// The owners of a place's properties counted for research (owner-counts.ts), written into market.json `owners` by
// build.ts: per city and zip and per source whose records name owners (Philadelphia's OPA extract, Denver's deeds, a
// canonical parcels.csv `owner_name` or the latest grantee), the properties, those with a named owner by owner type,
// the absentee owners (`absentee_owner`, warehouse/docs/property.md: the mailing street or zip is not the property's)
// and the owners mailed out of the property's state (the mailing state of int_property_extra, the owner's row: OPA's
// mailing_city_state). Every figure is the `properties` table's (GET /v1/property), counted; none is estimated.
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';
import { OWNER_TYPES, type OwnerCount, type OwnerCounts, type OwnerType } from './owner-types.ts';

interface Row {
  k: string; source: string; properties: number | bigint; named: number | bigint; absentee_known: number | bigint;
  absentee: number | bigint; state_known: number | bigint; out_of_state: number | bigint; latest: string | null;
}

/** The owner counts of every city and zip with a property whose owner a source names; null without the tables. */
export async function ownerCounts(db: StageContext['db']): Promise<OwnerCounts | null> {
  if (!(await tableExists(db, 'properties')) || !(await tableExists(db, 'property_lineage'))) return null;
  // the owner's row (the one carrying owner_name, whose mailing address absentee_owner read) and its mailing state
  const extra = (await columnExists(db, 'int_property_extra', 'mailing_state')) && (await tableExists(db, 'int_property_files'))
    ? `left join property_lineage l on l.property_id = p.property_id and l.field = 'owner_name' and l.status = 'chosen'
       left join int_property_files f on f.rel_file = l.file
       left join (select file, line, max(mailing_state) as mailing_state from int_property_extra group by all) x
              on x.file = f.file and x.line = l.line`
    : 'left join (select null as mailing_state) x on true';
  const keyed = `
    o as (
      select p.source, p.state, p.city, p.zip, p.owner_name, p.owner_type, p.absentee_owner, p.last_sale_date, x.mailing_state
      from properties p ${extra}
      where p.source in (select distinct source from properties where owner_name is not null)),
    keyed as (
      select 'city|' || state || '|' || slug(city) as k, * from o where city is not null and state is not null
      union all select 'zip|' || zip as k, * from o where zip is not null)`;
  const rows = await queryRows<Row>(db, `
    with ${keyed}
    select k, source, count(*) as properties, count(owner_name) as named,
           count(absentee_owner) as absentee_known, count(*) filter (where absentee_owner) as absentee,
           count(mailing_state) filter (where owner_name is not null) as state_known,
           count(*) filter (where owner_name is not null and mailing_state <> state) as out_of_state,
           cast(max(last_sale_date) filter (where owner_name is not null) as varchar) as latest
    from keyed group by k, source having count(owner_name) > 0 order by k, source`);
  const typed = await queryRows<{ k: string; source: string; t: string; n: number | bigint }>(db, `
    with ${keyed}
    select k, source, owner_type as t, count(*) as n from keyed where owner_name is not null and owner_type is not null group by all`);
  const typesOf = new Map<string, Record<OwnerType, number>>();
  for (const r of typed) {
    const types = typesOf.get(`${r.k}#${r.source}`) ?? (Object.fromEntries(OWNER_TYPES.map((t) => [t, 0])) as Record<OwnerType, number>);
    if ((OWNER_TYPES as readonly string[]).includes(r.t)) types[r.t as OwnerType] = Number(r.n);
    typesOf.set(`${r.k}#${r.source}`, types);
  }
  const places: Record<string, OwnerCount[]> = {};
  for (const r of rows) {
    (places[r.k] ??= []).push({
      source: r.source, properties: Number(r.properties), named: Number(r.named),
      types: typesOf.get(`${r.k}#${r.source}`) ?? (Object.fromEntries(OWNER_TYPES.map((t) => [t, 0])) as Record<OwnerType, number>),
      absentee_known: Number(r.absentee_known), absentee: Number(r.absentee),
      state_known: Number(r.state_known), out_of_state: Number(r.out_of_state), latest_sale: r.latest,
    });
  }
  const cities = await queryRows<{ c: string }>(db, `
    with ${keyed}
    select any_value(city) || ', ' || state as c from keyed where k like 'city|%' and owner_name is not null
    group by k, state order by count(*) desc, c`);
  return { places, cities: cities.map((r) => r.c) };
}
