-- requires: raw."simplemaps__cities"
-- simplemaps US Cities (Basic): one row per city/town/CDP. population is simplemaps' figure (urban area for the largest cities).
create or replace view stg_simplemaps__cities as
with source as (
    select * from raw."simplemaps__cities"
),
renamed as (
    select
        trim(id) as simplemaps_id,
        trim(city) as city_name,
        trim(city_ascii) as city_ascii,
        upper(trim(state_id)) as state_code,
        trim(state_name) as state_name,
        nullif(trim(county_fips), '') as county_fips,
        nullif(trim(county_name), '') as county_name,
        try_cast(lat as double) as lat,
        try_cast(lng as double) as lng,
        try_cast(population as bigint) as population,
        try_cast(density as double) as density,
        trim(source) as coordinate_source,
        upper(trim(military)) = 'TRUE' as is_military,
        upper(trim(incorporated)) = 'TRUE' as is_incorporated,
        nullif(trim(timezone), '') as timezone,
        try_cast(ranking as integer) as ranking,
        coalesce(list_filter(string_split(trim(zips), ' '), z -> z <> ''), []) as zip_codes,
        _file,
        _row,
    from source
)
select * from renamed;
