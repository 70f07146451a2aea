-- requires: state_legal, int_legal_state_facts, int_legal_state_text, int_legal_markets, regulations
-- mart_legal_landlord: one row per state (50 + DC, city null: the state-level profile) plus, added by
-- 20_mart_legal_03_landlord_markets.sql, one row per legal market (every city of `cities` and the overlay cities), with the fields
-- of GET /v1/legal/landlord-profile: landlord friendliness and its components, eviction notice and timeline,
-- adverse possession and squatter risk, rent control preemption, the statewide cap and the local overlay.
-- Squatter risk (warehouse/docs/legal.md "Squatter risk"): points = adverse possession <= 7 years 2, <= 15 years 1;
-- + 1 when the uncontested eviction estimate can exceed 60 days; + 1 when the state is Tenant-Friendly or
-- Very Tenant-Friendly (friendliness < 55); 0-1 Low, 2 Moderate, 3+ High.
-- The friendliness score is the state's, from state law alone (landlord_friendliness_scope 'state'); the note says so
-- and, on a state row, names the places whose own ordinances it does not count, from landlord_friendliness_uncounted
-- (the ordinances, each with its place; a market row's note and list are the market's: 20_mart_legal_01_market_risk.sql
-- friendliness_note, friendliness_uncounted). The score is not adjusted for local ordinances: legal.md
-- "Landlord friendliness" says why.
create or replace table mart_legal_landlord as
with state as (
    select
        l.*,
        x.notice_required,
        x.notice_citation,
        x.just_cause_after_months,
        x.just_cause_citation,
        x.has_deposit_cap,
        x.deposit_citation,
        x.color_of_title_years,
        x.adverse_possession_taxes_required,
        x.adverse_possession_citation,
        x.preemption_citation,
        x.statewide_cap_cpi_plus_pct,
        x.statewide_cap_max_pct,
        x.statewide_cap_new_construction_exempt_years,
        x.statewide_cap_citation,
        t.* exclude (state_code, state_name, last_reviewed_at, preemption_citation),
    from state_legal l
    join int_legal_state_facts x using (state_code)
    join int_legal_state_text t using (state_code)
),
-- the local ordinances of each state (every active city or county overlay record), which the state's score does not
-- count: landlord_friendliness_uncounted of the state row, each with the place it is of (a city's record: the city as
-- the regulations dataset names it; a county's: the county's name as its most populous legal market gives it); the
-- note names those places (a city named as its state is "(the city)"), from the same list
uncounted as (
    select state_code, list({
        id: id,
        jurisdiction_level: jurisdiction_level,
        jurisdiction_name: jurisdiction_name,
        category: category,
        title: title,
    } order by jurisdiction_name, case category when 'rent_control' then 0 when 'eviction' then 1 else 2 end, id) as uncounted
    from (
        select r.id, r.state_code, r.jurisdiction_level, r.category, r.title,
            case when r.jurisdiction_level = 'city' then r.city
                 else coalesce((select first(m.county_name order by m.population desc nulls last) from int_legal_markets m
                                where m.state_code = r.state_code and m.county_fips = r.county_fips and m.county_name is not null),
                               'county ' || r.county_fips) end as jurisdiction_name,
        from regulations r
        where r.status = 'active' and r.jurisdiction_level in ('city', 'county') and r.subcategory = 'local_overlay'
    )
    group by state_code
),
squatter as (
    select
        *,
        case when adverse_possession_years <= 7 then 2 when adverse_possession_years <= 15 then 1 else 0 end
        + case when eviction_timeline_max_days > 60 then 1 else 0 end
        + case when landlord_friendliness_score < 55 then 1 else 0 end as squatter_points,
    from state
),
state_profile as (
    select
        *,
        case when squatter_points >= 3 then 'High' when squatter_points = 2 then 'Moderate' else 'Low' end as squatter_risk,
        'Adverse possession needs ' || coalesce(printf('%g', adverse_possession_years) || ' years of open, continuous possession', 'a period that is not recorded')
        || case when adverse_possession_taxes_required then ' with the taxes paid' else '' end
        || case when color_of_title_years is not null and color_of_title_years < adverse_possession_years
                then ' (' || printf('%g', color_of_title_years) || ' with color of title)' else '' end
        || '. If an occupant claims to be a tenant, removal may need the eviction process'
        || case when eviction_timeline_min_days is not null and eviction_timeline_max_days is not null
                then ', which takes about ' || printf('%g', eviction_timeline_min_days) || '-' || printf('%g', eviction_timeline_max_days) || ' days uncontested'
                else ', for which no public timeline estimate is recorded' end
        || '. State-specific squatter-removal statutes are not recorded here.' as squatter_risk_notes,
    from squatter
),
rows as (
    select
        *,
        cast(null as varchar) as city_name,
        cast(null as varchar) as city_slug,
        false as city_rent_control,
        false as city_eviction_protections,
        false as county_rent_control,
        false as county_eviction_protections,
        -- the overlay lists have the element type of int_legal_markets' lists; empty on state rows
        cast([] as struct(id varchar, jurisdiction_level varchar, category varchar, title varchar, rent_control boolean,
            eviction_protections boolean, annual_cap_pct double, cap_formula varchar, source_citation varchar, uncertain boolean)[]) as city_overlays,
        cast([] as struct(id varchar, jurisdiction_level varchar, category varchar, title varchar, rent_control boolean,
            eviction_protections boolean, annual_cap_pct double, cap_formula varchar, source_citation varchar, uncertain boolean)[]) as county_overlays,
        coalesce(u.uncounted, cast([] as struct(id varchar, jurisdiction_level varchar, jurisdiction_name varchar, category varchar,
            title varchar)[])) as landlord_friendliness_uncounted,
        'Landlord friendliness: ' || printf('%g', landlord_friendliness_score) || '/100 (' || landlord_friendliness_label || ') is '
        || state_name || '''s score, from state law alone; '
        || case when len(u.uncounted) > 0
            then 'local ordinances it does not count are recorded for '
                || array_to_string(list_sort(list_distinct(list_transform(u.uncounted, o -> o.jurisdiction_name
                    || case when o.jurisdiction_level = 'city' and o.jurisdiction_name = state_name then ' (the city)' else '' end))), ', ') || '.'
            else 'no local ordinance is recorded in ' || state_name || '.' end as landlord_friendliness_note,
        concat_ws(' ', notice_sentence, timeline_sentence, nullif(just_cause_sentence, ''), deposit_sentence) as summary_head,
        concat_ws(' ',
            nullif(case when statewide_rent_control then statewide_cap_sentence end, ''),
            adverse_possession_sentence,
            'Squatter risk: ' || squatter_risk || '.') as summary_tail,
    from state_profile
    left join uncounted u using (state_code)
),
final as (
    select
        state_code,
        state_name,
        city_name,
        city_slug,
        landlord_friendliness_score,
        landlord_friendliness_label,
        'state' as landlord_friendliness_scope,
        landlord_friendliness_note,
        landlord_friendliness_uncounted,
        notice_score,
        timeline_score,
        deposit_score,
        preemption_score,
        statewide_cap_score,
        just_cause_score,
        eviction_notice_days,
        eviction_notice_day_type,
        coalesce(notice_required, eviction_notice_days > 0) as notice_required,
        notice_citation,
        eviction_timeline_min_days,
        eviction_timeline_max_days,
        just_cause_required,
        cast(just_cause_after_months as double) as just_cause_after_months,
        just_cause_citation,
        deposit_limit_months,
        coalesce(has_deposit_cap, deposit_limit_months is not null) as has_deposit_cap,
        deposit_citation,
        adverse_possession_years,
        cast(color_of_title_years as double) as color_of_title_years,
        adverse_possession_taxes_required,
        adverse_possession_citation,
        squatter_risk,
        squatter_risk_notes,
        rent_control_preemption,
        preemption_citation,
        statewide_rent_control,
        cast(statewide_cap_cpi_plus_pct as double) as statewide_cap_cpi_plus_pct,
        cast(statewide_cap_max_pct as double) as statewide_cap_max_pct,
        cast(statewide_cap_new_construction_exempt_years as double) as statewide_cap_new_construction_exempt_years,
        statewide_cap_citation,
        city_rent_control,
        city_eviction_protections,
        county_rent_control,
        county_eviction_protections,
        city_overlays,
        county_overlays,
        concat_ws(' ',
            state_name || ' landlord profile.',
            landlord_friendliness_note,
            summary_head,
            preemption_sentence,
            summary_tail,
            case when len(uncertain_topics) > 0 then 'Unverified or conflicting in our sources: ' || array_to_string(uncertain_topics, '; ')
                || '. Confirm these with the statute or a local attorney before relying on them.' end
        ) as summary,
        summary_head,
        summary_tail,
        uncertain_topics,
        cast(last_reviewed_at as varchar) as last_reviewed_at,
        disclaimer,
    from rows
)
select * from final order by state_code, city_slug nulls first;
