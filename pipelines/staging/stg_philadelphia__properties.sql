-- requires: raw."philadelphia__properties"
-- Philadelphia OPA property assessments (sample, snapshot 2022-05-24): one row per parcel with its last sale.
-- Rename and cast only (the 2068-2071 sale dates are corrected in the adapter, not here).
create or replace view stg_philadelphia__properties as
with source as (
    select * from raw."philadelphia__properties"
),
renamed as (
    select
        trim(parcel_number) as parcel_number,
        location as location,
        unit as unit,
        trim(zip_code) as zip,
        try_cast(lat as double) as lat,
        try_cast(lng as double) as lng,
        trim(owner_1) as owner_1,
        trim(owner_2) as owner_2,
        try_cast(left(trim(sale_date), 10) as date) as sale_date,
        sale_date as sale_date_text,
        try_cast(sale_price as double) as sale_price,
        sale_price as sale_price_text,
        trim(category_code_description) as category,
        trim(building_code_description) as building_description,
        try_cast(number_of_bedrooms as double) as beds,
        try_cast(number_of_bathrooms as double) as baths,
        try_cast(total_livable_area as double) as sqft,
        try_cast(year_built as integer) as year_built,
        try_cast(exterior_condition as integer) as exterior_condition,
        try_cast(interior_condition as integer) as interior_condition,
        try_cast(market_value as double) as market_value,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
