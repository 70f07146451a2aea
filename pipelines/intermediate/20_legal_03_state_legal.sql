-- requires: int_legal_state_facts
-- state_legal: one row per state (50 + DC): foreclosure and tax sale mechanics, the landlord-tenant facts, and the
-- landlord friendliness composite (0-100, higher = friendlier to landlords) with its label.
-- Composite (warehouse/docs/legal.md "Landlord friendliness"): weighted mean of six 0-100 component scores
--   notice 15%      100 - (calendar-equivalent days - 3) * 100/27, clamped (<= 3 days -> 100, 30 days -> 0);
--                   business or judicial days count 1.4 calendar days each
--   timeline 20%    100 - (midpoint days - 21) * 100/99, clamped (<= 21 days -> 100, 120+ days -> 0)
--   deposit 15%     no statutory cap -> 100, else 10 + 30 * cap months, clamped (1 month -> 40, 3 -> 100)
--   preemption 20%  state bars local rent control: yes 100, partial 50, no 0
--   statewide 15%   no statewide rent cap 100, a cap 0
--   just cause 15%  no statewide just-cause requirement recorded 100, required 0
-- A missing input (no active record, or a null value such as the 34 states without a timeline estimate) scores the
-- neutral 50. Labels: >= 85 Very Landlord-Friendly, >= 70 Landlord-Friendly, >= 55 Balanced,
-- >= 40 Tenant-Friendly, else Very Tenant-Friendly.
create or replace table state_legal as
with facts as (
    select * from int_legal_state_facts
),
components as (
    select
        *,
        case
            when eviction_notice_days is null then 50.0
            else greatest(0.0, least(100.0,
                100.0 - (eviction_notice_days * case when notice_day_type in ('business', 'judicial') then 1.4 else 1.0 end - 3.0) * 100.0 / 27.0))
        end as notice_score,
        case
            when coalesce(eviction_timeline_min_days, eviction_timeline_max_days) is null then 50.0
            else greatest(0.0, least(100.0,
                100.0 - ((coalesce(eviction_timeline_min_days, eviction_timeline_max_days)
                          + coalesce(eviction_timeline_max_days, eviction_timeline_min_days)) / 2.0 - 21.0) * 100.0 / 99.0))
        end as timeline_score,
        case
            when has_deposit_cap = false then 100.0
            when deposit_limit_months is not null then greatest(0.0, least(100.0, 10.0 + 30.0 * deposit_limit_months))
            else 50.0
        end as deposit_score,
        case rent_control_preemption when 'yes' then 100.0 when 'partial' then 50.0 when 'no' then 0.0 else 50.0 end as preemption_score,
        case statewide_rent_control when false then 100.0 when true then 0.0 else 50.0 end as statewide_cap_score,
        case when just_cause_required then 0.0 else 100.0 end as just_cause_score,
    from facts
),
scored as (
    select
        *,
        round(0.15 * notice_score + 0.20 * timeline_score + 0.15 * deposit_score
              + 0.20 * preemption_score + 0.15 * statewide_cap_score + 0.15 * just_cause_score, 1) as score,
    from components
),
final as (
    select
        state_code,
        state_name,
        cast(score as double) as landlord_friendliness_score,
        case
            when score >= 85 then 'Very Landlord-Friendly'
            when score >= 70 then 'Landlord-Friendly'
            when score >= 55 then 'Balanced'
            when score >= 40 then 'Tenant-Friendly'
            else 'Very Tenant-Friendly'
        end as landlord_friendliness_label,
        foreclosure_type,
        lien_or_deed,
        -- spec: lien states only / null for deed states
        case when lien_or_deed = 'deed' then null else cast(tax_interest_rate_pct as double) end as interest_rate_pct,
        case when lien_or_deed = 'deed' then null else cast(tax_redemption_period_months as double) end as redemption_period_months,
        case when lien_or_deed = 'deed' then null else rate_basis end as rate_basis,
        rent_control_preemption,
        statewide_rent_control,
        cast(eviction_notice_days as double) as eviction_notice_days,
        notice_day_type as eviction_notice_day_type,
        cast(deposit_limit_months as double) as deposit_limit_months,
        cast(eviction_timeline_min_days as double) as eviction_timeline_min_days,
        cast(eviction_timeline_max_days as double) as eviction_timeline_max_days,
        cast(adverse_possession_years as double) as adverse_possession_years,
        coalesce(just_cause_required, false) as just_cause_required,
        cast(round(notice_score, 1) as double) as notice_score,
        cast(round(timeline_score, 1) as double) as timeline_score,
        cast(round(deposit_score, 1) as double) as deposit_score,
        cast(round(preemption_score, 1) as double) as preemption_score,
        cast(round(statewide_cap_score, 1) as double) as statewide_cap_score,
        cast(round(just_cause_score, 1) as double) as just_cause_score,
        cast(last_reviewed_at as varchar) as last_reviewed_at,
    from scored
)
select * from final order by state_code;
