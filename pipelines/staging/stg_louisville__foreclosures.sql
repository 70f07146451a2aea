-- requires: raw."louisville__foreclosures"
-- Louisville Metro / Commonwealth lien foreclosure cases 2012-2016 ("NA" = missing). Rename and cast only.
create or replace view stg_louisville__foreclosures as
with source as (
    select * from raw."louisville__foreclosures"
),
renamed as (
    select
        trim("Civil Case Number") as case_number,
        trim("Civil Case Style") as case_style,
        try_cast("Date Action Filed" as date) as filing_date,
        "Date Action Filed" as filing_date_text,
        try_cast(nullif("Sale Date", 'NA') as date) as sale_date,
        try_cast(nullif("Sale Price", 'NA') as double) as sale_price,
        nullif(trim("PRCLID"), 'NA') as parcel_id,
        nullif(trim("STNO"), 'NA') as street_number,
        nullif(trim("PREDIR"), 'NA') as pre_direction,
        nullif(trim("STNAME"), 'NA') as street_name,
        nullif(trim("SUFFIX"), 'NA') as street_suffix,
        nullif(trim("POSTDIR"), 'NA') as post_direction,
        nullif(trim("ZIP"), 'NA') as zip,
        nullif(trim("NEIGHBORHOOD"), 'NA') as neighborhood,
        try_cast(nullif(lon, 'NA') as double) as lng,
        try_cast(nullif(lat, 'NA') as double) as lat,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
