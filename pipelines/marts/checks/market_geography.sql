-- check: every zip of the comps and rehab answers is a zip of the geography, with the geography's state; every investor city with tier_source cities is in cities (and one marked "no city match" is not); every sale's state is a known state (its zip in that state: market_sales_zip_state)
-- requires: zips, states, cities, sales, mart_comps, mart_rehab, mart_investor
select 'mart_comps' as "table", zip as "key", 'zip not in the geography zips' as problem, count(*)::varchar as rows
from mart_comps where zip not in (select zip from zips) group by zip
union all
select 'mart_comps', m.zip, 'state ' || m.state_code || ' but the geography says ' || z.state_code, count(*)::varchar
from mart_comps m join zips z using (zip) where m.state_code is distinct from z.state_code group by m.zip, m.state_code, z.state_code
union all
select 'mart_rehab', zip, 'zip not in the geography zips', count(*)::varchar
from mart_rehab where zip not in (select zip from zips) group by zip
union all
select 'mart_rehab', m.zip, 'state ' || coalesce(m.state_code, 'null') || ' but the geography says ' || z.state_code, count(*)::varchar
from mart_rehab m join zips z using (zip) where m.state_code is distinct from z.state_code group by m.zip, m.state_code, z.state_code
union all
select 'mart_investor', state_code || '/' || city_slug, 'tier_source cities but not in cities', count(*)::varchar
from mart_investor m
where tier_source = 'cities' and not exists (select 1 from cities c where c.state_code = m.state_code and c.city_slug = m.city_slug)
group by state_code, city_slug
union all
select 'mart_investor', state_code || '/' || city_slug, 'marked "' || tier_source || '" but found in cities', count(*)::varchar
from mart_investor m
where tier_source <> 'cities' and exists (select 1 from cities c where c.state_code = m.state_code and c.city_slug = m.city_slug)
group by state_code, city_slug, tier_source
union all
select 'mart_investor', state_code || '/' || city_slug, 'state not in states', count(*)::varchar
from mart_investor where state_code not in (select state_code from states) group by state_code, city_slug
union all
select 'sales', state_code, 'state not in states', count(*)::varchar
from sales where state_code not in (select state_code from states) group by state_code

