-- check: counties are unique 5-digit FIPS codes of a known state; Connecticut uses its planning regions (09110-09190)
-- requires: counties, states
select county_fips, 'not 5 digits' as problem from counties where not regexp_matches(coalesce(county_fips, ''), '^\d{5}$')
union all
select county_fips, 'duplicate' from counties group by county_fips having count(*) > 1
union all
select county_fips, 'unknown state ' || coalesce(state_code, 'null') from counties where state_code not in (select state_code from states) or state_code is null
union all
select county_fips, 'FIPS does not start with the state FIPS' from counties c join states s using (state_code) where left(c.county_fips, 2) <> s.state_fips
union all
select county_fips, 'old Connecticut county' from counties where county_fips between '09001' and '09015'
union all
select county_fips, 'no name' from counties where county_name is null or county_name = ''
