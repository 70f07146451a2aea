-- requires: mart_legal_landlord, mart_legal_market_risk
-- Adds to mart_legal_landlord one row per legal market (every city of `cities` plus the overlay cities; see
-- int_legal_markets): the state's profile with the market's own local overlay (city ordinances, or a county
-- ordinance that may apply), local sentence, the friendliness note (the state's score, naming the local ordinances it
-- does not count) and the list it names them from (landlord_friendliness_uncounted), uncertainty topics and review date.
insert into mart_legal_landlord by name
with state as (
    select * from mart_legal_landlord where city_name is null
),
market as (
    select * from mart_legal_market_risk
),
final as (
    select
        s.* exclude (city_name, city_slug, city_rent_control, city_eviction_protections, county_rent_control, county_eviction_protections,
                     city_overlays, county_overlays, landlord_friendliness_note, landlord_friendliness_uncounted, summary, uncertain_topics, last_reviewed_at),
        m.city_name,
        m.city_slug,
        m.city_rent_control,
        m.city_eviction_protections,
        m.county_rent_control,
        m.county_eviction_protections,
        m.city_overlays,
        m.county_overlays,
        m.friendliness_note as landlord_friendliness_note,
        m.friendliness_uncounted as landlord_friendliness_uncounted,
        concat_ws(' ',
            m.city_name || ', ' || s.state_name || ' landlord profile.',
            m.friendliness_note,
            s.summary_head,
            m.local_sentence,
            s.summary_tail,
            case when len(m.uncertain_topics) > 0 then 'Unverified or conflicting in our sources: ' || array_to_string(m.uncertain_topics, '; ')
                || '. Confirm these with the statute, the ordinance or a local attorney before relying on them.' end
        ) as summary,
        m.uncertain_topics,
        m.last_reviewed_at,
    from market m
    join state s using (state_code)
)
select * from final;
