-- requires: raw."nashville__permits"
-- Nashville building permit applications 2021-09..2024-09. Date_Entered is epoch milliseconds (UTC);
-- Date_Issued is empty in this snapshot. Rename and cast only (what the file declares about itself, its date word and
-- its county, is in its adapter, 30_market_20_permits_nashville.sql, table permit_sources).
create or replace view stg_nashville__permits as
with source as (
    select * from raw."nashville__permits"
),
renamed as (
    select
        trim("Permit__") as permit_number,
        trim("Permit_Type_Description") as permit_type_description,
        trim("Permit_Subtype_Description") as permit_subtype_description,
        trim("Parcel") as parcel,
        cast(make_timestamp(try_cast("Date_Entered" as bigint) * 1000) as date) as entered_date,
        try_cast("Date_Issued" as date) as issued_date,
        "Date_Entered" as entered_date_text,
        try_cast("Const_Cost" as double) as construction_cost,
        "Address" as address,
        trim("City") as city,
        trim("State") as state_code,
        try_cast("Lon" as double) as lng,
        try_cast("Lat" as double) as lat,
        trim("ZIP") as zip,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
