-- requires: raw."geonames__zips"
-- GeoNames US postal codes: one row per USPS ZIP (incl. PO-box, unique and APO/FPO ZIPs; 2 ZIPs appear twice).
create or replace view stg_geonames__zips as
with source as (
    select * from raw."geonames__zips"
),
renamed as (
    select
        zip5(zipcode) as zip,
        nullif(trim(place), '') as place_name,
        nullif(upper(trim(state_code)), '') as state_code,
        nullif(trim(state), '') as state_name,
        nullif(trim(province), '') as county_name,
        nullif(trim(province_code), '') as county_code,
        try_cast(latitude as double) as lat,
        try_cast(longitude as double) as lng,
        _file,
        _row,
    from source
)
select * from renamed;
