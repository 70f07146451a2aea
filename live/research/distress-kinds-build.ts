// The distressed properties of each city by the kind of its filings, for the research index (live/research/build.ts
// -> market.json `distress_kinds`, read by distress-kinds.ts): "tax delinquent properties in Louisville" is answered
// with the tax-delinquent ones, not every kind's count (review 22: 42 of all kinds said where 35 are tax-delinquent).
// The rule is mart_investor's distressed_pipeline_count (30_mart_investor.sql), kept apart by `distress.kind`: the
// distinct properties with a filing of that kind in (distress_as_of - N months, distress_as_of], not closed by
// distress_as_of, distress_as_of the latest filing of the distress sources the city has. A property with filings of
// two kinds counts in each.
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';
import type { DistressKinds, DistressSources } from './permit-kinds.ts';
import type { MonthCounts } from './period-months.ts';


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

/** Each distress source's distinct open properties over every city it names together, by mart_investor's rule (a
 *  property is its source's parcel, else address and zip, else the filing; filed in (as_of - N months, as_of], as_of
 *  the source's latest filing; not closed by as_of), and how many cities it names: a county whose municipalities are all
 *  of one source's cities is that source's distinct count, not the sum of its municipalities' (county-distress.ts;
 *  review 29: Allegheny County's 24 months summed 1,312 where 1,310 properties are, 2 named in two municipalities). */
export async function distressSources(db: StageContext['db']): Promise<DistressSources> {
  const out: DistressSources = {};
  if (!(await tableExists(db, 'distress'))) return out;
  const rows = await queryRows<{ s: string; a: string; c: number; m: number; n: number | bigint }>(db, `
    with d as (
      select source, state_code, slug(city) as city_slug, filing_date, status, status_date,
             coalesce(source || ':' || parcel_id, source || ':' || address || '|' || coalesce(zip, ''), distress_id) as property_key
      from distress where city is not null and state_code is not null and slug(city) <> '' and filing_date is not null),
    ends as (select source, max(filing_date) as e, cast(count(distinct (state_code, city_slug)) as integer) as c from d group by source)
    select d.source as s, cast(ends.e as varchar) as a, ends.c, w.m, count(distinct d.property_key) as n
    from d join ends using (source) cross join (select cast(range as integer) as m from range(3, 25)) w
    where d.filing_date > ends.e - to_months(w.m) and d.filing_date <= ends.e
      and (d.status is distinct from 'closed' or d.status_date > ends.e)
    group by all order by 1, 4`);
  for (const r of rows) (out[r.s] ??= [r.a, Array<number>(22).fill(0), r.c])[1][r.m - 3] = Number(r.n);
  return out;
}

/** The filings of each city, and of each zip a filing records (`zip|<zip>`: Louisville's do, Allegheny's name only a
 *  municipality; a zip guessed from the point, `zip_imputed`, is not counted), by kind and calendar month of filing,
 *  from the place's first month with a filing, and each distress source's first and last filing date (what its file
 *  covers), for a year or months asked ("foreclosure filings in Louisville in 2015", "foreclosures in 40203 in 2014":
 *  distress-periods.ts). A filing is a row of `distress`: one case and one property it names (a case naming several
 *  parcels is a filing of each), counted in the month it was filed whatever became of it. */
export async function distressMonths(db: StageContext['db']): Promise<MonthCounts> {
  const out: MonthCounts = { places: {}, spans: {}, zips: true };
  if (!(await tableExists(db, 'distress'))) return out;
  const spans = await queryRows<{ s: string; a: string; b: string }>(db,
    'select source as s, cast(min(filing_date) as varchar) as a, cast(max(filing_date) as varchar) as b from distress where filing_date is not null group by 1 order by 1');
  for (const r of spans) out.spans[r.s] = [r.a, r.b];
  // the geography fill adds zip_imputed; a build without zips (no geography folders) has no such column
  const imputed = (await columnExists(db, 'distress', 'zip_imputed')) ? 'coalesce(zip_imputed, false)' : 'false';
  const rows = await queryRows<{ k: string; t: string; i: number; f: string; s: string; n: number | bigint }>(db, `
    with d as (select 'city|' || state_code || '|' || slug(city) as k, source, kind, filing_date from distress
               where city is not null and state_code is not null and slug(city) <> '' and filing_date is not null and kind is not null
               union all
               select 'zip|' || zip, source, kind, filing_date from distress
               where zip is not null and not ${imputed} and filing_date is not null and kind is not null),
    m as (select k, kind as t, date_trunc('month', filing_date) as mo, count(*) as n from d group by all),
    f as (select k, min(date_trunc('month', filing_date)) as m0, string_agg(distinct source, ',' order by source) as s from d group by k)
    select k, t, cast(datediff('month', f.m0, mo) as integer) as i, strftime(f.m0, '%Y-%m') as f, f.s, n
    from m join f using (k) order by k, t, i`);
  for (const r of rows) {
    const e = (out.places[r.k] ??= [r.f, r.s.split(','), {}]);
    const a = (e[2][r.t] ??= []);
    for (let j = a.length; j < r.i; j++) a[j] = 0;
    a[r.i] = Number(r.n);
  }
  return out;
}
