-- requires: raw."simplemaps__cities", int_market_city_tiers
-- Fallback market tier per city while the geo `cities` table is absent (30_market_90 replaces these rows when
-- it exists): by city population, primary >= 500,000, secondary >= 100,000, tertiary >= 20,000, else rural.
insert into int_market_city_tiers
select state_code, city_slug, city_name,
       case when population >= 500000 then 'primary' when population >= 100000 then 'secondary'
            when population >= 20000 then 'tertiary' else 'rural' end,
       'simplemaps population rule'
from (
    select upper(trim(state_id)) as state_code, slug(city) as city_slug, arg_max(trim(city), try_cast(population as double)) as city_name,
           max(try_cast(population as double)) as population
    from raw."simplemaps__cities" where city is not null and state_id is not null
    group by 1, 2
);
