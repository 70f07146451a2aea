-- requires: raw."usgeo__places"
-- us_geo places.csv: one row per Census place (incorporated place or CDP).
create or replace view stg_usgeo__places as
with source as (
    select * from raw."usgeo__places"
),
renamed as (
    select
        trim("GEOID") as place_geoid,
        trim("Name") as place_name,
        trim("Short Name") as place_short_name,
        upper(trim("State")) as state_code,
        nullif(trim("County GEOID"), '') as county_fips,
        nullif(trim("Urban Area GEOID"), '') as urban_area_geoid,
        nullif(trim("FIPS Class"), '') as fips_class,
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
