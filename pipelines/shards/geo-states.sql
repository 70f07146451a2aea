-- requires: mart_geo_states
-- GET /v1/geo/states: {count, states[]} with the 50 states ordered by state_code; each the spec's state summary object
-- plus rate_basis (additive: how to read interest_rate_pct, as /v1/legal/tax-sale gives it).
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
                rate_basis: rate_basis,
            } order by state_code),
        })::varchar as body,
    from state
)
select body from body;
