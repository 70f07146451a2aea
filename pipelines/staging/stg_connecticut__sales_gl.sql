-- requires: raw."connecticut__sales_gl"
-- Connecticut OPM real estate sales, first 9,999 rows of the official file (14 columns). Rename and cast only.
create or replace view stg_connecticut__sales_gl as
with source as (
    select * from raw."connecticut__sales_gl"
),
renamed as (
    select
        trim("Serial Number") as serial_number,
        trim("List Year") as list_year,
        try_strptime(trim("Date Recorded"), '%m/%d/%Y')::date as sale_date,
        "Date Recorded" as sale_date_text,
        trim("Town") as town,
        "Address" as address,
        try_cast(replace("Assessed Value", ',', '') as double) as assessed_value,
        try_cast(replace("Sale Amount", ',', '') as double) as sale_price,
        "Sale Amount" as sale_price_text,
        trim("Property Type") as property_type_text,
        trim("Residential Type") as residential_type,
        nullif(trim("Non Use Code"), '') as non_use_code,
        try_cast(regexp_extract("Location", 'POINT \(([-0-9.]+) ([-0-9.]+)\)', 2) as double) as lat,
        try_cast(regexp_extract("Location", 'POINT \(([-0-9.]+) ([-0-9.]+)\)', 1) as double) as lng,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
