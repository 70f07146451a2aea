-- requires: regulations
-- mart_regulations: one row per ACTIVE regulation record (state, county and city records; GET /v1/regulations/lookup
-- serves active rules only), with specificity_rank for the lookup's most-specific-first order
-- (zip 0, city 1, county 2, state 3; then category, subcategory, id).
create or replace table mart_regulations as
with active as (
    select * from regulations where status = 'active'
),
final as (
    select
        *,
        case jurisdiction_level when 'zip' then 0 when 'city' then 1 when 'county' then 2 else 3 end as specificity_rank,
    from active
)
select * from final order by state_code, specificity_rank, category, subcategory, id;
