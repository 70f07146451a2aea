-- requires: raw."denver__residential"
-- Denver sales joined to residential characteristics (repo author's join). SCHEDNUM is damaged here (Excel
-- float): it is not exposed; join on reception_num + pin. Rename and cast only.
create or replace view stg_denver__residential as
with source as (
    select * from raw."denver__residential"
),
renamed as (
    select
        trim("RECEPTION_NUM") as reception_num,
        trim("PIN") as pin,
        try_cast("AREA_ABG" as double) as sqft,
        try_cast("BED_RMS" as double) as beds,
        try_cast("FULL_B" as double) as full_baths,
        try_cast("HLF_B" as double) as half_baths,
        try_cast(try_cast("CCYRBLT" as double) as integer) as year_built,
        try_cast("LAND_SQFT" as double) as lot_sqft,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
