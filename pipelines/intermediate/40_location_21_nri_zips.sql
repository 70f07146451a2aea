-- requires: zips, int_nri_counties, stg_hud_crosswalk__zip_county
-- int_nri_zips: the NRI county of each zip of `zips` (warehouse/docs/location.md "NRI county of a zip"). The NRI county
-- table (~v1.18) predates two county changes, so a zip's current county (zips.county_fips) is not always in it:
--   current    the zip's county is in the NRI table (all but CT and two AK census areas)
--   hud        Connecticut's 2022 planning regions 09110-09190 replaced its 8 counties 09001-09015, which the NRI
--              keeps; the HUD-USPS crosswalk (2023 Q1) still keys CT zips to those old counties: the NRI county
--              with the largest share of the zip's addresses (max TOT_RATIO, as zips' own HUD rule)
--   nearest    a zip HUD does not list (no deliverable address in the quarter: PO-box and unique zips) takes the
--              NRI county of the nearest area zip (macro zip_is_area) of its current county that has one
--   successor  Chugach (02063) and Copper River (02066) Census Areas, AK, were made in 2019 of the whole of the
--              Valdez-Cordova Census Area (02261), the NRI's county (Census Bureau, "Substantial Changes to Counties
--              and County Equivalent Entities", effective 2019-01-02); EPA SEMS still files Valdez and Slana sites
--              under 02261, Redfin Glennallen under "Valdez-Cordova Census Area"
-- A zip none of these places has no row (its score leaves NRI out, and says so).
create or replace table int_nri_zips as
with successor(county_fips, nri_county_fips) as (
    values ('02063', '02261'), ('02066', '02261')
),
hud as (
    select zip,
        arg_max(county_fips, (coalesce(tot_ratio, 0), coalesce(res_ratio, 0), county_fips)) as nri_county_fips,
    from stg_hud_crosswalk__zip_county
    where county_fips in (select county_fips from int_nri_counties)
    group by zip
),
direct as (
    select z.zip, z.county_fips, z.lat, z.lng, z.is_zcta, z.centroid_source,
        case
            when z.county_fips in (select county_fips from int_nri_counties) then z.county_fips
            when s.nri_county_fips in (select county_fips from int_nri_counties) then s.nri_county_fips
            else h.nri_county_fips
        end as nri_county_fips,
        case
            when z.county_fips in (select county_fips from int_nri_counties) then 'current'
            when s.nri_county_fips in (select county_fips from int_nri_counties) then 'successor'
            when h.nri_county_fips is not null then 'hud'
        end as basis,
    from zips z
    left join successor s using (county_fips)
    left join hud h using (zip)
),
nearest as (
    select d.zip,
        arg_min(a.nri_county_fips, (power(d.lat - a.lat, 2) + power((d.lng - a.lng) * cos(radians(d.lat)), 2), a.zip)) as nri_county_fips,
    from direct d
    join direct a on a.county_fips = d.county_fips and a.nri_county_fips is not null and zip_is_area(a.is_zcta, a.centroid_source)
    where d.nri_county_fips is null and d.lat is not null
    group by d.zip
)
select d.zip, coalesce(d.nri_county_fips, n.nri_county_fips) as county_fips,
    coalesce(d.basis, case when n.nri_county_fips is not null then 'nearest' end) as basis,
from direct d
left join nearest n using (zip)
where coalesce(d.nri_county_fips, n.nri_county_fips) is not null
order by d.zip;
