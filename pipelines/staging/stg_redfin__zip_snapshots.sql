-- requires: raw."redfin__zip_snapshots"
-- Redfin ZIP market tracker: the latest 90-day row per zip, captured monthly May-Sep 2025. Rename and cast only.
create or replace view stg_redfin__zip_snapshots as
with source as (
    select * from raw."redfin__zip_snapshots"
),
renamed as (
    select
        trim(snapshot_month) as snapshot_month,
        trim(zip_code) as zip,
        try_cast(period_end as date) as period_end,
        nullif(trim(period_end), '') as period_end_text,
        nullif(trim(property_type), '') as property_type,
        trim(state) as state_name,
        trim(city) as city,
        try_cast(median_dom as double) as median_dom,
        try_cast(avg_sale_to_list_ratio as double) as avg_sale_to_list_ratio,
        try_cast(median_ppsf as double) as median_ppsf,
        try_cast(homes_sold as double) as homes_sold,
        _file as file,
        _row as row_number
    from source
)
select * from renamed;
