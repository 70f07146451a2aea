-- requires: raw."gazetteer__counties"
-- Census Gazetteer 2025 counties: one row per county or county-equivalent (CT: 2022 planning regions).
create or replace view stg_gazetteer__counties as
with source as (
    select * from raw."gazetteer__counties"
),
renamed as (
    select
        trim("GEOID") as county_fips,
        upper(trim("USPS")) as state_code,
        trim("NAME") as county_name,
        try_cast("ALAND_SQMI" as double) as land_area_sqmi,
        try_cast("AWATER_SQMI" as double) as water_area_sqmi,
        try_cast("INTPTLAT" as double) as lat,
        try_cast("INTPTLONG" as double) as lng,
        _file,
        _row,
    from source
)
select * from renamed;
