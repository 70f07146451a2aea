-- requires: raw."denver__sales"
-- Denver real property sales and transfers 2018-2019 (deeds with grantor/grantee). Rename and cast only.
-- SALE_MONTHDAY is M/MM followed by DD (917 = Sep 17); RECEPTION_DATE (YYYYMMDD) is the recording date.
create or replace view stg_denver__sales as
with source as (
    select * from raw."denver__sales"
),
renamed as (
    select
        trim("SCHEDNUM") as schednum,
        trim("RECEPTION_NUM") as reception_num,
        trim("INSTRUMENT") as instrument,
        try_cast("SALE_YEAR" as integer) as sale_year,
        try_cast("SALE_MONTHDAY" as integer) as sale_monthday,
        try_strptime(trim("SALE_YEAR") || lpad(trim("SALE_MONTHDAY"), 4, '0'), '%Y%m%d')::date as sale_date,
        try_strptime(trim("RECEPTION_DATE"), '%Y%m%d')::date as reception_date,
        "SALE_YEAR" || '/' || coalesce("SALE_MONTHDAY", '') as sale_date_text,
        try_cast("SALE_PRICE" as double) as sale_price,
        "SALE_PRICE" as sale_price_text,
        trim("GRANTOR") as grantor,
        trim("GRANTEE") as grantee,
        trim("CLASS") as class,
        trim("D_CLASS_CN") as class_name,
        trim("NBHD_1_CN") as neighborhood,
        trim("PIN") as pin,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
