-- requires: raw."sacramento__sales"
-- Sacramento-area sales, 15-21 May 2008 (SpatialKey sample). Rename and cast only.
create or replace view stg_sacramento__sales as
with source as (
    select * from raw."sacramento__sales"
),
renamed as (
    select
        street as street,
        city as city,
        trim(zip) as zip,
        trim(state) as state_code,
        try_cast(beds as double) as beds,
        try_cast(baths as double) as baths,
        try_cast(sq__ft as double) as sqft,
        trim(type) as source_type,
        try_cast(sale_date_iso as date) as sale_date,
        sale_date as sale_date_text,
        try_cast(price as double) as sale_price,
        price as sale_price_text,
        try_cast(latitude as double) as lat,
        try_cast(longitude as double) as lng,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
