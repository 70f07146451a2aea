-- requires: regulations
-- local_legal: one row per local jurisdiction with ACTIVE overlay records (city records: state + city; county
-- records: state + county_fips, city null). The flags are OR-ed over the jurisdiction's overlay records
-- (structured_data rent_control / eviction_protections); the cap fields come from its rent_control records.
-- Docs: warehouse/docs/legal.md.
create or replace table local_legal as
with overlay as (
    select
        *,
        cast(structured_data->>'rent_control' as boolean) as rent_control,
        cast(structured_data->>'eviction_protections' as boolean) as eviction_protections,
        cast(structured_data->>'annual_cap_pct' as double) as annual_cap_pct,
        structured_data->>'cap_formula' as cap_formula,
    from regulations
    where status = 'active' and jurisdiction_level in ('city', 'county') and subcategory = 'local_overlay'
),
final as (
    select
        state_code,
        county_fips,
        case when jurisdiction_level = 'city' then city end as city,
        jurisdiction_level,
        coalesce(bool_or(rent_control), false) as has_city_rent_control,
        coalesce(bool_or(eviction_protections), false) as has_city_eviction_protections,
        -- the hard ceiling of the rent_control record, when there is one
        max(annual_cap_pct) filter (where category = 'rent_control') as rent_cap_pct,
        first(cap_formula order by id) filter (where category = 'rent_control' and cap_formula is not null) as rent_cap_formula,
        list(id order by category, subcategory, id) as overlay_ids,
        bool_or(len(uncertain_fields) > 0) as has_uncertain_fields,
        cast(min(last_reviewed_at) as varchar) as last_reviewed_at,
    from overlay
    group by all
)
select * from final order by state_code, city nulls last, county_fips;
