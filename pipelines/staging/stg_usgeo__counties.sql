-- requires: raw."usgeo__counties"
-- us_geo counties.csv: one row per county or county-equivalent (CT: 2022 planning regions), with its CBSA code.
create or replace view stg_usgeo__counties as
with source as (
    select * from raw."usgeo__counties"
),
renamed as (
    select
        trim("GEOID") as county_fips,
        trim("Name") as county_name,
        trim("Short Name") as county_short_name,
        upper(trim("State")) as state_code,
        nullif(trim("CBSA"), '') as cbsa_code,
        nullif(trim("Metropolitan Division"), '') as metro_division_code,
        trim("Central") = 'T' as is_central,
        nullif(trim("Time Zone"), '') as timezone,
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
