-- requires: raw."allegheny__foreclosures"
-- Allegheny County mortgage foreclosure docket, one row per docket event. Rename and cast only.
create or replace view stg_allegheny__foreclosures as
with source as (
    select * from raw."allegheny__foreclosures"
),
renamed as (
    select
        nullif(trim(pin), '') as pin,
        trim(case_id) as case_id,
        try_cast(filing_date as date) as filing_date,
        filing_date as filing_date_text,
        trim(municipality) as municipality,
        trim(docket_type) as docket_type,
        try_cast(amount as double) as amount,
        trim(plaintiff) as plaintiff,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
