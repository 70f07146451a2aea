-- check: local rent control and eviction flags appear only where an active overlay record sets them, and every active city overlay reaches its market
-- requires: local_legal, regulations, mart_legal_market_risk
with overlay as (
    select
        state_code, county_fips, city, jurisdiction_level,
        cast(structured_data->>'rent_control' as boolean) as rent_control,
        cast(structured_data->>'eviction_protections' as boolean) as eviction_protections,
    from regulations
    where status = 'active' and jurisdiction_level in ('city', 'county') and subcategory = 'local_overlay'
)
-- a local_legal flag without an overlay record that sets it
select l.state_code, coalesce(l.city, l.county_fips) as jurisdiction, 'local_legal flag without an overlay record' as problem
from local_legal l
where (l.has_city_rent_control and not exists (
        select 1 from overlay o where o.state_code = l.state_code and o.county_fips is not distinct from l.county_fips
            and o.city is not distinct from l.city and o.rent_control))
    or (l.has_city_eviction_protections and not exists (
        select 1 from overlay o where o.state_code = l.state_code and o.county_fips is not distinct from l.county_fips
            and o.city is not distinct from l.city and o.eviction_protections))
union all
-- a market flag without the overlay records behind it
select state_code, city_name, 'market flag without an overlay'
from mart_legal_market_risk
where ((city_rent_control or city_eviction_protections) and len(city_overlays) = 0)
    or ((county_rent_control or county_eviction_protections) and len(county_overlays) = 0)
    or (rent_control_risk > 0 and not (city_rent_control or county_rent_control))
    or (eviction_protection_risk > 0 and not (city_eviction_protections or county_eviction_protections))
union all
-- an active city overlay whose city has no market row carrying it
select o.state_code, o.city, 'city overlay missing from its market'
from overlay o
where o.jurisdiction_level = 'city'
    and not exists (select 1 from mart_legal_market_risk m where m.state_code = o.state_code and m.city_slug = slug(o.city) and len(m.city_overlays) > 0)
