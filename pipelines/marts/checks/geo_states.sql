-- check: states has the 50 states and DC once each; mart_geo_states has exactly the 50 states, each with its legal fields
-- requires: states, mart_geo_states
with state_counts as (
    select count(*) filter (where is_state) as states, count(*) filter (where not is_state) as districts,
        count(distinct state_code) as codes, count(*) as total,
    from states
),
mart_counts as (
    select count(*) as total, count(distinct state_code) as codes from mart_geo_states
)
select 'states: ' || states || ' states, ' || districts || ' districts, ' || codes || ' codes' as problem
from state_counts where states <> 50 or districts <> 1 or codes <> total
union all
select 'mart_geo_states: ' || total || ' rows, ' || codes || ' codes' from mart_counts where total <> 50 or codes <> 50
union all
select 'mart_geo_states ' || state_code || ': a required field is null'
from mart_geo_states
where state_name is null or landlord_friendliness_score is null or landlord_friendliness_label is null
    or foreclosure_type is null or lien_or_deed is null
union all
select 'mart_geo_states ' || state_code || ': score ' || landlord_friendliness_score || ' outside 0-100'
from mart_geo_states where landlord_friendliness_score not between 0 and 100
