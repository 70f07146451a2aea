-- check: the geography answers have unique keys that exist in the canonical tables: mart_geo_cities one row per city_id and per (state, slug), each in cities, with a tier and landlord score and label in their sets; mart_location_risk zips all in zips
-- requires: mart_geo_cities, cities, mart_location_risk, zips
select 'mart_geo_cities' as "table", city_id as "key", 'city_id missing or duplicate' as problem
from mart_geo_cities group by city_id having city_id is null or count(*) > 1
union all
select 'mart_geo_cities', state_code || '/' || city_slug, 'duplicate (state, slug): the lookup answer would be ambiguous'
from mart_geo_cities group by state_code, city_slug having count(*) > 1
union all
select 'mart_geo_cities', city_id, 'not in cities'
from mart_geo_cities m where not exists (select 1 from cities c where c.city_id = m.city_id and c.state_code = m.state_code and c.city_slug = m.city_slug)
union all
select 'mart_geo_cities', city_id, 'tier, landlord score (0-100) or label outside its set'
from mart_geo_cities
where market_tier is null or market_tier not in ('primary', 'secondary', 'tertiary', 'rural')
   or landlord_friendliness_score not between 0 and 100
   or landlord_friendliness_label not in ('Very Landlord-Friendly', 'Landlord-Friendly', 'Balanced', 'Tenant-Friendly', 'Very Tenant-Friendly')
union all
select 'mart_location_risk', zip, 'zip not in zips' from mart_location_risk where zip not in (select zip from zips)
union all
select 'mart_location_risk', zip, 'duplicate zip' from mart_location_risk group by zip having count(*) > 1
