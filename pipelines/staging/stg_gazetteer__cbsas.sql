-- requires: raw."gazetteer__cbsas"
-- Census Gazetteer 2025 CBSAs: one row per CBSA; cbsa_type metro (CBSA_TYPE 1) or micro (2).
create or replace view stg_gazetteer__cbsas as
with source as (
    select * from raw."gazetteer__cbsas"
),
renamed as (
    select
        trim("GEOID") as cbsa_code,
        trim("NAME") as cbsa_name,
        case trim("CBSA_TYPE") when '1' then 'metro' when '2' then 'micro' end as cbsa_type,
        nullif(trim("CSAFP"), '') as csa_code,
        try_cast("ALAND_SQMI" as double) as land_area_sqmi,
        try_cast("AWATER_SQMI" as double) as water_area_sqmi,
        try_cast("INTPTLAT" as double) as lat,
        try_cast("INTPTLONG" as double) as lng,
        _file,
        _row,
    from source
)
select * from renamed;
