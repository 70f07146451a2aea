-- requires: states, state_legal
-- mart_geo_states: one row per state (the 50 states; DC is left out because /v1/geo/states always lists 50),
-- with the fields of the spec's state summary object, plus rate_basis (additive): how to read interest_rate_pct, from
-- state_legal, the one row /v1/legal/tax-sale and the geo answers all read (a penalty per 6 months in IL, a one-time
-- penalty in IN, not the "statutory annual rate" the spec's wording suggests; null for deed states).
create or replace table mart_geo_states as
with state as (
    select * from states where is_state
),
final as (
    select
        s.state_code,
        s.state_name,
        cast(l.landlord_friendliness_score as double) as landlord_friendliness_score,
        l.landlord_friendliness_label,
        l.foreclosure_type,
        l.lien_or_deed,
        cast(l.interest_rate_pct as double) as interest_rate_pct,
        cast(l.redemption_period_months as double) as redemption_period_months,
        l.rate_basis,
    from state s
    left join state_legal l using (state_code)
)
select * from final order by state_code;
