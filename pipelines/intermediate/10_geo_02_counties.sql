-- requires: states, stg_usgeo__counties, stg_cbsa_delineation__counties, stg_acs_population__counties
-- Canonical counties (CT: the 2022 planning regions 09110-09190, as in the Gazetteer and the OMB delineation),
-- each with its CBSA (metro or micro area) from the OMB July 2023 delineation, and int_geo_cbsas, one row per CBSA.
create or replace table counties as
with usgeo as (
    select * from stg_usgeo__counties
),
delineation as (
    select * from stg_cbsa_delineation__counties
),
acs as (
    select * from stg_acs_population__counties
),
cbsa_titles as (
    select cbsa_code, any_value(cbsa_title) as cbsa_title, any_value(cbsa_type) as cbsa_type,
    from delineation
    group by cbsa_code
),
joined as (
    select
        u.county_fips,
        u.county_name,
        u.county_short_name,
        u.state_code,
        coalesce(d.cbsa_code, u.cbsa_code) as cbsa_code,
        coalesce(acs.population, u.population) as population,
        coalesce(acs.housing_units, u.housing_units) as housing_units,
        u.land_area_sqmi,
        u.lat,
        u.lng,
        u.timezone,
    from usgeo u
    join states s using (state_code)
    left join delineation d using (county_fips)
    left join acs on acs.geoid = u.county_fips
),
final as (
    select
        j.county_fips,
        j.county_name,
        j.county_short_name,
        j.state_code,
        j.cbsa_code,
        t.cbsa_title as metro_area,
        t.cbsa_type,
        j.population,
        j.housing_units,
        j.land_area_sqmi,
        j.lat,
        j.lng,
        j.timezone,
    from joined j
    left join cbsa_titles t using (cbsa_code)
)
select * from final order by county_fips;

insert into meta.rejects
select 'intermediate', 'usgeo', _file, _row + 1, 'territory_out_of_scope', county_fips || ' ' || county_name
from stg_usgeo__counties
where state_code not in (select state_code from states);

-- One row per CBSA with at least one in-scope county; population = sum of its counties' ACS population.
create or replace table int_geo_cbsas as
with members as (
    select * from counties where cbsa_code is not null
),
final as (
    select
        cbsa_code,
        any_value(metro_area) as cbsa_title,
        any_value(cbsa_type) as cbsa_type,
        cast(sum(population) as bigint) as population,
        count(*)::integer as county_count,
    from members
    group by cbsa_code
)
select * from final order by cbsa_code;
