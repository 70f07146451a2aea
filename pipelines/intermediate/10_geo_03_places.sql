-- requires: states, stg_gazetteer__places, stg_acs_population__places
-- int_geo_places: one row per Census place (Gazetteer 2025) in the 50 states + DC, with its ACS 2023 population
-- and name_core, the slug of its name without the legal descriptor ("seattle-city" -> "seattle").
create or replace table int_geo_places as
with gazetteer as (
    select * from stg_gazetteer__places
),
acs as (
    select * from stg_acs_population__places
),
final as (
    select
        g.place_geoid,
        g.state_code,
        g.place_name,
        slug(g.place_name) as name_slug,
        regexp_replace(
            slug(g.place_name),
            '-(city|town|village|borough|cdp|municipality|city-and-borough|corporation|comunidad|zona-urbana)$',
            ''
        ) as name_core,
        g.lsad,
        g.funcstat,
        acs.population,
        g.lat,
        g.lng,
    from gazetteer g
    join states s using (state_code)
    left join acs on acs.geoid = g.place_geoid
)
select * from final order by place_geoid;
