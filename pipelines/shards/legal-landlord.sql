-- requires: mart_legal_landlord
-- legal/landlord/<STATE>/_state.json (city null) and legal/landlord/<STATE>/<city-slug>.json,
-- GET /v1/legal/landlord-profile: landlord friendliness (score, label, components), eviction notice and timeline,
-- security deposit, adverse possession and squatter risk, rent control preemption, the statewide cap and the local
-- overlay. Field list: warehouse/docs/legal.md "Landlord profile body".
with profile as (
    select * from mart_legal_landlord
),
final as (
    select
        state_code as state,
        city_name as city,
        to_json({
            state: state_code,
            state_name: state_name,
            city: city_name,
            landlord_friendliness_score: cast(landlord_friendliness_score as double),
            landlord_friendliness_label: landlord_friendliness_label,
            landlord_friendliness_scope: landlord_friendliness_scope,
            landlord_friendliness_note: landlord_friendliness_note,
            landlord_friendliness_uncounted: landlord_friendliness_uncounted,
            friendliness_components: {
                nonpayment_notice: cast(notice_score as double),
                eviction_timeline: cast(timeline_score as double),
                security_deposit: cast(deposit_score as double),
                rent_control_preemption: cast(preemption_score as double),
                statewide_rent_cap: cast(statewide_cap_score as double),
                just_cause: cast(just_cause_score as double),
            },
            eviction: {
                nonpayment_notice_days: cast(eviction_notice_days as double),
                notice_day_type: eviction_notice_day_type,
                notice_required: notice_required,
                timeline_min_days: cast(eviction_timeline_min_days as double),
                timeline_max_days: cast(eviction_timeline_max_days as double),
                just_cause_required: just_cause_required,
                just_cause_after_months: cast(just_cause_after_months as double),
                notice_citation: notice_citation,
                just_cause_citation: just_cause_citation,
            },
            security_deposit: {
                has_statutory_cap: has_deposit_cap,
                limit_months: cast(deposit_limit_months as double),
                citation: deposit_citation,
            },
            adverse_possession: {
                years: cast(adverse_possession_years as double),
                color_of_title_years: cast(color_of_title_years as double),
                taxes_required: adverse_possession_taxes_required,
                citation: adverse_possession_citation,
            },
            squatter_risk: squatter_risk,
            squatter_risk_notes: squatter_risk_notes,
            rent_control: {
                state_preemption: rent_control_preemption,
                preemption_citation: preemption_citation,
                statewide_cap: statewide_rent_control,
                statewide_cap_cpi_plus_pct: cast(statewide_cap_cpi_plus_pct as double),
                statewide_cap_max_pct: cast(statewide_cap_max_pct as double),
                statewide_cap_new_construction_exempt_years: cast(statewide_cap_new_construction_exempt_years as double),
                statewide_cap_citation: statewide_cap_citation,
                has_city_rent_control: city_rent_control,
                has_city_eviction_protections: city_eviction_protections,
                county_rent_control_may_apply: county_rent_control,
                county_eviction_protections_may_apply: county_eviction_protections,
                local_overlays: list_concat(city_overlays, county_overlays),
            },
            summary: summary,
            uncertain_topics: uncertain_topics,
            last_reviewed_at: last_reviewed_at,
            disclaimer: disclaimer,
        })::varchar as body,
    from profile
)
select state, city, body from final order by state, city nulls first;
