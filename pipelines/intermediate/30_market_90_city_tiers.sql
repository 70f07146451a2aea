-- requires: cities, int_market_city_tiers
-- Market tier per city from the geo `cities` table (its market_tier): replaces the fallback rows.
delete from int_market_city_tiers;
insert into int_market_city_tiers
select state_code, slug(city_name), arg_max(city_name, coalesce(population, 0)), arg_max(market_tier, coalesce(population, 0)), 'cities'
from cities where city_name is not null and state_code is not null
group by state_code, slug(city_name);
