-- requires: mart_location_risk
-- GET /v1/location/risk?zip=: one shard per zip in `zips`, the Location risk object in the spec's field order.
select
    zip,
    to_json({
        zip_code: zip_code,
        city: city,
        state: state,
        flood_zone: flood_zone,
        flood_risk_label: flood_risk_label,
        flood_risk_notes: flood_risk_notes,
        superfund_nearby: superfund_nearby,
        superfund_count_1mi: cast(superfund_count_1mi as integer),
        environmental_risk_score: cast(environmental_risk_score as integer),
        confidence: confidence,
        as_of: strftime(as_of, '%Y-%m-%d'),
        -- additive: what the Superfund fields count (live/location/rules.ts SUPERFUND_BASIS, the same words); the
        -- active SEMS sites not on the NPL are counted by a point lookup only
        superfund_basis: 'EPA National Priorities List sites, final and proposed, within 1 mile (EPA SEMS 2021-06-13); deleted NPL sites and active SEMS sites not on the NPL are not counted',
        sems_non_npl_count_1mi: null::integer,
        -- additive (review 18): whether a loaded FEMA flood map determines flood_zone: false for the no-map answer, whose
        -- notes start 'Zone D (undetermined)'; the research answer reads it from this shard (live/research/market-facts.ts)
        flood_map_loaded: not coalesce(starts_with(flood_risk_notes, 'Zone D (undetermined)'), false)
    })::varchar as body
from mart_location_risk
order by zip
