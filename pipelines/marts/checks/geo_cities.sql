-- check: cities are unique per (state_code, slug), have a name, a known county, a tier in the enum and 5-digit ZIPs
-- requires: cities, counties, states
select state_code || '/' || city_slug as city, 'duplicate slug' as problem from cities group by state_code, city_slug having count(*) > 1
union all
select city_id, 'duplicate city_id' from cities group by city_id having count(*) > 1
union all
select city_id, 'empty name' from cities where city_name is null or city_name = '' or city_slug is null
union all
select city_id, 'tier ' || coalesce(market_tier, 'null') from cities where market_tier is null or market_tier not in ('primary', 'secondary', 'tertiary', 'rural')
union all
select city_id, 'unknown state ' || state_code from cities where state_code not in (select state_code from states)
union all
select city_id, 'county ' || coalesce(county_fips, 'null') || ' not in counties' from cities where county_fips is null or county_fips not in (select county_fips from counties)
union all
select city_id, 'bad zip ' || z from (select city_id, unnest(zip_codes) as z from cities) where not regexp_matches(z, '^\d{5}$')
union all
select city_id, 'population missing or negative' from cities where population is null or population < 0
union all
-- one place twice (h68places): a simplemaps city left unmatched beside its Census place, same name written otherwise
select a.city_id, 'same place as ' || b.city_id || ' (' || b.city_name || ')' from cities a
join cities b on b.state_code = a.state_code and b.city_id <> a.city_id and a.place_geoid is null and b.place_geoid is not null
    and place_key(a.city_name) = place_key(b.city_name) and km_between(a.lat, a.lng, b.lat, b.lng) <= 5
