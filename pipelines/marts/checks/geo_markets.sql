-- check: markets are unique per state and name, have population >= 5,000, a county name and a tier in the enum
-- requires: mart_geo_markets
select state_code || '/' || city_name as market, 'duplicate' as problem from mart_geo_markets group by state_code, city_name having count(*) > 1
union all
select state_code || '/' || city_name, 'tier ' || coalesce(market_tier, 'null') from mart_geo_markets where market_tier is null or market_tier not in ('primary', 'secondary', 'tertiary', 'rural')
union all
select state_code || '/' || city_name, 'population below 5,000' from mart_geo_markets where population < 5000
union all
select state_code || '/' || city_name, 'no county name' from mart_geo_markets where county_name is null or county_name = ''
