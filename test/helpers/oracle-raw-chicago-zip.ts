// A recount of the Chicago permit file's permits per zip, straight from the RAW files (market.md "Zips guessed from
// coordinates", "Residential rehab"): each permit at the nearest Census Gazetteer internal point among the ZCTAs the
// City of Chicago overlaps (us_geo zcta_places, land > 0; coordinates rounded to 4 decimals), its kind and its
// building's use by the documented rules, in this file's own SQL. Used by the rehab 404 tests
// (test/api/rehab-other-city.test.ts, test/api/h77-chicago-nonresidential-raw.test.ts).
import { dataFile, rawQuery } from './oracle-raw-comps.ts';
import { CHICAGO_KIND } from './oracle-raw-permits.ts';

export interface ChicagoZipCounts { zip: string; months: number; n: number; first: string; last: string; all: number; types: number; res: number }

/** Each zip's Chicago permits (placed at the nearest Chicago ZCTA's internal point) over the whole file (`n`) and, per
 *  window of `months`, in the `months` to the file's last permit: every type and use (`all`), of a rehab type
 *  (`types`), residential rehab (`res`: a stated unit count, dwelling words, else the address's other permits' vote; a
 *  use named by none counts when it cost $500,000 or less). A zip with no permit in a window has its row, at 0. */
export async function chicagoZipPermits(months: number[]): Promise<ChicagoZipCounts[]> {
  return rawQuery<ChicagoZipCounts>(`
    with g as (select trim(GEOID) as zip, INTPTLAT::double as lat, trim(INTPTLONG)::double as lng
               from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', delim = '|', all_varchar = true)),
    cz as (select * from g where zip in (select lpad(ZCTA5, 5, '0') from read_csv('${dataFile('usgeo-census-tables/zcta_places.csv.gz')}', all_varchar = true)
                                         where "Place GEOID" = '1714000' and try_cast("Land Area" as double) > 0)),
    raw as (select *, row_number() over () as rn from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)),
    firsts as (select trim(permit_number) as pn, permit_status as ps, permit_type, work_type, try_cast(issue_date as date) as d, address,
                      try_cast(reported_cost as double) as cost, round(try_cast(latitude as double), 4) as lat, round(try_cast(longitude as double), 4) as lng,
                      upper(coalesce(work_description, '')) as wd
               from raw qualify row_number() over (partition by trim(permit_number) order by rn) = 1),
    worded as (select *, ${CHICAGO_KIND} as kind,
        regexp_replace(wd, '\\b0 (DWELLING|RESIDENTIAL) UNITS?(\\(S\\))?|NON-? ?RESIDENTIAL', ' NONRESIDENTIAL ', 'g') as ut,
        try_cast(nullif(regexp_extract(wd, '(AFFECTS|LOCATIONS?):\\s*(\\d+) (DWELLING|RESIDENTIAL) UNITS?(\\(S\\))?[;,]?\\s*((\\d+) NON-? ?RESIDENTIAL)?', 2), '') as integer) as sd,
        try_cast(nullif(regexp_extract(wd, '(AFFECTS|LOCATIONS?):\\s*(\\d+) (DWELLING|RESIDENTIAL) UNITS?(\\(S\\))?[;,]?\\s*((\\d+) NON-? ?RESIDENTIAL)?', 6), '') as integer) as snd,
        regexp_replace(upper(trim(address)), '\\s+', ' ', 'g') as ak
      from firsts),
    used as (select *, case when sd > 0 then 'residential' when sd = 0 and snd > 0 then 'nonresidential'
        when regexp_matches(ut, '\\b(ANTENNAS?|WIRELESS|TELECOM\\w*|CELL SITE|RADIO UNITS?)\\b') then 'nonresidential'
        when regexp_matches(ut, '\\b(RESIDEN\\w*|DWELLINGS?|D\\.?U\\.?S?|APARTMENTS?|APTS?|CONDO\\w*|SINGLE[- ]FAMILY|TWO[- ]FLAT|\\d[- ]?FLATS?|TOWN ?HOMES?|TOWN ?HOUSES?|COACH ?HOUSE|BEDROOMS?|BATHROOMS?|PORCH(ES)?|DORMERS?|MULTI[- ]?FAMILY|R-?[2-5]|R[STM]-?\\d)\\b') then 'residential'
        when regexp_matches(ut, '\\b(OFFICES?|TENANTS?|RETAIL|STORES?|RESTAURANTS?|CAFE|COFFEE|TAVERN|HOTEL|BANK|SCHOOL|HOSPITAL|CHURCH|WAREHOUSE|INDUSTRIAL|COMMERCIAL|SUITES?|CLINIC|MEDICAL|GYM|FITNESS|SALON|BUSINESS|MERCANTILE|ASSEMBLY|LAB|LABORATORY|UNIVERSITY|FACTORY|MANUFACTURING|SHOP|FOOD|NONRESIDENTIAL|(OCCUPANCY|USE GROUP|OCC\\.?)( GROUP| TYPE| CLASSIFICATION)?:? ?[ABEFHIMS](-?\\d)?)\\b') then 'nonresidential' end as du
      from worded),
    votes as (select ak, count(*) filter (where du = 'residential') as vr, count(*) filter (where du = 'nonresidential') as vn from used where coalesce(ak, '') <> '' group by ak),
    kept as (select u.*, coalesce(du, case when vr > vn then 'residential' when vn > vr then 'nonresidential' end) as buse
             from used u left join votes using (ak) where coalesce(ps, '') not in ('CANCELLED', 'REVOKED') and d is not null),
    near as (select p.lat, p.lng, arg_min(c.zip, pow(c.lat - p.lat, 2) + pow((c.lng - p.lng) * cos(radians(p.lat)), 2)) as zip
             from (select distinct lat, lng from kept where lat is not null) p, cz c where abs(c.lat - p.lat) < 0.15 and abs(c.lng - p.lng) < 0.2 group by all),
    placed as (select k.*, n.zip from kept k join near n using (lat, lng)),
    span as (select min(d) as first, max(d) as last from kept),
    m as (select unnest([${months.join(', ')}]) as months)
    select placed.zip, m.months, count(*)::int as n, any_value(span.first)::varchar as first, any_value(span.last)::varchar as last,
           (count(*) filter (where d > span.last - to_months(m.months)))::int as "all",
           (count(*) filter (where d > span.last - to_months(m.months) and kind in ('renovation', 'addition', 'repair')))::int as types,
           (count(*) filter (where d > span.last - to_months(m.months) and kind in ('renovation', 'addition', 'repair')
              and case when buse is null then coalesce(cost, 0) <= 500000 else buse = 'residential' end))::int as res
    from placed, span, m group by all order by placed.zip, m.months`);
}
