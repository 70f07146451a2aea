-- requires: regulations, int_legal_state_names
-- int_legal_state_facts: one row per state (50 + DC) that has ACTIVE state-level records, with their structured
-- values, citations, summaries and uncertainty, one column group per category/subcategory (a jurisdiction without any
-- record has no row, so no legal body is invented for it; the check legal_state_legal demands all 51). A state
-- without an active record for a subcategory gets nulls there (the friendliness composite then uses its documented neutral
-- value; nothing is invented). When two active records share a subcategory the lowest id wins.
-- Docs: warehouse/docs/legal.md.
create or replace table int_legal_state_facts as
with rec as (
    select
        state_code,
        category || '/' || subcategory as k,
        id,
        structured_data as sd,
        summary,
        source_citation,
        source_url,
        uncertain_fields,
        last_reviewed_at,
    from regulations
    where status = 'active' and jurisdiction_level = 'state'
),
pivoted as (
    select
        state_code,
        -- foreclosure/process
        first(sd->>'foreclosure_type' order by id) filter (where k = 'foreclosure/process') as foreclosure_type,
        first(source_citation order by id) filter (where k = 'foreclosure/process') as foreclosure_citation,
        first(uncertain_fields order by id) filter (where k = 'foreclosure/process') as foreclosure_uncertain,
        -- tax_deed_lien/tax_sale
        first(sd->>'sale_type' order by id) filter (where k = 'tax_deed_lien/tax_sale') as lien_or_deed,
        first(cast(sd->>'interest_rate_pct' as double) order by id) filter (where k = 'tax_deed_lien/tax_sale') as tax_interest_rate_pct,
        first(sd->>'rate_basis' order by id) filter (where k = 'tax_deed_lien/tax_sale') as rate_basis,
        first(cast(sd->>'redemption_period_months' as double) order by id) filter (where k = 'tax_deed_lien/tax_sale') as tax_redemption_period_months,
        first(summary order by id) filter (where k = 'tax_deed_lien/tax_sale') as tax_sale_summary,
        first(source_citation order by id) filter (where k = 'tax_deed_lien/tax_sale') as tax_sale_citation,
        first(source_url order by id) filter (where k = 'tax_deed_lien/tax_sale') as tax_sale_source_url,
        first(uncertain_fields order by id) filter (where k = 'tax_deed_lien/tax_sale') as tax_sale_uncertain,
        -- tax_deed_lien/surplus_proceeds
        first(cast(sd->>'surplus_equity_protected' as boolean) order by id) filter (where k = 'tax_deed_lien/surplus_proceeds') as surplus_equity_protected,
        first(cast(sd->>'state_procedure_reviewed' as boolean) order by id) filter (where k = 'tax_deed_lien/surplus_proceeds') as surplus_procedure_reviewed,
        first(summary order by id) filter (where k = 'tax_deed_lien/surplus_proceeds') as surplus_summary,
        first(source_citation order by id) filter (where k = 'tax_deed_lien/surplus_proceeds') as surplus_citation,
        -- rent_control/state_preemption and rent_control/statewide_cap
        first(sd->>'preempts_local' order by id) filter (where k = 'rent_control/state_preemption') as rent_control_preemption,
        first(source_citation order by id) filter (where k = 'rent_control/state_preemption') as preemption_citation,
        first(uncertain_fields order by id) filter (where k = 'rent_control/state_preemption') as preemption_uncertain,
        coalesce(
            first(cast(sd->>'statewide_cap' as boolean) order by id) filter (where k = 'rent_control/statewide_cap'),
            first(cast(sd->>'statewide_cap' as boolean) order by id) filter (where k = 'rent_control/state_preemption')
        ) as statewide_rent_control,
        first(cast(sd->>'cpi_plus_pct' as double) order by id) filter (where k = 'rent_control/statewide_cap') as statewide_cap_cpi_plus_pct,
        first(cast(sd->>'max_annual_increase_pct' as double) order by id) filter (where k = 'rent_control/statewide_cap') as statewide_cap_max_pct,
        first(cast(sd->>'new_construction_exempt_years' as double) order by id) filter (where k = 'rent_control/statewide_cap') as statewide_cap_new_construction_exempt_years,
        first(source_citation order by id) filter (where k = 'rent_control/statewide_cap') as statewide_cap_citation,
        first(uncertain_fields order by id) filter (where k = 'rent_control/statewide_cap') as statewide_cap_uncertain,
        -- adverse_possession
        first(cast(sd->>'years' as double) order by id) filter (where k = 'adverse_possession/standard_period') as adverse_possession_years,
        first(cast(sd->>'taxes_required' as boolean) order by id) filter (where k = 'adverse_possession/standard_period') as adverse_possession_taxes_required,
        first(source_citation order by id) filter (where k = 'adverse_possession/standard_period') as adverse_possession_citation,
        first(uncertain_fields order by id) filter (where k = 'adverse_possession/standard_period') as adverse_possession_uncertain,
        first(cast(sd->>'color_of_title_years' as double) order by id) filter (where k = 'adverse_possession/color_of_title') as color_of_title_years,
        -- eviction/nonpayment_notice
        first(cast(sd->>'notice_required' as boolean) order by id) filter (where k = 'eviction/nonpayment_notice') as notice_required,
        first(cast(sd->>'notice_days' as double) order by id) filter (where k = 'eviction/nonpayment_notice') as eviction_notice_days,
        first(sd->>'day_type' order by id) filter (where k = 'eviction/nonpayment_notice') as notice_day_type,
        first(source_citation order by id) filter (where k = 'eviction/nonpayment_notice') as notice_citation,
        first(uncertain_fields order by id) filter (where k = 'eviction/nonpayment_notice') as notice_uncertain,
        -- eviction/timeline_estimate
        first(cast(sd->>'min_days' as double) order by id) filter (where k = 'eviction/timeline_estimate') as eviction_timeline_min_days,
        first(cast(sd->>'max_days' as double) order by id) filter (where k = 'eviction/timeline_estimate') as eviction_timeline_max_days,
        first(uncertain_fields order by id) filter (where k = 'eviction/timeline_estimate') as timeline_uncertain,
        -- eviction/just_cause (records exist only where a state requires it)
        first(cast(sd->>'just_cause_required' as boolean) order by id) filter (where k = 'eviction/just_cause') as just_cause_required,
        first(cast(sd->>'applies_after_months' as double) order by id) filter (where k = 'eviction/just_cause') as just_cause_after_months,
        first(source_citation order by id) filter (where k = 'eviction/just_cause') as just_cause_citation,
        first(uncertain_fields order by id) filter (where k = 'eviction/just_cause') as just_cause_uncertain,
        -- landlord_tenant/security_deposit
        first(cast(sd->>'has_statutory_cap' as boolean) order by id) filter (where k = 'landlord_tenant/security_deposit') as has_deposit_cap,
        first(cast(sd->>'deposit_limit_months' as double) order by id) filter (where k = 'landlord_tenant/security_deposit') as deposit_limit_months,
        first(source_citation order by id) filter (where k = 'landlord_tenant/security_deposit') as deposit_citation,
        first(uncertain_fields order by id) filter (where k = 'landlord_tenant/security_deposit') as deposit_uncertain,
        -- oldest review date among the state's active records
        min(last_reviewed_at) as last_reviewed_at,
        count(*) as active_records,
    from rec
    group by state_code
),
final as (
    select
        n.state_code,
        n.state_name,
        p.* exclude (state_code),
    from int_legal_state_names n
    join pivoted p using (state_code)
)
select * from final order by state_code;
