-- requires: int_market_zip_permits, permit_sources, int_market_housing_units, stg_hud_crosswalk__zip_county, stg_usgeo__zcta_places, stg_usgeo__zctas, stg_usgeo__places, counties
-- int_market_permit_area: for each zip with permits that count in it, the share of the zip inside the area its permit
-- source covers (market.md "Permit source area"). Each source's adapter declares its area (permit_sources) as a county
-- or a city, or none:
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
--   inferred (a source that declares no area: a canonical permits.csv, review 22: every zip its permits touch read
--     covered, La Vergne 37086, 0.4% in Davidson County, 3.6 "Cold"): the counties holding its permits, then each zip's
--     share of them by the county rule above. Its permits are spread over the counties of their zips by the crosswalk
--     (a permit in a zip 60% in a county counts 0.6 there), and a county holds them when its permits per home (its
--     share of the crosswalk's residential addresses of each zip x the zip's ACS housing units) reach a quarter
--     (INFERRED_DENSITY) of those of the county holding the most: Nashville's applications as a canonical file give
--     Davidson 16.8 per 1,000 homes and its neighbours at most 1.4 (Cheatham, 8%), so Davidson alone, the native
--     declaration; a file of several counties' permits keeps each whose permits are as dense.
-- share_basis words the share for the note ("... which holds <p>% <share_basis>").
-- mart_rehab scores a zip's permit components only where covered_share >= 0.5, over covered_share of its housing units.
create or replace table int_market_permit_area as
with declared as (
    select source, area_kind, area_code, area_name from permit_sources where area_kind in ('county', 'place')
),
zs as (select distinct zip, source from int_market_zip_permits),
xw as (
    select zip, county_fips, case when sum(res_ratio) over (partition by zip) > 0 then res_ratio else tot_ratio end as ratio
    from stg_hud_crosswalk__zip_county
),
county_homes as (
    -- each county's homes: its share of each zip's residential addresses x the zip's ACS housing units
    select xw.county_fips, sum(xw.ratio * h.housing_units) as homes
    from xw join int_market_housing_units h using (zip) group by 1
),
inferred_density as (
    -- a source without a declared area: its permits spread over their zips' counties by the crosswalk, per home
    select p.source, xw.county_fips, sum(xw.ratio) / nullif(any_value(ch.homes), 0) as per_home, sum(xw.ratio) as permits
    from int_market_zip_permits p join xw using (zip) left join county_homes ch using (county_fips)
    where p.source not in (select source from declared)
    group by all
),
inferred as (
    -- the counties holding the permits: per home, at least a quarter (INFERRED_DENSITY 0.25) of the county holding most
    select d.source, d.county_fips as area_code, coalesce(c.county_name || ', ' || c.state_code, 'county ' || d.county_fips) as county_name
    from inferred_density d left join counties c using (county_fips)
    where d.per_home >= 0.25 * (select arg_max(x.per_home, x.permits) from inferred_density x where x.source = d.source)
),
source_area as (
    -- one row per source and area code (an inferred area may be several counties, named together)
    select source, area_kind, area_code, area_name from declared
    union all
    select source, 'county', area_code,
           string_agg(county_name, ' and ' order by county_name) over (partition by source)
             || case when count(*) over (partition by source) = 1 then ' (the county its permits lie in' else ' (the counties its permits lie in' end
             || ', by the HUD-USPS ZIP-county crosswalk: permits.csv declares no area)'
    from inferred
),
county_share as (
    select zs.zip, zs.source,
           case when count(xw.zip) > 0 then coalesce(sum(xw.ratio) filter (where a.area_code is not null), 0) end as covered_share
    from zs left join xw on xw.zip = zs.zip
    left join source_area a on a.source = zs.source and a.area_kind = 'county' and a.area_code = xw.county_fips
    where zs.source in (select source from source_area where area_kind = 'county')
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
join (select distinct source, area_kind, area_name from source_area) a using (source);
