-- requires: states, counties, int_geo_cbsas, int_geo_places, int_geo_place_zips, stg_simplemaps__cities, stg_hud_crosswalk__zip_county, stg_usgeo__zctas, stg_usgeo__place_counties
-- Canonical cities: one row per (state_code, slug(city_name)): every Census place of the 50 states + DC with an ACS
-- 2023 population (incorporated or CDP), and every simplemaps city that is no Census place (the five New York
-- boroughs, unincorporated communities). warehouse/docs/geo.md "cities".
--   name        simplemaps' spelling of the place when a simplemaps city matches it ("St. Paul", "Nashville"), else
--               the place's name without its legal descriptor ("Toms River CDP" -> "Toms River")
--   county      the place's primary county (int_geo_places), else simplemaps' county
--   population  ACS 2023 place population; simplemaps' figure for a city without one
--   zip_codes   the place's ZCTAs (int_geo_place_zips) and the non-ZCTA ZIPs (PO boxes, unique ZIPs) whose USPS
--               preferred city is the city (HUD); simplemaps' list for a city that is no place, or a place no ZCTA meets
--   market_tier by the population of the county's CBSA; is_market: population >= 5,000.
create or replace table cities as
with simplemaps as (
    select * from stg_simplemaps__cities where state_code in (select state_code from states)
),
places as (
    select * from int_geo_places
),
-- A simplemaps city is matched to a place with an ACS population:
-- 1. same state, same name without descriptor ("Seattle" = "Seattle city"), nearest within 80 km
--    (internal points can sit far from the simplemaps point: San Francisco's is 52 km west, offshore);
--    then the same name written otherwise (place_key: "Saint Anthony" = "St. Anthony CDP", "De Witt" = "DeWitt CDP")
-- 2. otherwise a place whose name contains the city's name as whole words ("Boise City city",
--    "Nashville-Davidson metropolitan government (balance)", "Urban Honolulu CDP"), nearest within 25 km
-- 3. a city and a place both still unmatched, with the same population within 1 km: the same Census place under
--    another name ("Chesnut Hill" = "Chestnut Hill CDP", "Grovertown" = "Groverton CDP", "On Top of the World Designated
--    Place"); named as the Census names it where no other place of the state is. Without these, each was two cities of
--    the state (h68places).
-- simplemaps_name keeps simplemaps' spelling, an alias of the city (live/places/build.ts).
places_with_people as (
    select * from places where population is not null
),
exact as (
    select c.simplemaps_id, p.place_geoid, 1 as pass,
        111.2 * sqrt(power(c.lat - p.lat, 2) + power((c.lng - p.lng) * cos(radians(c.lat)), 2)) as distance_km,
    from simplemaps c
    join places_with_people p on p.state_code = c.state_code and p.name_core = slug(c.city_name)
    union all
    select c.simplemaps_id, p.place_geoid, 1.5 as pass,
        111.2 * sqrt(power(c.lat - p.lat, 2) + power((c.lng - p.lng) * cos(radians(c.lat)), 2)) as distance_km,
    from simplemaps c
    join places_with_people p on p.state_code = c.state_code and place_key(p.plain_name) = place_key(c.city_name)
        and p.name_core <> slug(c.city_name)
),
unmatched as materialized (
    select * from simplemaps where simplemaps_id not in (select simplemaps_id from exact where distance_km <= 80)
),
partial as (
    select c.simplemaps_id, p.place_geoid, 2 as pass,
        111.2 * sqrt(power(c.lat - p.lat, 2) + power((c.lng - p.lng) * cos(radians(c.lat)), 2)) as distance_km,
    from unmatched c
    join places_with_people p
        on p.state_code = c.state_code
        and ('-' || p.name_slug || '-') like ('%-' || slug(c.city_name) || '-%')
),
in_reach as (
    select * from exact where distance_km <= 80
    union all
    select * from partial where distance_km <= 25
),
-- each simplemaps city takes its best place (exact before partial, then nearest); each place keeps one city
best_place as (
    select simplemaps_id, arg_min(place_geoid, (pass, distance_km)) as place_geoid, min((pass, distance_km)) as rank_key,
    from in_reach group by simplemaps_id
),
first_match as (
    select place_geoid, arg_min(simplemaps_id, (rank_key, simplemaps_id)) as simplemaps_id,
    from best_place group by place_geoid
),
same_place as (
    select c.simplemaps_id, p.place_geoid,
        111.2 * sqrt(power(c.lat - p.lat, 2) + power((c.lng - p.lng) * cos(radians(c.lat)), 2)) as distance_km,
    from simplemaps c
    join places_with_people p on p.state_code = c.state_code and p.population = c.population
    where c.simplemaps_id not in (select simplemaps_id from first_match)
      and p.place_geoid not in (select place_geoid from first_match)
),
same_place_pairs as (
    select place_geoid, simplemaps_id, from (
        select *, row_number() over (partition by place_geoid order by distance_km, simplemaps_id) as by_place,
            row_number() over (partition by simplemaps_id order by distance_km, place_geoid) as by_city,
        from same_place where distance_km <= 1)
    where by_place = 1 and by_city = 1
),
place_match as (
    select place_geoid, simplemaps_id, false as census_name, from first_match
    union all
    -- the Census name unless another place of the state has it ("Waukesha village" is simplemaps' "Village of
    -- Waukesha" beside the city of Waukesha; "St. Clair CDP" its "Staint Clair" beside the borough of St. Clair)
    select s.place_geoid, s.simplemaps_id, not exists (select 1 from places_with_people o where o.state_code = p.state_code
        and o.name_core = p.name_core and o.place_geoid <> p.place_geoid),
    from same_place_pairs s join places_with_people p using (place_geoid)
),
hud_zips as (
    select usps_pref_state as state_code, slug(usps_pref_city) as city_slug, list_sort(list(distinct zip)) as zips,
    from stg_hud_crosswalk__zip_county
    where zip is not null and usps_pref_city is not null and zip not in (select zcta from stg_usgeo__zctas where zcta is not null)
    group by all
),
place_zips as (
    select place_geoid, list_sort(list(zip)) as zips, from int_geo_place_zips group by place_geoid
),
from_places as (
    select
        coalesce(c.simplemaps_id, p.place_geoid) as city_id,
        case when m.census_name then p.plain_name else coalesce(c.city_name, p.plain_name) end as city_name,
        c.city_name as simplemaps_name,
        p.state_code,
        coalesce(p.county_fips, c.county_fips) as county_fips,
        case when p.county_fips is not null then p.county_source when c.county_fips is not null then 'simplemaps' end as county_source,
        coalesce(p.population, c.population) as population,
        case when p.population is not null then 'acs_place' else 'simplemaps' end as population_source,
        c.population as simplemaps_population,
        p.place_geoid,
        p.place_name,
        coalesce(c.is_incorporated, p.lsad <> '57') as is_incorporated,
        coalesce(c.is_military, false) as is_military,
        c.ranking,
        pz.zips as place_zips,
        c.zip_codes as simplemaps_zips,
        coalesce(c.lat, p.lat) as lat,
        coalesce(c.lng, p.lng) as lng,
        c.timezone,
        coalesce(c._file, p_src._file) as _file,
        coalesce(c._row, p_src._row) as _row,
        case when c.simplemaps_id is not null then 'simplemaps' else 'gazetteer' end as row_source,
    from places p
    left join place_match m using (place_geoid)
    left join simplemaps c using (simplemaps_id)
    left join place_zips pz using (place_geoid)
    left join stg_gazetteer__places p_src using (place_geoid)
    where p.population is not null or c.simplemaps_id is not null
),
from_simplemaps as (
    select
        c.simplemaps_id as city_id, c.city_name, c.city_name as simplemaps_name, c.state_code, c.county_fips, 'simplemaps' as county_source,
        c.population, 'simplemaps' as population_source, c.population as simplemaps_population,
        null as place_geoid, null as place_name, c.is_incorporated, c.is_military, c.ranking,
        null::varchar[] as place_zips, c.zip_codes as simplemaps_zips, c.lat, c.lng, c.timezone, c._file, c._row,
        'simplemaps' as row_source,
    from simplemaps c
    where c.simplemaps_id not in (select simplemaps_id from place_match)
),
unioned as (
    select * from from_places
    union all by name
    select * from from_simplemaps
),
enriched as (
    select
        u.*,
        slug(u.city_name) as city_slug,
        co.county_name,
        co.cbsa_code,
        co.metro_area,
        co.cbsa_type,
        co.timezone as county_timezone,
        cb.population as cbsa_population,
    from unioned u
    left join counties co on co.county_fips = u.county_fips
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
        r.city_id,
        r.city_name,
        r.simplemaps_name,
        r.city_slug,
        r.state_code,
        r.county_fips,
        r.county_name,
        r.county_source,
        r.cbsa_code,
        r.metro_area,
        r.cbsa_type,
        r.cbsa_population,
        r.population,
        r.population_source,
        r.simplemaps_population,
        r.place_geoid,
        r.place_name,
        market_tier_of_cbsa(r.cbsa_code, r.cbsa_population) as market_tier,
        coalesce(r.population >= 5000, false) as is_market,
        r.is_incorporated,
        r.is_military,
        case
            when r.place_zips is not null then list_sort(list_distinct(list_concat(r.place_zips, coalesce(h.zips, []))))
            else list_sort(list_distinct(list_filter(coalesce(r.simplemaps_zips, []), z -> regexp_matches(z, '^\d{5}$'))))
        end as zip_codes,
        r.lat,
        r.lng,
        coalesce(r.timezone, r.county_timezone) as timezone,
    from ranked r
    left join hud_zips h on h.state_code = r.state_code and h.city_slug = r.city_slug and r.place_zips is not null
    where r.slug_rank = 1
)
select * from final order by state_code, city_slug;

insert into meta.rejects
select 'intermediate', 'simplemaps', _file, _row + 1, 'territory_out_of_scope', city_name || ', ' || state_code
from stg_simplemaps__cities
where state_code not in (select state_code from states);

-- A second city or place with the same state and slug: the most populous one was kept.
insert into meta.rejects
select 'intermediate', 'simplemaps', s._file, s._row + 1, 'duplicate_city_slug',
    s.city_name || ', ' || s.state_code || ' (kept id ' || c.city_id || ')'
from stg_simplemaps__cities s
join cities c on c.state_code = s.state_code and c.city_slug = slug(s.city_name)
where s.simplemaps_id not in (select city_id from cities);

insert into meta.rejects
select 'intermediate', 'gazetteer', g._file, g._row + 1, 'duplicate_city_slug', p.place_name || ', ' || p.state_code
from int_geo_places p
join stg_gazetteer__places g using (place_geoid)
where p.population is not null
  and p.place_geoid not in (select place_geoid from cities where place_geoid is not null);

-- int_geo_city_parts: one row per city that is a part of another city (the boroughs of New York City), derived from
-- the Census tables, no list written by hand (warehouse/docs/geo.md "City parts"). A city is a part of city P when
--   1. it is no Census place of its own (place_geoid null: a simplemaps row such as "Brooklyn"), and
--   2. its county is one of the counties of a consolidated place P: P's land area equals the land area of all the
--      counties us_geo's place_counties puts it in (within 0.1%), so P covers those counties wholly and nothing in
--      them lies outside P ("New York city" = the five counties 36005, 36047, 36061, 36081, 36085), and
--   3. P is a city of `cities` in the same state (the parent's name and slug are P's city).
-- Other consolidated city-counties (San Francisco, Denver, Philadelphia, ...) pass rule 2 but have no such part in
-- the sources. The legal marts give a part its parent's city overlays (20_legal_05_markets.sql,
-- 10_mart_geo_cities.sql).
create or replace table int_geo_city_parts as
with place_counties as (
    select distinct place_geoid, county_fips from stg_usgeo__place_counties
),
consolidated as (
    select pc.place_geoid, list(pc.county_fips order by pc.county_fips) as county_fips_list,
    from place_counties pc
    join int_geo_places p on p.place_geoid = pc.place_geoid
    join counties c on c.county_fips = pc.county_fips
    where p.land_area_sqmi > 0
    group by pc.place_geoid
    having abs(any_value(p.land_area_sqmi) - sum(c.land_area_sqmi)) <= 0.001 * sum(c.land_area_sqmi)
)
select
    ch.state_code,
    ch.city_slug,
    ch.city_name,
    ch.county_fips,
    par.city_slug as parent_city_slug,
    par.city_name as parent_city_name,
    par.place_geoid as parent_place_geoid,
from cities ch
join consolidated k on list_contains(k.county_fips_list, ch.county_fips)
join cities par on par.place_geoid = k.place_geoid and par.state_code = ch.state_code
where ch.place_geoid is null and ch.city_id <> par.city_id
order by ch.state_code, ch.city_slug;
