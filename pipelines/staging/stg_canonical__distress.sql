-- requires: raw."canonical__distress"
-- The operator's distress.csv in the canonical format. Rename and cast only; text kept for validation.
create or replace view stg_canonical__distress as
with source as (
    select * from raw."canonical__distress"
    union all by name
    select null::varchar as parcel_id, null::varchar as amount, null::varchar as closed_date
    where false
),
renamed as (
    select
        nullif(trim(parcel_id), '') as parcel_id,
        nullif(trim(address), '') as address,
        nullif(trim(city), '') as city,
        nullif(trim(state), '') as state,
        nullif(trim(zip), '') as zip,
        nullif(trim(kind), '') as kind_text,
        lower(nullif(trim(kind), '')) as kind,
        nullif(trim(filing_date), '') as filing_date_text,
        try_strptime(nullif(trim(filing_date), ''), '%Y-%m-%d')::date as filing_date,
        nullif(trim(amount), '') as amount_text,
        try_cast(canonical_plain_number(nullif(trim(amount), '')) as double) as amount,
        nullif(trim(closed_date), '') as closed_date_text,
        try_strptime(nullif(trim(closed_date), ''), '%Y-%m-%d')::date as closed_date,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
