-- requires: raw."zip_reference__zips"
-- US ZIP (ZCTA) reference (Domapus compilation): one row per ZCTA with city, county name, metro, centroid and latest ZHVI.
create or replace view stg_zip_reference__zips as
with source as (
    select * from raw."zip_reference__zips"
),
renamed as (
    select
        zip5(zip_code) as zip,
        nullif(upper(trim(state)), '') as state_code,
        nullif(trim(metro), '') as metro_name,
        nullif(trim(county), '') as county_name,
        nullif(trim(city), '') as city_name,
        try_cast(lat as double) as lat,
        try_cast(lng as double) as lng,
        try_cast(zhvi_latest as double) as zhvi_latest,
        try_cast(nullif(trim(redfin_latest_period_end), '') as date) as redfin_latest_period_end,
        _file,
        _row,
    from source
)
select * from renamed;
