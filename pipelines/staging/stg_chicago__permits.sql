-- requires: raw."chicago__permits"
-- Chicago building permits 2023-01..2026-07 (no zip column). Rename and cast only (what the file declares about itself,
-- its date word and its area, is in its adapter, 30_market_21_permits_chicago.sql, table permit_sources).
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
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
