-- requires: raw."acs_population__zctas"
-- ACS 2019-2023 5-year total population (B01003) and housing units (B25001): one row per ZCTA.
create or replace view stg_acs_population__zctas as
with source as (
    select * from raw."acs_population__zctas"
),
renamed as (
    select
        zip5(geoid) as geoid,
        trim("NAME") as census_name,
        try_cast("B01003_001E" as bigint) as population,
        try_cast("B25001_001E" as bigint) as housing_units,
        _file,
        _row,
    from source
)
select * from renamed;
