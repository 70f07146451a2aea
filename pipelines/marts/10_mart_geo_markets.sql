-- requires: mart_geo_cities
-- mart_geo_markets: one row per market (a city with population >= 5,000, cities.is_market), with the fields of
-- the spec's market list element (GET /v1/geo/markets) and its rank in its state by population.
create or replace table mart_geo_markets as
with markets as (
    select * from mart_geo_cities where is_market
),
final as (
    select
        state_code,
        city_name,
        county_name,
        market_tier,
        is_investor_active,
        has_city_rent_control,
        population,
        row_number() over (partition by state_code order by population desc, city_name) as state_rank,
    from markets
)
select * from final order by state_code, state_rank;
