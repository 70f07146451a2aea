// The building permits of each zip and city by kind, for the research index (live/research/build.ts -> market.json
// `permit_counts`, read by permit-counts.ts): "how many renovation permits were issued in 37206 over the last 12
// months" is answered with the count, not the rehab score alone (review 22). A zip counts the permits of its rehab
// measures (int_market_zip_permits: a permit whose zip was guessed only in a zip of its own city); a city, every permit
// its source places in it (`permits`: cancelled, revoked and repeated permits already left out by the source's model).
// Each window of 1..24 months runs to where the permit sources of the place end (their latest issue date, as the rehab
// score's permits_window), (as_of - N months, as_of]. permitMonths: the same permits by calendar month, and the first
// and last issue date of each source's records, for a year or months asked ("permits in 37206 in 2023"), and each
// county's permits by where they are (session 26: by the city a permit gives, Davidson County's 2023 missed the 29
// Nashville permits mailed to Brentwood, Nolensville, Pegram, Ashland City, La Vergne and Mount Juliet, and Williamson
// County got 21): a permit counts in its file's own county where its staging view declares one (Nashville's), else in
// its zip's county (zips.county_fips: the HUD-USPS crosswalk county holding most of the zip's addresses).
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import type { DateWord, PermitCounts, PermitKind, PermitMonths, PermitSource } from './permit-kinds.ts';


export async function permitCounts(db: StageContext['db']): Promise<PermitCounts> {
  const out: PermitCounts = {};
  if (!(await tableExists(db, 'permits'))) return out;
  // r: the residential rehab permits among them, by the rehab score's own test (is_residential_rehab, warehouse/macros.sql:
  // a renovation, addition or repair on a residential building, or recording no use at a declared cost <= $500,000), so
  // "residential rehab permits in 60623" is the score's counts.rehab_permits (review 29: 372 of every use were said)
  const rows = await queryRows<{ k: string; a: string; s: string; t: string; m: number; n: number | bigint; r: number | bigint }>(db, `
    with ends as (select source, max(issue_date) as d from permits group by source),
    placed as (${await placed(db, await permitSources(db))}),
    key_end as (select k, max(e.d) as as_of, string_agg(distinct p.source, ',' order by p.source) as s from placed p join ends e using (source) group by k)
    select p.k, cast(ke.as_of as varchar) as a, ke.s, p.permit_type as t, w.m, count(*) as n,
           count(*) filter (where is_residential_rehab(p.permit_type, p.building_use, p.valuation)) as r
    from placed p join key_end ke using (k) cross join (select cast(range as integer) as m from range(1, 25)) w
    where p.issue_date > ke.as_of - to_months(w.m) and p.issue_date <= ke.as_of and p.permit_type is not null
    group by all order by 1, 4, 5`);
  for (const r of rows) {
    const e = (out[r.k] ??= [r.a, r.s.split(','), {}, {}]);
    const kind = r.t as PermitKind;
    (e[2][kind] ??= Array<number>(24).fill(0))[r.m - 1] = Number(r.n);
    if (Number(r.r) > 0) (e[3]![kind] ??= Array<number>(24).fill(0))[r.m - 1] = Number(r.r);
  }
  return out;
}

/** What each permit source's dates are and the county it declares, as its adapter declares them (table
 *  `permit_sources`, pipelines/intermediate/30_market_00_canonical_tables.sql); a source that declares neither:
 *  issued, no county (a city area, Chicago, gives no county: a permit's county is then its zip's). */
export async function permitSources(db: StageContext['db']): Promise<Record<string, PermitSource>> {
  const out: Record<string, PermitSource> = {};
  if (!(await tableExists(db, 'permits'))) return out;
  const declared = await tableExists(db, 'permit_sources');
  const rows = await queryRows<{ source: string; w: string | null; c: string | null }>(db, declared
    ? `select p.source, d.date_word as w, case when d.area_kind = 'county' then d.area_code end as c
       from (select distinct source from permits) p left join permit_sources d using (source) order by 1`
    : 'select distinct source, null as w, null as c from permits order by 1');
  for (const r of rows) out[r.source] = { word: (r.w ?? 'issued') as DateWord, county: r.c ?? null };
  return out;
}

/** Each permit with its place keys: a zip by the rehab measures' rule, a city by its source's, a county by where the
 *  permit is (its file's declared county, else its zip's). */
async function placed(db: StageContext['db'], sources: Record<string, PermitSource>): Promise<string> {
  const zipTable = (await tableExists(db, 'int_market_zip_permits')) ? 'int_market_zip_permits' : 'permits';
  const declared = Object.entries(sources).filter(([, d]) => d.county && /^\d{5}$/.test(d.county)).map(([s, d]) => `when '${s.replaceAll("'", "''")}' then '${d.county}'`);
  const zipCounty = (await tableExists(db, 'zips')) ? '(select z.county_fips from zips z where z.zip = p.zip)' : 'null';
  return `select 'zip|' || zip as k, source, permit_type, issue_date, building_use, valuation from ${zipTable} where zip is not null
      union all
      select 'city|' || state_code || '|' || slug(city), source, permit_type, issue_date, building_use, valuation from permits
      where city is not null and state_code is not null and slug(city) <> ''
      union all
      select * from (select 'county|' || ${declared.length ? `coalesce(case p.source ${declared.join(' ')} end, ${zipCounty})` : zipCounty} as k,
        p.source, p.permit_type, p.issue_date, p.building_use, p.valuation from permits p) where k is not null`;
}

/** The permits of each zip and city by kind and calendar month of issue, from the place's first month with a permit
 *  (and by kind within the building use the records name: `residential`, `nonresidential`);
 *  and each source's first and last issue date (what its file covers: a year or month outside them has no count). */
export async function permitMonths(db: StageContext['db']): Promise<PermitMonths> {
  const out: PermitMonths = { places: {}, spans: {}, uses: true, sources: await permitSources(db) };
  if (!(await tableExists(db, 'permits'))) return out;
  const spans = await queryRows<{ s: string; a: string; b: string }>(db,
    'select source as s, cast(min(issue_date) as varchar) as a, cast(max(issue_date) as varchar) as b from permits where issue_date is not null group by 1 order by 1');
  for (const r of spans) out.spans[r.s] = [r.a, r.b];
  // by kind, and by kind within each building use the permit records (residential where the question says so)
  const rows = await queryRows<{ k: string; t: string; u: string | null; i: number; f: string; s: string; n: number | bigint }>(db, `
    with p as (select * from (${await placed(db, out.sources!)}) where issue_date is not null and permit_type is not null),
    m as (select k, permit_type as t, building_use as u, date_trunc('month', issue_date) as mo, count(*) as n from p group by all),
    f as (select k, min(date_trunc('month', issue_date)) as m0, string_agg(distinct source, ',' order by source) as s from p group by k)
    select k, t, u, cast(datediff('month', f.m0, mo) as integer) as i, strftime(f.m0, '%Y-%m') as f, f.s, n
    from m join f using (k) order by k, t, i`);
  const add = (by: Partial<Record<PermitKind, number[]>>, t: string, i: number, n: number): void => {
    const a = (by[t as PermitKind] ??= []);
    for (let j = a.length; j <= i; j++) a[j] = 0;
    a[i]! += n;
  };
  for (const r of rows) {
    const e = (out.places[r.k] ??= [r.f, r.s.split(','), {}]);
    add(e[2], r.t, r.i, Number(r.n));
    if (r.u === 'residential' || r.u === 'nonresidential') add((e[3] ??= {})[r.u] ??= {}, r.t, r.i, Number(r.n));
  }
  return out;
}
