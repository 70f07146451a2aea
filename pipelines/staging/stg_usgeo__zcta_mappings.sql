-- requires: raw."usgeo__zcta_mappings"
-- us_geo zcta_mappings.csv: one row per USPS ZIP without a ZCTA of its own, with the ZCTA that contains it.
create or replace view stg_usgeo__zcta_mappings as
with source as (
    select * from raw."usgeo__zcta_mappings"
),
renamed as (
    select
        zip5("ZIP Code") as zip,
        zip5("Active ZCTA5") as zcta,
        _file,
        _row,
    from source
)
select * from renamed;
