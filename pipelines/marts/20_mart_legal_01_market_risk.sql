-- requires: int_legal_markets, state_legal, int_legal_state_text
-- mart_legal_market_risk: one row per legal market (every city of `cities` plus overlay cities missing from it;
-- see int_legal_markets) with the legal risk score for an investor (0-100, higher = riskier), its label, the
-- plain-English summary and the investor actions of GET /v1/legal/market-legal-risk.
-- Score (warehouse/docs/legal.md "Legal risk"): weighted sum of 0-100 component risks
--   35% tenant friendliness    100 - landlord_friendliness_score
--   15% foreclosure            judicial 100, hybrid 50, non-judicial 0 (missing 50)
--   10% eviction timeline      100 - state_legal.timeline_score (no estimate -> 50)
--   15% local rent control     city ordinance 100, county ordinance that may apply 50, none 0
--   10% local eviction rules   city protections 100, county protections that may apply 50, none 0
--   10% tax sale redemption    deed state 0; lien/hybrid: redemption months / 36 * 100, capped (no single period -> 50)
--    5% adverse possession     (21 - years) * 100 / 16, clamped (5 years -> 100, 21+ -> 0; missing 50)
-- Labels: < 20 Low, < 35 Moderate, < 50 Elevated, < 65 High, else Very High.
create or replace table mart_legal_market_risk as
with market as (
    select * from int_legal_markets
),
joined as (
    select
        m.*,
        l.state_name,
        l.landlord_friendliness_score,
        l.landlord_friendliness_label,
        l.foreclosure_type,
        l.lien_or_deed,
        l.interest_rate_pct,
        l.redemption_period_months,
        l.rent_control_preemption,
        l.statewide_rent_control,
        l.timeline_score,
        l.adverse_possession_years,
        t.* exclude (state_code, state_name, last_reviewed_at),
        least(cast(l.last_reviewed_at as date), m.overlay_last_reviewed_at) as reviewed,
    from market m
    join state_legal l using (state_code)
    join int_legal_state_text t using (state_code)
),
components as (
    select
        *,
        100.0 - landlord_friendliness_score as tenant_friendliness_risk,
        case foreclosure_type when 'judicial' then 100.0 when 'hybrid' then 50.0 when 'non-judicial' then 0.0 else 50.0 end as foreclosure_risk,
        100.0 - coalesce(timeline_score, 50.0) as eviction_timeline_risk,
        case when city_rent_control then 100.0 when county_rent_control then 50.0 else 0.0 end as rent_control_risk,
        case when city_eviction_protections then 100.0 when county_eviction_protections then 50.0 else 0.0 end as eviction_protection_risk,
        case
            when lien_or_deed = 'deed' then 0.0
            when redemption_period_months is null then 50.0
            else least(100.0, redemption_period_months / 36.0 * 100.0)
        end as redemption_risk,
        case when adverse_possession_years is null then 50.0
            else greatest(0.0, least(100.0, (21.0 - adverse_possession_years) * 100.0 / 16.0)) end as adverse_possession_risk,
    from joined
),
scored as (
    select
        *,
        round(0.35 * tenant_friendliness_risk + 0.15 * foreclosure_risk + 0.10 * eviction_timeline_risk + 0.15 * rent_control_risk
              + 0.10 * eviction_protection_risk + 0.10 * redemption_risk + 0.05 * adverse_possession_risk, 1) as score,
    from components
),
labelled as (
    select
        *,
        case
            when score < 20 then 'Low'
            when score < 35 then 'Moderate'
            when score < 50 then 'Elevated'
            when score < 65 then 'High'
            else 'Very High'
        end as label,
        list_filter(city_overlays, o -> o.rent_control and o.category = 'rent_control') as rc_records,
        -- the eviction-protection records to name: the non-rent-control ones when there are any (a just-cause ordinance),
        -- else the rent control records that carry the protections (Berkeley's one ordinance covers both)
        coalesce(
            nullif(list_filter(city_overlays, o -> o.eviction_protections and o.category <> 'rent_control'), []),
            list_filter(city_overlays, o -> o.eviction_protections)
        ) as ep_records,
        list_filter(city_overlays, o -> o.uncertain) as uncertain_overlays,
        list_filter(county_overlays, o -> o.uncertain) as uncertain_county_overlays,
        -- the local ordinances the state's friendliness score does not count (the market's own, its city's for a part of a
        -- city, else the county ones that may apply): the landlord profile's landlord_friendliness_uncounted, and the
        -- list the friendliness note below names (one list, so the two cannot disagree)
        list_transform(list_concat(city_overlays, county_overlays), o -> {
            id: o.id,
            jurisdiction_level: o.jurisdiction_level,
            jurisdiction_name: case when o.jurisdiction_level = 'county' then coalesce(county_name, 'county ' || county_fips)
                                    else coalesce(part_of_city, city_name) end,
            category: o.category,
            title: o.title,
        }) as friendliness_uncounted,
    from scored
),
text as (
    select
        *,
        case
            when len(city_overlays) > 0 then
                city_name || coalesce(' (part of ' || part_of_city || ', whose ordinances apply)', '') || ' has local '
                || case when city_rent_control and city_eviction_protections then 'rent control and eviction protections beyond state law'
                        when city_rent_control then 'rent control' else 'eviction protections beyond state law' end
                || ': '
                || array_to_string(list_transform(city_overlays, o -> o.title || coalesce(' (' || o.cap_formula || ')', '')), '; ')
                || '. ' || preemption_sentence
            when len(county_overlays) > 0 then
                'A county ordinance may apply in ' || city_name || ': '
                || array_to_string(list_transform(county_overlays, o -> o.title || coalesce(' (' || o.cap_formula || ')', '')), '; ')
                || '; a county rule''s reach inside city limits varies, so check its scope for the property. ' || preemption_sentence
            when rent_control_preemption = 'yes' then city_name || ' has no local rent control; ' || state_name || ' preempts it'
                || coalesce(' (' || preemption_citation || ')', '') || '.'
            when rent_control_preemption = 'partial' then 'No local rent control or eviction ordinance is recorded for ' || city_name || '. ' || preemption_sentence
            else 'No local rent control or eviction ordinance is recorded for ' || city_name || '. ' || preemption_sentence
        end as local_sentence,
        -- The friendliness score is the state's, from state law alone (legal.md "Landlord friendliness"): the sentence
        -- says so and names the local ordinances it does not count (review 10 #11: Chicago read 93.9 "Very
        -- Landlord-Friendly" beside its RLTO without a word). One sentence for the market summary and the landlord profile.
        'Landlord friendliness: ' || printf('%g', landlord_friendliness_score) || '/100 (' || landlord_friendliness_label || ') is '
        || state_name || '''s score, from state law alone; '
        || case
            when len(friendliness_uncounted) = 0 then 'no local ordinance is recorded for ' || city_name || '.'
            when friendliness_uncounted[1].jurisdiction_level = 'city' then 'it does not count the local '
                || case when len(friendliness_uncounted) = 1 then 'ordinance that adds' else 'ordinances that add' end || ' to state law in '
                || city_name || coalesce(' (part of ' || part_of_city || ')', '') || ': '
                || array_to_string(list_transform(friendliness_uncounted, o -> o.title), '; ') || '.'
            else 'it does not count the county '
                || case when len(friendliness_uncounted) = 1 then 'ordinance' else 'ordinances' end || ' that may apply in ' || city_name || ': '
                || array_to_string(list_transform(friendliness_uncounted, o -> o.title), '; ') || '.'
        end as friendliness_note,
        list_concat(
            uncertain_topics,
            list_transform(uncertain_overlays, o -> 'the details of ' || o.title),
            list_transform(uncertain_county_overlays, o -> 'the details of ' || o.title)
        ) as market_uncertain_topics,
    from labelled
),
final as (
    select
        state_code,
        city_name,
        city_slug,
        county_fips,
        county_name,
        population,
        in_cities,
        cast(score as double) as legal_risk_score,
        label as legal_risk_label,
        cast(round(tenant_friendliness_risk, 1) as double) as tenant_friendliness_risk,
        cast(foreclosure_risk as double) as foreclosure_risk,
        cast(round(eviction_timeline_risk, 1) as double) as eviction_timeline_risk,
        cast(rent_control_risk as double) as rent_control_risk,
        cast(eviction_protection_risk as double) as eviction_protection_risk,
        cast(round(redemption_risk, 1) as double) as redemption_risk,
        cast(round(adverse_possession_risk, 1) as double) as adverse_possession_risk,
        city_rent_control,
        city_eviction_protections,
        county_rent_control,
        county_eviction_protections,
        city_overlays,
        county_overlays,
        local_sentence,
        friendliness_note,
        friendliness_uncounted,
        concat_ws(' ',
            city_name || ', ' || state_name || ': legal risk ' || printf('%g', score) || '/100 (' || label || ') for a residential investor.',
            notice_sentence,
            timeline_sentence,
            foreclosure_sentence,
            tax_sentence,
            local_sentence,
            nullif(case when statewide_rent_control then statewide_cap_sentence end, ''),
            nullif(just_cause_sentence, ''),
            deposit_sentence,
            friendliness_note,
            case when len(market_uncertain_topics) > 0 then 'Unverified or conflicting in our sources: ' || array_to_string(market_uncertain_topics, '; ')
                || '. Confirm these with the statute, the ordinance or a local attorney before relying on them.' end
        ) as plain_english_summary,
        list_filter([
            case when len(rc_records) > 0 then
                array_to_string(list_transform(rc_records, o ->
                    city_name || ' caps rent increases on covered units (' || o.title || ')'
                    || coalesce(': ' || o.cap_formula, '')
                    || coalesce(case when o.cap_formula is null or strpos(o.cap_formula, printf('%g', o.annual_cap_pct) || '%') = 0
                                     then '; hard ceiling ' || printf('%g', o.annual_cap_pct) || '% a year' end, '')
                    || '. Underwrite rent growth at or below the cap and check whether the unit is exempt before buying.'), ' ') end,
            case when len(ep_records) > 0 then
                city_name || ' limits evictions beyond state law (' || array_to_string(list_transform(ep_records, o -> o.title), '; ') || ')'
                || ': budget for longer tenancies, check relocation-payment and notice rules, and review existing leases before buying occupied units.' end,
            case when len(county_overlays) > 0 then
                'Check whether ' || array_to_string(list_transform(county_overlays, o -> o.title), '; ')
                || ' covers the property: county rules may not reach inside ' || city_name || '''s limits.' end,
            eviction_action,
            just_cause_action,
            statewide_cap_action,
            foreclosure_action,
            tax_action,
            deposit_action,
            adverse_possession_action,
            case when len(market_uncertain_topics) > 0 then 'Confirm with a local attorney before acting; our sources leave these unverified or conflicting: '
                || array_to_string(market_uncertain_topics, '; ') || '.' end
        ], a -> a is not null) as investor_actions,
        market_uncertain_topics as uncertain_topics,
        cast(reviewed as varchar) as last_reviewed_at,
        disclaimer,
    from text
)
select * from final order by state_code, city_slug;
