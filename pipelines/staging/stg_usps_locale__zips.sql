-- requires: raw."usps_locale__zips"
-- USPS ZIP Locale Detail: one row per (delivery ZIP, delivering post office); locale_name is the USPS city (upper case).
create or replace view stg_usps_locale__zips as
with source as (
    select * from raw."usps_locale__zips"
),
renamed as (
    select
        zip5("DELIVERY ZIPCODE") as zip,
        nullif(trim("LOCALE NAME"), '') as locale_name,
        nullif(trim("AREA NAME"), '') as area_name,
        nullif(trim("DISTRICT NAME"), '') as district_name,
        nullif(trim("PHYSICAL DELV ADDR"), '') as post_office_address,
        nullif(trim("PHYSICAL CITY"), '') as post_office_city,
        nullif(upper(trim("PHYSICAL STATE")), '') as post_office_state,
        zip5("PHYSICAL ZIP") as post_office_zip,
        _file,
        _row,
    from source
)
select * from renamed;
