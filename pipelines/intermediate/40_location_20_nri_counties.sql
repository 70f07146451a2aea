-- requires: stg_fema_nri__counties
-- int_nri_counties: the NRI composite risk per county (one row per 5-digit county FIPS).
insert into meta.rejects
select 'intermediate', 'fema_nri', _file, _row + 1, 'bad_county_fips', coalesce(county_fips, '')
from stg_fema_nri__counties
where not regexp_matches(coalesce(county_fips, ''), '^\d{5}$');

insert into int_nri_counties
select county_fips, any_value(state_code), any_value(county_name), any_value(risk_score), any_value(risk_rating),
       any_value(eal_score), any_value(eal_rating)
from stg_fema_nri__counties
where regexp_matches(coalesce(county_fips, ''), '^\d{5}$')
group by county_fips;
