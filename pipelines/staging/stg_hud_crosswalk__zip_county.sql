-- requires: raw."hud_crosswalk__zip_county"
-- HUD-USPS ZIP-county crosswalk 2023 Q1: one row per (ZIP, county) with address shares (CT: old counties 09001-09015).
create or replace view stg_hud_crosswalk__zip_county as
with source as (
    select * from raw."hud_crosswalk__zip_county"
),
renamed as (
    select
        zip5("ZIP") as zip,
        trim("COUNTY") as county_fips,
        nullif(trim("USPS_ZIP_PREF_CITY"), '') as usps_pref_city,
        nullif(upper(trim("USPS_ZIP_PREF_STATE")), '') as usps_pref_state,
        try_cast("RES_RATIO" as double) as res_ratio,
        try_cast("BUS_RATIO" as double) as bus_ratio,
        try_cast("OTH_RATIO" as double) as oth_ratio,
        try_cast("TOT_RATIO" as double) as tot_ratio,
        _file,
        _row,
    from source
)
select * from renamed;
