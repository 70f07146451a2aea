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
        as_of: strftime(as_of, '%Y-%m-%d')
    })::varchar as body
from mart_location_risk
order by zip
