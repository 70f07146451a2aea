-- requires: mart_geo_markets, states
-- GET /v1/geo/markets?state=&tier=&investor_active=: one shard per state (50 + DC) x tier (all, primary,
-- secondary, tertiary, rural) x investor_active (null = any, 'true' = active only); markets by population desc.
with state as (
    select state_code from states
),
tier as (
    select unnest(['all', 'primary', 'secondary', 'tertiary', 'rural']) as tier
),
active_filter as (
    select unnest([null, 'true']) as investor_active
),
combinations as (
    select s.state_code, t.tier, a.investor_active,
    from state s cross join tier t cross join active_filter a
),
selected as (
    select
        c.state_code,
        c.tier,
        c.investor_active,
        m.city_name,
        m.county_name,
        m.market_tier,
        m.is_investor_active,
        m.has_city_rent_control,
        m.state_rank,
    from combinations c
    left join mart_geo_markets m
        on m.state_code = c.state_code
        and (c.tier = 'all' or m.market_tier = c.tier)
        and (c.investor_active is null or m.is_investor_active)
),
final as (
    select
        state_code as state,
        tier,
        investor_active,
        to_json({
            state_code: state_code,
            count: count(city_name)::integer,
            markets: coalesce(list({
                city_name: city_name,
                county_name: county_name,
                market_tier: market_tier,
                is_investor_active: is_investor_active,
                has_city_rent_control: has_city_rent_control,
            } order by state_rank) filter (where city_name is not null), []),
        })::varchar as body,
    from selected
    group by state_code, tier, investor_active
)
select * from final order by state, tier, investor_active nulls first;
