-- requires: mart_geo_states
-- GET /v1/geo/states: {count, states[]} with the 50 states ordered by state_code.
with state as (
    select * from mart_geo_states
),
body as (
    select
        to_json({
            count: count(*)::integer,
            states: list({
                state_code: state_code,
                state_name: state_name,
                landlord_friendliness_score: landlord_friendliness_score,
                landlord_friendliness_label: landlord_friendliness_label,
                foreclosure_type: foreclosure_type,
                lien_or_deed: lien_or_deed,
                interest_rate_pct: interest_rate_pct,
                redemption_period_months: redemption_period_months,
            } order by state_code),
        })::varchar as body,
    from state
)
select body from body;
