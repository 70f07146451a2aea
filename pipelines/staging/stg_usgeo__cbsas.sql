-- requires: raw."usgeo__cbsas"
-- us_geo core_based_statistical_areas.csv: one row per CBSA (metro or micro area).
create or replace view stg_usgeo__cbsas as
with source as (
    select * from raw."usgeo__cbsas"
),
renamed as (
    select
        trim("GEOID") as cbsa_code,
        trim("Name") as cbsa_title,
        trim("Short Name") as cbsa_short_name,
        nullif(trim("CSA"), '') as csa_code,
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
