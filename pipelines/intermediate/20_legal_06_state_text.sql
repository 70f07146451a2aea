-- requires: state_legal, int_legal_state_facts
-- int_legal_state_text: one row per state (50 + DC) with the plain-English sentences and investor actions the legal
-- marts assemble, each built from the state's own facts (numbers via printf('%g'), citations in parentheses), plus
-- the list of topics whose facts are uncertain (structured_data.uncertain_fields non-empty).
-- Wording rules: warehouse/docs/legal.md "Summaries and actions".
create or replace table int_legal_state_text as
with f as (
    select
        l.*,
        x.state_name as facts_state_name,
        x.notice_required, x.notice_citation, x.notice_uncertain,
        x.timeline_uncertain,
        x.foreclosure_citation, x.foreclosure_uncertain,
        x.tax_sale_citation, x.tax_sale_uncertain, x.tax_sale_summary,
        x.preemption_citation, x.preemption_uncertain,
        x.statewide_cap_cpi_plus_pct, x.statewide_cap_max_pct, x.statewide_cap_new_construction_exempt_years,
        x.statewide_cap_citation, x.statewide_cap_uncertain,
        x.adverse_possession_taxes_required, x.adverse_possession_citation, x.adverse_possession_uncertain, x.color_of_title_years,
        x.just_cause_after_months, x.just_cause_citation, x.just_cause_uncertain,
        x.has_deposit_cap, x.deposit_citation, x.deposit_uncertain,
        x.surplus_equity_protected, x.surplus_procedure_reviewed, x.surplus_summary, x.surplus_citation,
    from state_legal l
    join int_legal_state_facts x using (state_code)
),
parts as (
    select
        *,
        -- ' (citation)' or ''
        coalesce(' (' || notice_citation || ')', '') as notice_cit,
        coalesce(' (' || foreclosure_citation || ')', '') as foreclosure_cit,
        coalesce(' (' || tax_sale_citation || ')', '') as tax_cit,
        coalesce(' (' || preemption_citation || ')', '') as preemption_cit,
        coalesce(' (' || statewide_cap_citation || ')', '') as cap_cit,
        coalesce(' (' || adverse_possession_citation || ')', '') as ap_cit,
        coalesce(' (' || just_cause_citation || ')', '') as jc_cit,
        coalesce(' (' || deposit_citation || ')', '') as deposit_cit,
        case eviction_notice_day_type when 'business' then 'business ' when 'judicial' then 'judicial ' else '' end as day_word,
        printf('%g', eviction_timeline_min_days) || '-' || printf('%g', eviction_timeline_max_days) as timeline_range,
        printf('%g', interest_rate_pct) || '%' as rate_txt,
        printf('%g', redemption_period_months) as redemption_txt,
    from f
),
sentences as (
    select
        *,
        case
            when eviction_notice_days is null then state_name || '''s notice period before an eviction filing for nonpayment is not recorded.'
            when eviction_notice_days = 0 or notice_required = false then
                state_name || ' sets no statutory notice before an eviction filing for nonpayment' || notice_cit
                || '; that is not an instant eviction: the court process still applies.'
            else state_name || ' requires ' || printf('%g', eviction_notice_days) || ' ' || day_word
                || 'days'' notice to pay or quit before an eviction filing for nonpayment' || notice_cit || '.'
        end as notice_sentence,
        case
            when eviction_timeline_min_days is null or eviction_timeline_max_days is null then
                'No public estimate of the uncontested eviction timeline is recorded for ' || state_name || '.'
            else 'An uncontested nonpayment eviction takes about ' || timeline_range
                || ' days from notice to possession (a secondary-source estimate, not a deadline).'
        end as timeline_sentence,
        case foreclosure_type
            when 'judicial' then 'Mortgage foreclosure is judicial: the lender must sue and a court orders the sale, so foreclosures take longer' || foreclosure_cit || '.'
            when 'non-judicial' then 'Mortgage foreclosure is non-judicial: a trustee sells under a power of sale without a lawsuit, so foreclosures move faster' || foreclosure_cit || '.'
            when 'hybrid' then 'Mortgage foreclosure is hybrid: both judicial and non-judicial (or court-supervised) routes are used' || foreclosure_cit || '.'
            else 'The mortgage foreclosure process of ' || state_name || ' is not recorded.'
        end as foreclosure_sentence,
        case lien_or_deed
            when 'deed' then state_name || ' sells tax deeds: tax-delinquent property is sold outright, with no post-sale redemption period recorded' || tax_cit || '.'
            when 'lien' then state_name || ' sells tax lien certificates: '
                || coalesce('the maximum return is ' || rate_txt || ' (' || rate_basis || ')', 'no single statutory rate is recorded' || coalesce(' (' || rate_basis || ')', ''))
                || coalesce(' and the owner can redeem for ' || redemption_txt || ' months after the sale', '; no single redemption period is recorded')
                || tax_cit || '.'
            when 'hybrid' then state_name || ' has a hybrid tax sale system (redeemable deeds, or liens and deeds by county): '
                || coalesce('the maximum return is ' || rate_txt || ' (' || rate_basis || ')', 'no single statutory rate is recorded' || coalesce(' (' || rate_basis || ')', ''))
                || coalesce(' and the owner can redeem for ' || redemption_txt || ' months after the sale', '; no single redemption period is recorded')
                || tax_cit || '.'
            else 'The tax sale system of ' || state_name || ' is not recorded.'
        end as tax_sentence,
        case rent_control_preemption
            when 'yes' then state_name || ' law bars cities and counties from adopting rent control' || preemption_cit || '.'
            when 'partial' then state_name || ' limits, but does not ban, local rent control' || preemption_cit || '.'
            when 'no' then 'No ' || state_name || ' statute bars local rent control, so local governments may adopt it' || preemption_cit || '.'
            else 'Whether ' || state_name || ' preempts local rent control is not recorded.'
        end as preemption_sentence,
        case
            when statewide_rent_control then state_name || ' caps rent increases statewide'
                || case when statewide_cap_cpi_plus_pct is not null and statewide_cap_max_pct is not null
                        then ' at ' || printf('%g', statewide_cap_cpi_plus_pct) || '% plus CPI, never more than ' || printf('%g', statewide_cap_max_pct) || '% a year'
                        when statewide_cap_max_pct is not null then ' at no more than ' || printf('%g', statewide_cap_max_pct) || '% a year'
                        else '' end
                || coalesce('; buildings newer than ' || printf('%g', statewide_cap_new_construction_exempt_years) || ' years are exempt', '')
                || cap_cit || '.'
            when statewide_rent_control = false then 'There is no statewide cap on rent increases.'
            else ''
        end as statewide_cap_sentence,
        case when just_cause_required then state_name || ' requires a just cause to end a tenancy'
                || coalesce(' once the tenant has stayed ' || printf('%g', just_cause_after_months) || ' months', '') || jc_cit || '.'
            else '' end as just_cause_sentence,
        case
            when has_deposit_cap = false then state_name || ' sets no statutory cap on security deposits' || deposit_cit || '.'
            when deposit_limit_months is not null then 'Security deposits are capped at ' || printf('%g', deposit_limit_months)
                || case when deposit_limit_months = 1 then ' month''s' else ' months''' end || ' rent' || deposit_cit || '.'
            else 'No security deposit limit is recorded for ' || state_name || '.'
        end as deposit_sentence,
        case when adverse_possession_years is not null then
            'Adverse possession can ripen into title after ' || printf('%g', adverse_possession_years) || ' years of open, continuous possession'
            || case when adverse_possession_taxes_required then ' with the taxes paid' else '' end
            || case when color_of_title_years is not null and color_of_title_years < adverse_possession_years
                    then ' (' || printf('%g', color_of_title_years) || ' years with color of title)' else '' end
            || ap_cit || '.'
            else 'The adverse possession period of ' || state_name || ' is not recorded.'
        end as adverse_possession_sentence,
        'Landlord friendliness: ' || printf('%g', landlord_friendliness_score) || '/100 (' || landlord_friendliness_label || ').' as friendliness_sentence,
        -- topics whose record carries uncertain_fields (market/landlord summaries; tax-sale bodies add surplus proceeds)
        list_filter([
            case when len(coalesce(notice_uncertain, [])) > 0 then 'the nonpayment notice' end,
            case when len(coalesce(timeline_uncertain, [])) > 0 then 'the eviction timeline' end,
            case when len(coalesce(foreclosure_uncertain, [])) > 0 then 'the foreclosure type' end,
            case when len(coalesce(tax_sale_uncertain, [])) > 0 then 'the tax sale terms (' || array_to_string(list_transform(tax_sale_uncertain, u ->
                case u when 'sale_type' then 'lien or deed type' when 'interest_rate_pct' then 'rate' when 'rate_basis' then 'rate basis'
                       when 'redemption_period_months' then 'redemption period' when 'summary' then 'details' else replace(u, '_', ' ') end), ', ') || ')' end,
            case when len(coalesce(preemption_uncertain, [])) > 0 then 'rent control preemption' end,
            case when len(coalesce(statewide_cap_uncertain, [])) > 0 then 'the statewide rent cap' end,
            case when len(coalesce(just_cause_uncertain, [])) > 0 then 'the just-cause rule' end,
            case when len(coalesce(deposit_uncertain, [])) > 0 then 'the security deposit limit' end,
            case when len(coalesce(adverse_possession_uncertain, [])) > 0 then 'the adverse possession period' end
        ], x -> x is not null) as uncertain_topics,
    from parts
),
actions as (
    select
        *,
        -- eviction
        case
            when eviction_timeline_min_days is not null and eviction_timeline_max_days is not null then
                'Budget about ' || timeline_range || ' days of lost rent and court costs for an uncontested nonpayment eviction in ' || state_name
                || case when eviction_notice_days > 0 then ', starting with the ' || printf('%g', eviction_notice_days) || '-' || rtrim(day_word) || case when day_word = '' then '' else '-' end || 'day notice' else '' end
                || '; contested cases take longer.'
            else 'No public eviction timeline estimate exists for ' || state_name || ': get a local attorney''s estimate before underwriting a turnover'
                || case when eviction_notice_days > 0 then ' (the nonpayment notice alone is ' || printf('%g', eviction_notice_days) || ' ' || day_word || 'days)' else '' end || '.'
        end as eviction_action,
        case foreclosure_type
            when 'judicial' then 'Foreclosures in ' || state_name || ' go through the courts: budget longer timelines and legal costs for notes, pre-foreclosures and REO, and expect borrowers to have more time to reinstate.'
            when 'non-judicial' then 'Trustee sales in ' || state_name || ' move without a court case: watch recorded default and sale notices for deal flow, and get a title search before bidding.'
            when 'hybrid' then state_name || ' uses both judicial and non-judicial foreclosure: check which route the deed of trust or mortgage allows before pricing the timeline.'
        end as foreclosure_action,
        case lien_or_deed
            when 'lien' then 'Tax lien certificates in ' || state_name || ' earn at most '
                || coalesce(rate_txt || ' (' || rate_basis || ')', 'a rate that is not a single statutory number' || coalesce(' (' || rate_basis || ')', ''))
                || coalesce(' and the owner has ' || redemption_txt || ' months to redeem', '')
                || '; treat certificates as a yield play that rarely ends with the property, and bid knowing the rate is a maximum.'
            when 'hybrid' then 'Tax sale purchases in ' || state_name || ' can be redeemed'
                || coalesce(' for ' || redemption_txt || ' months', '')
                || coalesce(' at up to ' || rate_txt || ' (' || rate_basis || ')', '')
                || ': do not renovate or resell before the redemption window closes, and check the county''s own procedure.'
            when 'deed' then 'Tax deed sales in ' || state_name || ' transfer the property: order a title search, budget a quiet-title action before reselling, and check how surplus proceeds go back to the former owner (Tyler v. Hennepin County, 2023).'
        end as tax_action,
        case
            when statewide_rent_control then 'Underwrite rent growth within the ' || state_name || ' statewide cap'
                || case when statewide_cap_cpi_plus_pct is not null and statewide_cap_max_pct is not null
                        then ' (' || printf('%g', statewide_cap_cpi_plus_pct) || '% plus CPI, at most ' || printf('%g', statewide_cap_max_pct) || '% a year)'
                        else '' end
                || coalesce('; buildings newer than ' || printf('%g', statewide_cap_new_construction_exempt_years) || ' years are exempt', '') || '.'
        end as statewide_cap_action,
        case when just_cause_required then 'Screen tenants carefully: after '
                || coalesce(printf('%g', just_cause_after_months) || ' months', 'the start of the tenancy')
                || ' a ' || state_name || ' tenancy can be ended only for a just cause.' end as just_cause_action,
        case
            when has_deposit_cap = false then 'No statutory deposit cap in ' || state_name || ': size the deposit to the tenant''s risk and check local rules.'
            when deposit_limit_months is not null then 'Collect at most ' || printf('%g', deposit_limit_months)
                || case when deposit_limit_months = 1 then ' month''s' else ' months''' end || ' rent as a security deposit in ' || state_name || '.'
        end as deposit_action,
        case when adverse_possession_years is not null then
            'Secure and inspect vacant properties and act on trespassers at once: in ' || state_name || ' adverse possession can ripen after '
            || printf('%g', adverse_possession_years) || ' years'
            || case when color_of_title_years is not null and color_of_title_years < adverse_possession_years
                    then ' (' || printf('%g', color_of_title_years) || ' with color of title)' else '' end
            || case when adverse_possession_taxes_required then ' (the possessor must also pay the taxes)' else '' end || '.'
        end as adverse_possession_action,
    from sentences
),
final as (
    select
        state_code,
        state_name,
        notice_sentence,
        timeline_sentence,
        foreclosure_sentence,
        tax_sentence,
        preemption_sentence,
        preemption_citation,
        statewide_cap_sentence,
        just_cause_sentence,
        deposit_sentence,
        adverse_possession_sentence,
        friendliness_sentence,
        uncertain_topics,
        case when len(uncertain_topics) > 0 then 'Unverified or conflicting in our sources: ' || array_to_string(uncertain_topics, '; ')
            || '. Confirm these with the statute or a local attorney before relying on them.' else '' end as uncertainty_sentence,
        -- the one disclaimer every /v1/legal/ body carries
        'This is general information about public law, not legal advice. Laws change and local rules vary; confirm the current rules with a licensed attorney in the state before acting.' as disclaimer,
        last_reviewed_at,
        eviction_action,
        foreclosure_action,
        tax_action,
        statewide_cap_action,
        just_cause_action,
        deposit_action,
        adverse_possession_action,
        case when len(uncertain_topics) > 0 then 'Confirm with a local attorney before acting; our sources leave these unverified or conflicting: '
            || array_to_string(uncertain_topics, '; ') || '.' end as uncertainty_action,
    from actions
)
select * from final order by state_code;
