-- requires: mart_coverage
-- GET /v1/coverage/summary: the coverage summary object, served from the pre-rendered file (meta.cached true).
with coverage as (
    select * from mart_coverage
),
final as (
    select
        to_json({
            addresses: addresses,
            regulations: regulations,
            regulations_by_category: regulations_by_category,
            states: states,
            cities: cities,
            zips: zips,
            counties: counties,
            data_points: data_points,
            last_refreshed: last_refreshed,
            meta: {cached: true},
        })::varchar as body,
    from coverage
)
select body from final;
