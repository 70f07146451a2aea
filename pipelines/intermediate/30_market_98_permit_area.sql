-- requires: int_market_zip_permits, int_market_housing_units, stg_hud_crosswalk__zip_county, stg_usgeo__zcta_places, stg_usgeo__zctas, stg_usgeo__places
-- int_market_permit_area: for each zip with permits that count in it, the share of the zip inside the area its permit
-- source covers (market.md "Permit source area"). The area is declared here, per source, as a county or a city:
--   county (Nashville: Metro Nashville-Davidson, a consolidated city-county, so Davidson County 47037): the share of
--     the zip's residential addresses in the county (HUD-USPS ZIP-county crosswalk, 2023 Q1, RES_RATIO; a zip with no
--     residential address in the crosswalk reads TOT_RATIO); null for a zip the crosswalk does not list.
--   place (Chicago: the City of Chicago's Department of Buildings permits, Census place 1714000, not Cook County): the
--     share of the zip's homes inside the place. No file gives a zip's homes by city, so it is estimated from the
--     Census 2020 ZCTA-place relationship (us_geo zcta_places: the land of each place in the ZCTA) and ACS 2023 5-year
--     housing units: the homes of the zip outside the city are each other place's part at that place's own density
--     (us_geo places: housing units over land; Bedford Park's industrial 3.8 sq mi of 60638 hold about 130 homes) and
--     the zip's land in no place at the zip's mean density (its ACS housing units over its land); the city holds the
--     rest of the zip's housing units (int_market_housing_units), cut to 0..1. A place of the city's own density
--     would be wrong the other way (O'Hare's 7.9 sq mi of 60018 hold no home). Null for a zip without housing units or
--     land. Before, Chicago read Cook County (17031): every Chicago zip 100%, though 60638 (Bedford Park, Forest
--     View), 60633 (Burnham) and others lie partly outside the city.
-- share_basis words the share for the note ("... which holds <p>% <share_basis>").
-- mart_rehab scores a zip's permit components only where covered_share >= 0.5, over covered_share of its housing units.
create or replace table int_market_permit_area as
with source_area(source, area_kind, area_code, area_name) as (
    values ('nashville', 'county', '47037', 'Davidson County, TN'), ('chicago', 'place', '1714000', 'the City of Chicago, IL')
),
zs as (select distinct zip, source from int_market_zip_permits),
xw as (
    select zip, county_fips, case when sum(res_ratio) over (partition by zip) > 0 then res_ratio else tot_ratio end as ratio
    from stg_hud_crosswalk__zip_county
),
county_share as (
    select zs.zip, zs.source,
           case when count(xw.zip) > 0 then coalesce(sum(xw.ratio) filter (where xw.county_fips = a.area_code), 0) end as covered_share
    from zs join source_area a using (source)
    left join xw on xw.zip = zs.zip
    where a.area_kind = 'county'
    group by all
),
place_zip as (
    select zs.zip, zs.source, a.area_code, h.housing_units as hu, z.land_area_sqmi as land,
           h.housing_units / nullif(z.land_area_sqmi, 0) as zip_density
    from zs join source_area a using (source)
    left join int_market_housing_units h on h.zip = zs.zip
    left join stg_usgeo__zctas z on z.zcta = zs.zip
    where a.area_kind = 'place'
),
place_share as (
    -- the zip's homes outside the city: each other place's part at that place's own density (its ACS housing units
    -- over its land), the zip's land in no place at the zip's mean density; the city holds the rest
    select q.zip, q.source,
           case when q.hu > 0 and q.land > 0
                then greatest(0, least(1, 1 - (
                       coalesce(sum(zp.land_area_sqmi * coalesce(pl.housing_units / nullif(pl.land_area_sqmi, 0), q.zip_density))
                                filter (where zp.place_geoid <> q.area_code), 0)
                     + greatest(0, q.land - coalesce(sum(zp.land_area_sqmi), 0)) * q.zip_density) / q.hu)) end as covered_share
    from place_zip q
    left join stg_usgeo__zcta_places zp on zp.zcta = q.zip and zp.land_area_sqmi > 0
    left join stg_usgeo__places pl on pl.place_geoid = zp.place_geoid
    group by q.zip, q.source, q.area_code, q.hu, q.land, q.zip_density
)
select s.zip, s.source, a.area_kind, a.area_name, s.covered_share,
       case a.area_kind when 'county' then 'of the zip''s residential addresses (HUD-USPS 2023 Q1)'
            else 'of the zip''s homes (estimated from the Census 2020 ZCTA-place land and ACS 2023 housing units)' end as share_basis
from (select * from county_share union all by name select * from place_share) s
join source_area a using (source);
