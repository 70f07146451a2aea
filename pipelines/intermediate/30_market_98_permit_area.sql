-- requires: int_market_zip_permits, stg_hud_crosswalk__zip_county
-- int_market_permit_area: for each zip with permits that count in it, the share of the zip's residential addresses
-- inside the county its permit source covers (HUD-USPS ZIP-county crosswalk, 2023 Q1, RES_RATIO; a zip with no
-- residential address in the crosswalk reads TOT_RATIO). Nashville's permits are Metro Nashville's (Davidson County,
-- 47037); Chicago's are the City of Chicago's, inside Cook County (17031): the county is the finest area the crosswalk
-- gives, so a Chicago zip partly outside the city reads its Cook share (market.md "Permit source area").
-- covered_share is null for a zip the crosswalk does not list (no address share to read).
-- mart_rehab scores a zip's permit components only where covered_share >= 0.5, over covered_share of its housing units.
create or replace table int_market_permit_area as
with source_area(source, county_fips, area_name) as (
    values ('nashville', '47037', 'Davidson County, TN'), ('chicago', '17031', 'Cook County, IL')
),
zs as (select distinct zip, source from int_market_zip_permits),
xw as (
    select zip, county_fips, case when sum(res_ratio) over (partition by zip) > 0 then res_ratio else tot_ratio end as ratio
    from stg_hud_crosswalk__zip_county
)
select zs.zip, zs.source, a.area_name,
       case when count(xw.zip) > 0 then coalesce(sum(xw.ratio) filter (where xw.county_fips = a.county_fips), 0) end as covered_share
from zs join source_area a using (source)
left join xw on xw.zip = zs.zip
group by all;
