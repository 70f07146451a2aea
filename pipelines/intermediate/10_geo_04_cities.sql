-- requires: states, counties, int_geo_cbsas, int_geo_places, stg_simplemaps__cities
-- Canonical cities: one row per (state_code, slug(city_name)) of the simplemaps US cities in the 50 states + DC.
-- population: the ACS 2023 place population of the matching Census place (simplemaps' own figure is the
-- urban-area population for the largest cities, e.g. New York 18.8 M); simplemaps' figure when no place matches.
-- market_tier: by the population of the city's CBSA (metro or micro area), see warehouse/docs/geo.md.
-- is_market: population >= 5,000 (the markets list of /v1/geo/markets).
create or replace table cities as
with simplemaps as (
    select * from stg_simplemaps__cities where state_code in (select state_code from states)
),
places as (
    select * from int_geo_places
),
-- 1. same state, same name without descriptor ("Seattle" = "Seattle city"), nearest within 80 km
--    (internal points can sit far from the simplemaps point: San Francisco's is 52 km west, offshore)
exact_candidates as (
    select
        c.simplemaps_id,
        p.place_geoid,
        p.population,
        111.2 * sqrt(power(c.lat - p.lat, 2) + power((c.lng - p.lng) * cos(radians(c.lat)), 2)) as distance_km,
    from simplemaps c
    join places p on p.state_code = c.state_code and p.name_core = slug(c.city_name)
),
exact_match as (
    select simplemaps_id, arg_min(place_geoid, distance_km) as place_geoid, arg_min(population, distance_km) as population,
    from exact_candidates
    where distance_km <= 80
    group by simplemaps_id
),
-- 2. otherwise a place whose name contains the city's name as whole words ("Boise City city",
--    "Nashville-Davidson metropolitan government (balance)", "Urban Honolulu CDP"), nearest within 25 km
unmatched as (
    select * from simplemaps where simplemaps_id not in (select simplemaps_id from exact_match)
),
partial_candidates as (
    select
        c.simplemaps_id,
        p.place_geoid,
        p.population,
        111.2 * sqrt(power(c.lat - p.lat, 2) + power((c.lng - p.lng) * cos(radians(c.lat)), 2)) as distance_km,
    from unmatched c
    join places p
        on p.state_code = c.state_code
        and ('-' || p.name_slug || '-') like ('%-' || slug(c.city_name) || '-%')
),
partial_match as (
    select simplemaps_id, arg_min(place_geoid, distance_km) as place_geoid, arg_min(population, distance_km) as population,
    from partial_candidates
    where distance_km <= 25
    group by simplemaps_id
),
place_match as (
    select * from exact_match
    union all
    select * from partial_match
),
enriched as (
    select
        c.simplemaps_id as city_id,
        c.city_name,
        slug(c.city_name) as city_slug,
        c.state_code,
        co.county_fips,
        co.county_name,
        co.cbsa_code,
        co.metro_area,
        co.cbsa_type,
        cb.population as cbsa_population,
        coalesce(m.population, c.population) as population,
        case when m.population is not null then 'acs_place' else 'simplemaps' end as population_source,
        c.population as simplemaps_population,
        m.place_geoid,
        c.is_incorporated,
        c.is_military,
        c.ranking,
        list_sort(list_distinct(list_filter(c.zip_codes, z -> regexp_matches(z, '^\d{5}$')))) as zip_codes,
        c.lat,
        c.lng,
        c.timezone,
        c._file,
        c._row,
    from simplemaps c
    left join place_match m using (simplemaps_id)
    left join counties co on co.county_fips = c.county_fips
    left join int_geo_cbsas cb on cb.cbsa_code = co.cbsa_code
),
ranked as (
    select
        *,
        row_number() over (
            partition by state_code, city_slug
            order by population desc nulls last, ranking asc nulls last, city_id
        ) as slug_rank,
    from enriched
),
final as (
    select
        city_id,
        city_name,
        city_slug,
        state_code,
        county_fips,
        county_name,
        cbsa_code,
        metro_area,
        cbsa_type,
        cbsa_population,
        population,
        population_source,
        simplemaps_population,
        place_geoid,
        case
            when cbsa_population >= 1000000 then 'primary'
            when cbsa_population >= 250000 then 'secondary'
            when cbsa_code is not null then 'tertiary'
            else 'rural'
        end as market_tier,
        coalesce(population >= 5000, false) as is_market,
        is_incorporated,
        is_military,
        zip_codes,
        lat,
        lng,
        timezone,
    from ranked
    where slug_rank = 1
)
select * from final order by state_code, city_slug;

insert into meta.rejects
select 'intermediate', 'simplemaps', _file, _row + 1, 'territory_out_of_scope', city_name || ', ' || state_code
from stg_simplemaps__cities
where state_code not in (select state_code from states);

-- A second city with the same state and slug: the most populous one was kept.
insert into meta.rejects
select 'intermediate', 'simplemaps', s._file, s._row + 1, 'duplicate_city_slug',
    s.city_name || ', ' || s.state_code || ' (kept id ' || c.city_id || ')'
from stg_simplemaps__cities s
join cities c on c.state_code = s.state_code and c.city_slug = slug(s.city_name)
where s.simplemaps_id <> c.city_id;
