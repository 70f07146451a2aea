-- requires: raw."usgeo__place_counties"
-- us_geo place_counties.csv: one row per (place, county it overlaps).
create or replace view stg_usgeo__place_counties as
with source as (
    select * from raw."usgeo__place_counties"
),
renamed as (
    select
        trim("Place GEOID") as place_geoid,
        trim("County GEOID") as county_fips,
        _file,
        _row,
    from source
)
select * from renamed;
