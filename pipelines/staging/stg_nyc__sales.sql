-- requires: raw."nyc__sales"
-- NYC Department of Finance rolling sales (two 12-month windows). Rename and cast only.
create or replace view stg_nyc__sales as
with source as (
    select * from raw."nyc__sales"
),
renamed as (
    select
        trim("BOROUGH") as borough,
        trim("NEIGHBORHOOD") as neighborhood,
        trim("BUILDING CLASS CATEGORY") as building_class_category,
        trim("BLOCK") as block,
        trim("LOT") as lot,
        trim("BUILDING CLASS AT TIME OF SALE") as building_class,
        "ADDRESS" as address,
        "APARTMENT NUMBER" as apartment_number,
        trim("ZIP CODE") as zip,
        try_cast(replace("RESIDENTIAL UNITS", ',', '') as integer) as residential_units,
        try_cast(replace("COMMERCIAL UNITS", ',', '') as integer) as commercial_units,
        try_cast(replace("TOTAL UNITS", ',', '') as integer) as total_units,
        try_cast(replace("LAND SQUARE FEET", ',', '') as double) as land_sqft,
        try_cast(replace("GROSS SQUARE FEET", ',', '') as double) as gross_sqft,
        try_cast("YEAR BUILT" as integer) as year_built,
        try_cast(replace("SALE PRICE", ',', '') as double) as sale_price,
        "SALE PRICE" as sale_price_text,
        try_cast("SALE DATE" as date) as sale_date,
        "SALE DATE" as sale_date_text,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
