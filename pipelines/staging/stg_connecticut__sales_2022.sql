-- requires: raw."connecticut__sales_2022"
-- Connecticut OPM sales recorded 2022-01..09 (third-party cleaned extract: 8 columns, "114,400" numbers).
-- Rename and cast only.
create or replace view stg_connecticut__sales_2022 as
with source as (
    select * from raw."connecticut__sales_2022"
),
renamed as (
    select
        trim("Serial Number") as serial_number,
        trim("List Year") as list_year,
        try_strptime(trim("Date Recorded"), '%m/%d/%Y')::date as sale_date,
        "Date Recorded" as sale_date_text,
        trim("Town") as town,
        "Address" as address,
        trim("Property Type") as property_type_text,
        try_cast(replace("Assessed Value", ',', '') as double) as assessed_value,
        try_cast(replace("Sale Amount", ',', '') as double) as sale_price,
        "Sale Amount" as sale_price_text,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
