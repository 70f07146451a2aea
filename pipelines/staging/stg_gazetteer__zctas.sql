-- requires: raw."gazetteer__zctas"
-- Census Gazetteer 2025 ZCTAs: one row per 2020 ZCTA with its internal point (the centroid we use).
create or replace view stg_gazetteer__zctas as
with source as (
    select * from raw."gazetteer__zctas"
),
renamed as (
    select
        zip5("GEOID") as zcta,
        try_cast("ALAND_SQMI" as double) as land_area_sqmi,
        try_cast("AWATER_SQMI" as double) as water_area_sqmi,
        try_cast("INTPTLAT" as double) as lat,
        try_cast("INTPTLONG" as double) as lng,
        _file,
        _row,
    from source
)
select * from renamed;
