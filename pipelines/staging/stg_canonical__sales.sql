-- requires: raw."canonical__sales"
-- The operator's sales.csv in the canonical format (README "Canonical format"). Rename and cast only: each
-- value is kept as trimmed text (validated row by row in 30_market_40_canonical_sales.sql) beside its cast.
-- Optional columns absent from the file are added as nulls (union by name with an empty typed row).
create or replace view stg_canonical__sales as
with source as (
    select * from raw."canonical__sales"
    union all by name
    select null::varchar as parcel_id, null::varchar as buyer_name, null::varchar as seller_name,
           null::varchar as list_price, null::varchar as list_date,
           null::varchar as recorded_date, null::varchar as document_id, null::varchar as deed_type,
           null::varchar as lot_sqft, null::varchar as quality_grade
    where false
),
renamed as (
    select
        nullif(trim(parcel_id), '') as parcel_id,
        nullif(trim(address), '') as address,
        nullif(trim(city), '') as city,
        nullif(trim(state), '') as state,
        nullif(trim(zip), '') as zip,
        nullif(trim(sale_date), '') as sale_date_text,
        try_strptime(nullif(trim(sale_date), ''), '%Y-%m-%d')::date as sale_date,
        nullif(trim(sale_price), '') as sale_price_text,
        try_cast(canonical_plain_number(nullif(trim(sale_price), '')) as double) as sale_price,
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
        nullif(trim(condition), '') as condition_text,
        lower(nullif(trim(condition), '')) as condition,
        nullif(trim(lat), '') as lat_text,
        try_cast(nullif(trim(lat), '') as double) as lat,
        nullif(trim(lng), '') as lng_text,
        try_cast(nullif(trim(lng), '') as double) as lng,
        nullif(trim(lot_sqft), '') as lot_sqft_text,
        try_cast(canonical_plain_number(nullif(trim(lot_sqft), '')) as double) as lot_sqft,
        nullif(trim(quality_grade), '') as quality_grade_text,
        try_cast(nullif(trim(quality_grade), '') as double) as quality_grade,
        nullif(trim(buyer_name), '') as buyer_name,
        nullif(trim(seller_name), '') as seller_name,
        nullif(trim(list_price), '') as list_price_text,
        try_cast(canonical_plain_number(nullif(trim(list_price), '')) as double) as list_price,
        nullif(trim(list_date), '') as list_date_text,
        try_strptime(nullif(trim(list_date), ''), '%Y-%m-%d')::date as list_date,
        nullif(trim(recorded_date), '') as recorded_date_text,
        try_strptime(nullif(trim(recorded_date), ''), '%Y-%m-%d')::date as recorded_date,
        nullif(trim(document_id), '') as document_id,
        nullif(trim(deed_type), '') as deed_type_text,
        lower(nullif(trim(deed_type), '')) as deed_type,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
