-- check: the legal answers have unique keys of known states and cities (market risk per state and city slug, landlord profile per state and city, tax sale per state, regulation per id), landlord scores 0-100 with a label in its set, and regulations in the nine categories, active, of a known jurisdiction level
-- requires: mart_legal_market_risk, mart_legal_landlord, mart_legal_tax_sale, mart_regulations, states, cities
select 'mart_legal_market_risk' as "table", state_code || '/' || city_slug as "key", 'duplicate (state, city slug)' as problem
from mart_legal_market_risk group by state_code, city_slug having count(*) > 1
union all
select 'mart_legal_market_risk', state_code || '/' || city_slug, 'city not in cities'
from mart_legal_market_risk m where not exists (select 1 from cities c where c.state_code = m.state_code and c.city_slug = m.city_slug)
union all
select 'mart_legal_landlord', state_code || '/' || coalesce(slug(city_name), '_state'), 'duplicate (state, city)'
from mart_legal_landlord group by state_code, coalesce(slug(city_name), '_state') having count(*) > 1
union all
select 'mart_legal_landlord', state_code || '/' || coalesce(city_name, '_state'), 'state not in states or city not in cities'
from mart_legal_landlord m
where state_code not in (select state_code from states)
   or (city_name is not null and not exists (select 1 from cities c where c.state_code = m.state_code and c.city_slug = slug(m.city_name)))
union all
select 'mart_legal_landlord', state_code || '/' || coalesce(city_name, '_state'), 'landlord score outside 0-100 or label outside its set'
from mart_legal_landlord
where landlord_friendliness_score not between 0 and 100
   or landlord_friendliness_label not in ('Very Landlord-Friendly', 'Landlord-Friendly', 'Balanced', 'Tenant-Friendly', 'Very Tenant-Friendly')
union all
select 'mart_legal_tax_sale', state_code, 'state missing, duplicate or not in states'
from mart_legal_tax_sale group by state_code
having state_code is null or count(*) > 1 or state_code not in (select state_code from states)
union all
select 'mart_regulations', id, 'id missing or duplicate'
from mart_regulations group by id having id is null or count(*) > 1
union all
select 'mart_regulations', id, 'state, category, status or jurisdiction level outside its set'
from mart_regulations
where state_code is null or state_code not in (select state_code from states)
   or category not in ('landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure', 'rent_control', 'tax_deed_lien')
   or status is distinct from 'active'
   or jurisdiction_level not in ('state', 'county', 'city')
