-- requires: mart_legal_market_risk
-- legal/market-risk/<STATE>/<city-slug>.json, GET /v1/legal/market-legal-risk: the spec's market legal risk object
-- plus the disclaimer every /v1/legal/ body carries. One file per legal market (every city + overlay cities).
with market as (
    select * from mart_legal_market_risk
),
final as (
    select
        state_code as state,
        city_name as city,
        to_json({
            state: state_code,
            city: city_name,
            legal_risk_score: cast(legal_risk_score as double),
            legal_risk_label: legal_risk_label,
            plain_english_summary: plain_english_summary,
            investor_actions: investor_actions,
            last_reviewed_at: last_reviewed_at,
            disclaimer: disclaimer,
        })::varchar as body,
    from market
)
select state, city, body from final order by state, city;
