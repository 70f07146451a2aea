-- requires: raw."usgeo__states"
-- us_geo states.csv: one row per state, DC or territory (56 rows).
create or replace view stg_usgeo__states as
with source as (
    select * from raw."usgeo__states"
),
renamed as (
    select
        upper(trim("Code")) as state_code,
        trim("Name") as state_name,
        lower(trim("Type")) as state_type,
        trim("FIPS") as state_fips,
        nullif(trim("Region"), '') as region,
        nullif(trim("Division"), '') as division,
        try_cast("Population" as bigint) as population,
        try_cast("Housing Units" as bigint) as housing_units,
        try_cast("Land Area" as double) as land_area_sqmi,
        try_cast("Water Area" as double) as water_area_sqmi,
        _file,
        _row,
    from source
)
select * from renamed;
