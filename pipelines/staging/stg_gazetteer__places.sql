-- requires: raw."gazetteer__places"
-- Census Gazetteer 2025 places: one row per incorporated place or CDP, NAME carries the legal descriptor ("Seattle city").
create or replace view stg_gazetteer__places as
with source as (
    select * from raw."gazetteer__places"
),
renamed as (
    select
        trim("GEOID") as place_geoid,
        upper(trim("USPS")) as state_code,
        trim("NAME") as place_name,
        trim("LSAD") as lsad,
        trim("FUNCSTAT") as funcstat,
        try_cast("ALAND_SQMI" as double) as land_area_sqmi,
        try_cast("AWATER_SQMI" as double) as water_area_sqmi,
        try_cast("INTPTLAT" as double) as lat,
        try_cast("INTPTLONG" as double) as lng,
        _file,
        _row,
    from source
)
select * from renamed;
