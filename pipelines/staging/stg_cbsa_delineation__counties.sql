-- requires: raw."cbsa_delineation__counties"
-- OMB July 2023 delineation (list 1): one row per county inside a metro or micro area.
create or replace view stg_cbsa_delineation__counties as
with source as (
    select * from raw."cbsa_delineation__counties"
),
renamed as (
    select
        trim("FIPS State Code") || trim("FIPS County Code") as county_fips,
        trim("CBSA Code") as cbsa_code,
        trim("CBSA Title") as cbsa_title,
        case trim("Metropolitan/Micropolitan Statistical Area")
            when 'Metropolitan Statistical Area' then 'metro'
            when 'Micropolitan Statistical Area' then 'micro'
        end as cbsa_type,
        nullif(trim("Metropolitan Division Code"), '') as metro_division_code,
        nullif(trim("Metropolitan Division Title"), '') as metro_division_title,
        nullif(trim("CSA Code"), '') as csa_code,
        nullif(trim("CSA Title"), '') as csa_title,
        trim("County/County Equivalent") as county_name,
        trim("State Name") as state_name,
        trim("Central/Outlying County") = 'Central' as is_central,
        _file,
        _row,
    from source
)
select * from renamed;
