// Residential rehab permits read from the RAW Nashville and Chicago permit files with the tests' own SQL (plain DuckDB,
// never the build's adapters or macros), by warehouse/docs/market.md "Residential rehab" and "Source adapters": the
// CTEs end in `rehab` (one row per rehab-type permit kept: `id`, `cost`, `no_zip`, `issued`, `residential`, and
// Nashville's `raw_zip` or Chicago's rounded point `lat`, `lng`). Chicago's file has no zip: `chicagoZips` places a
// point as market.md "Zips guessed from coordinates" states it (the nearest internal point, 2025 Gazetteer, of the
// ZCTAs the City of Chicago, Census place 1714000, overlaps with land in us_geo `zcta_places`; the point rounded to 4
// decimals), with a haversine distance of the test's own (the build measures an equirectangular one).
// Used by test/pipelines/market-rehab-use-build.test.ts (the mart's zips) and test/api/rehab-permits-raw.test.ts.
import { dataFile, rawQuery } from './oracle-raw-comps.ts';

/** Nashville: a rehab type (Rehab, Addition, Roofing/Siding, Fire Damage; a Tenant Finish Out builds out a shell: new
 *  construction, market.md "Residential rehab") whose subtype names a dwelling, or whose subtype is generic (accessory
 *  structure, detached garage, addition, master permit, none) under a "Building Residential" type; a permit number's
 *  first row only (the adapter rejects a repeated number). The date is the application's (epoch milliseconds, UTC). */
export const NASHVILLE_REHAB_CTES = () => `
  with raw as (
    select trim(Permit__) as id, lower(trim(Permit_Type_Description)) as t, lower(coalesce(trim(Permit_Subtype_Description), '')) as st,
           try_cast(Const_Cost as double) as cost, coalesce(trim(ZIP), '') = '' as no_zip,
           nullif(trim(ZIP), '') as raw_zip, make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date as issued,
           row_number() over (partition by trim(Permit__) order by rn) as k
    from (select *, row_number() over () as rn from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true))
  ),
  rehab as (
    select id, cost, no_zip, raw_zip, issued,
      regexp_matches(st, 'single family|duplex|multifamily|townhome|condominium|apartment|dwelling|mobile home|boarding house|group home|fraternity')
      or ((st = '' or regexp_matches(st, '^(accessory|detached garage|addition$|master permit)')) and t like 'building residential%') as residential
    from raw where k = 1 and regexp_matches(t, 'rehab|addition|roofing|fire damage')
  )`;

/** Chicago: a rehab type (RENOVATION/ALTERATION, EASY PERMIT, express repair work, express detached garage), not
 *  cancelled or revoked; residential by its work description (the express form's stated units first: a dwelling unit
 *  affected, yes; none but a non-residential unit, not; then "0 dwelling units" and "non-residential" read as a
 *  business word; telecom words first: not; then a dwelling word: yes; then a business word: not); a description that
 *  names neither takes the use named by more of the file's permits at its address; else it counts when its declared
 *  cost is $500,000 or less. */
export const CHICAGO_REHAB_CTES = () => `
  with raw as (
    select trim(permit_number) as id, try_cast(reported_cost as double) as cost, true as no_zip, try_cast(issue_date as date) as issued,
           round(try_cast(latitude as double), 4) as lat, round(try_cast(longitude as double), 4) as lng,
           regexp_replace(upper(coalesce(work_description, '')), '\\b0 (DWELLING|RESIDENTIAL) UNITS?(\\(S\\))?|NON-? ?RESIDENTIAL', ' NONRESIDENTIAL ', 'g') as d, permit_type as t, work_type as wt,
           -- the form's "AFFECTS: <n> DWELLING UNITS; <m> NON-RESIDENTIAL UNITS" / "LOCATIONS: <n> RESIDENTIAL UNIT(S), <m> NON-RESIDENTIAL UNIT(S)"
           try_cast(regexp_extract(upper(work_description), '(AFFECTS|LOCATIONS?): *([0-9]+) (DWELLING|RESIDENTIAL) UNIT', 2) as int) as form_homes,
           try_cast(regexp_extract(upper(work_description), '(AFFECTS|LOCATIONS?): *[0-9]+ (DWELLING|RESIDENTIAL) UNIT(S|\\(S\\))?[;,]? *([0-9]+) NON-?RESIDENTIAL', 4) as int) as form_others,
           coalesce(permit_status, '') in ('CANCELLED', 'REVOKED') as cancelled, nullif(regexp_replace(upper(trim(address)), '\\s+', ' ', 'g'), '') as addr
    from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)
  ),
  named as (
    select *,
      case when form_homes > 0 then 'r' when form_homes = 0 and form_others > 0 then 'n'
           when regexp_matches(d, '\\b(ANTENNAS?|WIRELESS|TELECOM\\w*|CELL SITE|RADIO UNITS?)\\b') then 'n'
           when regexp_matches(d, '\\b(RESIDEN\\w*|DWELLINGS?|D\\.?U\\.?S?|APARTMENTS?|APTS?|CONDO\\w*|SINGLE[- ]FAMILY|TWO[- ]FLAT|\\d[- ]?FLATS?|TOWN ?HOMES?|TOWN ?HOUSES?|COACH ?HOUSE|BEDROOMS?|BATHROOMS?|PORCH(ES)?|DORMERS?|MULTI[- ]?FAMILY|R-?[2-5]|R[STM]-?\\d)\\b') then 'r'
           when regexp_matches(d, '\\b(OFFICES?|TENANTS?|RETAIL|STORES?|RESTAURANTS?|CAFE|COFFEE|TAVERN|HOTEL|BANK|SCHOOL|HOSPITAL|CHURCH|WAREHOUSE|INDUSTRIAL|COMMERCIAL|SUITES?|CLINIC|MEDICAL|GYM|FITNESS|SALON|BUSINESS|MERCANTILE|ASSEMBLY|LAB|LABORATORY|UNIVERSITY|FACTORY|MANUFACTURING|SHOP|FOOD|NONRESIDENTIAL|(OCCUPANCY|USE GROUP|OCC\\.?)( GROUP| TYPE| CLASSIFICATION)?:? ?[ABEFHIMS](-?\\d)?)\\b') then 'n'
      end as named
    from raw
  ),
  by_address as (
    -- every permit of the file at an address (cancelled ones too) says what the building is
    select addr, count(*) filter (where named = 'r') as r, count(*) filter (where named = 'n') as n from named where addr is not null group by addr
  ),
  rehab as (
    select id, cost, no_zip, issued, lat, lng,
      case when named is not null then named = 'r' when a.r > a.n then true when a.r < a.n then false else coalesce(cost, 0) <= 500000 end as residential
    from named left join by_address a using (addr)
    where not cancelled and (t like '%RENOVATION/ALTERATION%' or t like '%EASY PERMIT%'
       or (t like '%EXPRESS PERMIT%' and wt in ('Reroofing', 'Masonry Work', 'Porch,Deck,Balcony,or Fire Escape', 'Exterior Windows/Doors Replacement',
           'Nonstructural Interior Work', 'Plumbing Work', 'Electrical Work', 'Mechanical Work', 'Detached Frame Garage')))
  )`;

/** One row per rounded Chicago permit point with the zip it falls in (the nearest Chicago ZCTA internal point). */
export const CHICAGO_POINT_ZIPS = () => `(
  with z as (
    select trim(g.GEOID) as zip, try_cast(g.INTPTLAT as double) as zlat, try_cast(trim(g.INTPTLONG) as double) as zlng
    from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', delim = '|', header = true, all_varchar = true) g
    join read_csv('${dataFile('usgeo-census-tables/zcta_places.csv.gz')}', all_varchar = true) p on trim(p.ZCTA5) = trim(g.GEOID)
    where trim(p."Place GEOID") = '1714000' and try_cast(p."Land Area" as double) > 0),
  pts as (select distinct round(try_cast(latitude as double), 4) as lat, round(try_cast(longitude as double), 4) as lng
    from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true) where try_cast(latitude as double) is not null)
  select lat, lng, arg_min(zip, asin(sqrt(pow(sin(radians(zlat - lat) / 2), 2) + cos(radians(lat)) * cos(radians(zlat)) * pow(sin(radians(zlng - lng) / 2), 2)))) as zip
  from pts, z group by lat, lng)`;

export interface RawRehabCount { zip: string; months: number; end: string; rehab: number; valued: number; value: number; last30: number; prior30: number }

/** Residential rehab permits per zip of `zips` over the `months` to the source's last kept permit (the rehab score's
 *  permit window, market.md mart_rehab "Window"), those declaring a cost (over $0) and their sum, and the 30-day counts of the trend (the last 30 days to that day, the
 *  30 before them). */
export async function rawRehabCounts(source: 'nashville' | 'chicago', zips: string[], months: number[]): Promise<RawRehabCount[]> {
  const ctes = source === 'nashville'
    ? `${NASHVILLE_REHAB_CTES()}, kept as (select rehab.*, raw_zip as zip from rehab)`
    : `${CHICAGO_REHAB_CTES()}, kept as (select rehab.*, z.zip from rehab left join ${CHICAGO_POINT_ZIPS()} z using (lat, lng))`;
  // the window ends at the last permit the adapter keeps, of any kind (Nashville: every dated application)
  const last = source === 'nashville'
    ? `(select max(make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date) from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true))`
    : `(select max(try_cast(issue_date as date)) from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true) where coalesce(permit_status, '') not in ('CANCELLED', 'REVOKED'))`;
  return rawQuery<RawRehabCount>(`${ctes}, e as (select ${last} as end_day), m(months) as (values ${months.map((m) => `(${m})`).join(', ')})
    select k.zip, m.months, strftime(e.end_day, '%Y-%m-%d') as "end",
      count(*) filter (where k.issued > e.end_day - to_months(m.months) and k.issued <= e.end_day)::int as rehab,
      count(*) filter (where k.issued > e.end_day - to_months(m.months) and k.issued <= e.end_day and k.cost > 0)::int as valued,
      coalesce(sum(k.cost) filter (where k.issued > e.end_day - to_months(m.months) and k.issued <= e.end_day and k.cost > 0), 0)::double as value,
      count(*) filter (where k.issued > e.end_day - 30 and k.issued <= e.end_day)::int as last30,
      count(*) filter (where k.issued > e.end_day - 60 and k.issued <= e.end_day - 30)::int as prior30
    from kept k, e, m where k.residential and k.zip in (${zips.map((z) => `'${z}'`).join(', ')})
    group by k.zip, m.months, e.end_day order by k.zip, m.months`);
}
