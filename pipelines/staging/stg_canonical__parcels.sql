-- requires: raw."canonical__parcels"
-- The operator's parcels.csv (assessor roll) in the canonical format. Rename and cast only; text kept for validation.
create or replace view stg_canonical__parcels as
with source as (
    select * from raw."canonical__parcels"
    union all by name
    select null::varchar as parcel_id, null::varchar as owner_name
    where false
),
renamed as (
    select
        nullif(trim(parcel_id), '') as parcel_id,
        nullif(trim(address), '') as address,
        nullif(trim(city), '') as city,
        nullif(trim(state), '') as state,
        nullif(trim(zip), '') as zip,
        nullif(trim(property_type), '') as property_type_text,
        lower(nullif(trim(property_type), '')) as property_type,
        nullif(trim(beds), '') as beds_text,
        try_cast(nullif(trim(beds), '') as double) as beds,
        nullif(trim(baths), '') as baths_text,
        try_cast(nullif(trim(baths), '') as double) as baths,
        nullif(trim(sqft), '') as sqft_text,
        try_cast(canonical_plain_number(nullif(trim(sqft), '')) as double) as sqft,
        nullif(trim(year_built), '') as year_built_text,
        try_cast(nullif(trim(year_built), '') as integer) as year_built,
        nullif(trim(lat), '') as lat_text,
        try_cast(nullif(trim(lat), '') as double) as lat,
        nullif(trim(lng), '') as lng_text,
        try_cast(nullif(trim(lng), '') as double) as lng,
        nullif(trim(owner_name), '') as owner_name,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
