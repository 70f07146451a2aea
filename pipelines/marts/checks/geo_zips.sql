-- check: zips are unique 5-digit codes, each in a known state and county, with a city
-- requires: zips, counties, states
select zip, 'not 5 digits' as problem from zips where not regexp_matches(coalesce(zip, ''), '^\d{5}$')
union all
select zip, 'duplicate' from zips group by zip having count(*) > 1
union all
select zip, 'unknown state ' || coalesce(state_code, 'null') from zips where state_code is null or state_code not in (select state_code from states)
union all
select zip, 'county ' || coalesce(county_fips, 'null') || ' not in counties' from zips where county_fips is null or county_fips not in (select county_fips from counties)
union all
select zip, 'no city' from zips where city is null or city = ''
union all
select zip, 'centroid out of range' from zips where lat not between -90 and 90 or lng not between -180 and 180
