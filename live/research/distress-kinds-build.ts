// The distressed properties of each city by the kind of its filings, for the research index (live/research/build.ts
// -> market.json `distress_kinds`, read by distress-kinds.ts): "tax delinquent properties in Louisville" is answered
// with the tax-delinquent ones, not every kind's count (review 22: 42 of all kinds said where 35 are tax-delinquent).
// The rule is mart_investor's distressed_pipeline_count (30_mart_investor.sql), kept apart by `distress.kind`: the
// distinct properties with a filing of that kind in (distress_as_of - N months, distress_as_of], not closed by
// distress_as_of, distress_as_of the latest filing of the distress sources the city has. A property with filings of
// two kinds counts in each.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import type { DistressKinds } from './permit-kinds.ts';


export async function distressKinds(db: StageContext['db']): Promise<DistressKinds> {
  const out: DistressKinds = {};
  if (!(await tableExists(db, 'distress'))) return out;
  const rows = await queryRows<{ k: string; a: string; t: string; m: number; n: number | bigint }>(db, `
    with d as (
      select source, state_code, slug(city) as city_slug, kind, filing_date, status, status_date,
             coalesce(source || ':' || parcel_id, source || ':' || address || '|' || coalesce(zip, ''), distress_id) as property_key
      from distress where city is not null and state_code is not null and slug(city) <> '' and filing_date is not null),
    ends as (select source, max(filing_date) as e from d group by source),
    city_end as (select state_code, city_slug, max(e) as as_of from (select distinct state_code, city_slug, source from d) join ends using (source) group by all)
    select 'city|' || state_code || '|' || city_slug as k, cast(c.as_of as varchar) as a, d.kind as t, w.m, count(distinct d.property_key) as n
    from d join city_end c using (state_code, city_slug) cross join (select cast(range as integer) as m from range(3, 25)) w
    where d.kind is not null and d.filing_date > c.as_of - to_months(w.m) and d.filing_date <= c.as_of
      and (d.status is distinct from 'closed' or d.status_date > c.as_of)
    group by all order by 1, 3, 4`);
  for (const r of rows) {
    const e = (out[r.k] ??= [r.a, {}]);
    (e[1][r.t] ??= Array<number>(22).fill(0))[r.m - 3] = Number(r.n);
  }
  return out;
}
