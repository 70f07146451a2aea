-- requires: raw."chicago__permits"
-- Chicago building permits 2023-01..2026-07 (no zip column). Rename and cast only, plus two declarations of the file
-- (live/research/permit-counts-build.ts permitSources): date_word 'issued' (issue_date, SOURCE.md "permits issued by the
-- Department of Buildings"), and no county_fips: the city lies in Cook and DuPage counties, so a permit's county is its
-- zip's.
create or replace view stg_chicago__permits as
with source as (
    select * from raw."chicago__permits"
),
renamed as (
    select
        trim(permit_number) as permit_number,
        trim(permit_status) as permit_status,
        trim(permit_type) as permit_type,
        trim(review_type) as review_type,
        try_cast(issue_date as date) as issue_date,
        issue_date as issue_date_text,
        address as address,
        trim(work_type) as work_type,
        try_cast(reported_cost as double) as reported_cost,
        try_cast(latitude as double) as lat,
        try_cast(longitude as double) as lng,
        trim(community_area_name) as community_area_name,
        trim(work_description) as work_description,
        'issued' as date_word,
        null::varchar as county_fips,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
