-- requires: raw."king_county__sales"
-- King County WA house sales 2014-2015 (kc_house_data.csv): one row per recorded sale. Rename and cast only.
create or replace view stg_king_county__sales as
with source as (
    select * from raw."king_county__sales"
),
renamed as (
    select
        trim(id) as parcel_id,
        try_strptime(trim(date), '%Y%m%dT%H%M%S')::date as sale_date,
        date as sale_date_text,
        try_cast(price as double) as sale_price,
        price as sale_price_text,
        try_cast(bedrooms as double) as beds,
        try_cast(bathrooms as double) as baths,
        try_cast(sqft_living as double) as sqft,
        try_cast(sqft_lot as double) as lot_sqft,
        try_cast(condition as integer) as condition_code,
        try_cast(grade as integer) as grade,
        try_cast(yr_built as integer) as year_built,
        try_cast(yr_renovated as integer) as year_renovated,
        trim(zipcode) as zip,
        try_cast(lat as double) as lat,
        try_cast(long as double) as lng,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
