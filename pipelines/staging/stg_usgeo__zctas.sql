-- requires: raw."usgeo__zctas"
-- us_geo zctas.csv: one row per 2020 ZCTA with its primary county and place and internal point.
create or replace view stg_usgeo__zctas as
with source as (
    select * from raw."usgeo__zctas"
),
renamed as (
    select
        zip5("ZCTA5") as zcta,
        nullif(trim("Primary County"), '') as primary_county_fips,
        nullif(trim("Primary County Subdivision"), '') as primary_county_subdivision,
        nullif(trim("Primary Place"), '') as primary_place_geoid,
        nullif(trim("Primary Urban Area"), '') as primary_urban_area_geoid,
        try_cast("Population" as bigint) as population,
        try_cast("Housing Units" as bigint) as housing_units,
        try_cast("Land Area" as double) as land_area_sqmi,
        try_cast("Water Area" as double) as water_area_sqmi,
        try_cast("Latitude" as double) as lat,
        try_cast("Longitude" as double) as lng,
        _file,
        _row,
    from source
)
select * from renamed;
