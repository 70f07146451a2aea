-- requires: mart_regulations
-- regulations/<STATE>.json, read by GET /v1/regulations/lookup (api/routes.ts filters it in-process): a JSON array of
-- every ACTIVE record of the state, its county and city overlays included, each with the spec's sixteen fields,
-- ordered most specific first (zip, city, county, state; then category, subcategory, id).
with rec as (
    select * from mart_regulations
),
final as (
    select
        state_code as state,
        to_json(list({
            id: id,
            jurisdiction_level: jurisdiction_level,
            state_code: state_code,
            county_fips: county_fips,
            city: city,
            category: category,
            subcategory: subcategory,
            title: title,
            summary: summary,
            structured_data: structured_data,
            source_citation: source_citation,
            source_url: source_url,
            effective_date: cast(effective_date as varchar),
            status: status,
            verified_at: cast(verified_at as varchar),
            last_reviewed_at: cast(last_reviewed_at as varchar),
        } order by specificity_rank, category, subcategory, id))::varchar as body,
    from rec
    group by state_code
)
select state, body from final order by state;
