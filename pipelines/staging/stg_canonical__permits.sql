-- requires: raw."canonical__permits"
-- The operator's permits.csv in the canonical format. Rename and cast only; text kept for validation. Declared for the
-- research index (live/research/permit-counts-build.ts permitSources): date_word 'issued' (the format's issue_date) and
-- no county_fips (the file may hold several counties' permits: a permit's county is its zip's).
create or replace view stg_canonical__permits as
with source as (
    select * from raw."canonical__permits"
    union all by name
    select null::varchar as permit_id, null::varchar as building_use
    where false
),
renamed as (
    select
        nullif(trim(permit_id), '') as permit_id,
        nullif(trim(address), '') as address,
        nullif(trim(zip), '') as zip,
        nullif(trim(issue_date), '') as issue_date_text,
        try_strptime(nullif(trim(issue_date), ''), '%Y-%m-%d')::date as issue_date,
        nullif(trim(permit_type), '') as permit_type_text,
        lower(nullif(trim(permit_type), '')) as permit_type,
        nullif(trim(valuation), '') as valuation_text,
        try_cast(canonical_plain_number(nullif(trim(valuation), '')) as double) as valuation,
        nullif(trim(lat), '') as lat_text,
        try_cast(nullif(trim(lat), '') as double) as lat,
        nullif(trim(lng), '') as lng_text,
        try_cast(nullif(trim(lng), '') as double) as lng,
        nullif(trim(building_use), '') as building_use_text,
        lower(nullif(trim(building_use), '')) as building_use,
        'issued' as date_word,
        null::varchar as county_fips,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
