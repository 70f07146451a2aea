-- requires: raw."usgeo__zcta_places"
-- us_geo zcta_places.csv: one row per (ZCTA, place it overlaps) with the overlapping areas (0 = boundary touch).
create or replace view stg_usgeo__zcta_places as
with source as (
    select * from raw."usgeo__zcta_places"
),
renamed as (
    select
        zip5("ZCTA5") as zcta,
        trim("Place GEOID") as place_geoid,
        try_cast("Land Area" as double) as land_area_sqmi,
        try_cast("Water Area" as double) as water_area_sqmi,
        _file,
        _row,
    from source
)
select * from renamed;
