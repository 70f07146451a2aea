-- requires: raw."usgeo__zcta_counties"
-- us_geo zcta_counties.csv: one row per (ZCTA, county it overlaps) with the overlapping areas.
create or replace view stg_usgeo__zcta_counties as
with source as (
    select * from raw."usgeo__zcta_counties"
),
renamed as (
    select
        zip5("ZCTA5") as zcta,
        trim("County GEOID") as county_fips,
        try_cast("Land Area" as double) as land_area_sqmi,
        try_cast("Water Area" as double) as water_area_sqmi,
        _file,
        _row,
    from source
)
select * from renamed;
