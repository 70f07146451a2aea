-- requires: states, counties, stg_hud_crosswalk__zip_county, stg_gazetteer__places, stg_acs_population__places, stg_usgeo__places, stg_usgeo__place_counties, stg_usgeo__zcta_places, stg_usgeo__zcta_counties, stg_usgeo__zctas, stg_acs_population__zctas
-- int_geo_places: one row per Census place (Gazetteer 2025, incorporated place or CDP) in the 50 states + DC, with
-- its ACS 2023 population, the name people say (plain_name: the name without its legal descriptor, "Toms River CDP"
-- -> "Toms River"), name_core (the slug of that name) and its primary county (warehouse/docs/geo.md "Primary county"):
--   1. the only county the place lies in (us_geo place_counties; for the places us_geo leaves out, such as the
--      consolidated-city balances and DC, the current counties of the ZCTAs the place overlaps);
--   2. of several, the county holding most of the place's people, estimated from the 2020 ZCTA crosswalks: each
--      ZCTA's ACS 2023 people inside the place in proportion to the ZCTA's land inside it, split among the candidate
--      counties in proportion to the ZIP's residential addresses in each (HUD 2023 Q1 RES_RATIO);
--   3. where no people are known that way, the county with most of the place's land (the place's land in each ZCTA
--      split by the ZCTA's land in each candidate county);
--   4. else us_geo's county of the place (GNIS), else null (10_geo_04_cities falls back to simplemaps' county).
-- int_geo_place_zips: the ZCTAs of a place: at least 10% of the ZCTA's land is in the place, or at least 10% of the
-- place's land is in the ZCTA. A consolidated city-county's balance (funcstat F, "... (balance)": the consolidated
-- government less the places that kept their own) also has the ZCTAs of the nonfunctioning places (funcstat N) of
-- its county: the pre-consolidation city the Census keeps as a place of its own ("Louisville city", 2148000, is no
-- part of "Louisville/Jefferson County metro government (balance)", 2148006; Tribune of Greeley County, KS).
create or replace table int_geo_places as
with gazetteer as (
    select * from stg_gazetteer__places where state_code in (select state_code from states)
),
acs as (
    select * from stg_acs_population__places
),
named as (
    select
        g.*,
        regexp_replace(
            g.place_name,
            ' ((city and borough|unified government|consolidated government|metro government|metropolitan government|urban county|city|town|village|borough|CDP|municipality|corporation|comunidad|zona urbana) )?(\(balance\))$| (city and borough|unified government|consolidated government|metropolitan government|urban county|city|town|village|borough|CDP|municipality|corporation|comunidad|zona urbana)$',
            ''
        ) as plain_name,
    from gazetteer g
),
zcta as (
    select z.zcta, z.land_area_sqmi as land, coalesce(a.population, z.population) as population,
    from stg_usgeo__zctas z
    left join stg_acs_population__zctas a on a.geoid = z.zcta
),
pieces as (
    select zp.place_geoid, zp.zcta, zp.land_area_sqmi as land, z.land as zcta_land, z.population as zcta_population,
    from stg_usgeo__zcta_places zp
    join zcta z using (zcta)
    where zp.land_area_sqmi > 0 and z.land > 0
),
zcta_counties as (
    select zcta, county_fips, land_area_sqmi as land,
    from stg_usgeo__zcta_counties
    where land_area_sqmi > 0 and county_fips in (select county_fips from counties)
),
listed as (
    select distinct place_geoid, county_fips from stg_usgeo__place_counties
    where county_fips in (select county_fips from counties)
),
candidates as (
    select * from listed
    union
    select distinct p.place_geoid, zc.county_fips
    from pieces p join zcta_counties zc using (zcta)
    where p.place_geoid not in (select place_geoid from stg_usgeo__place_counties)
),
candidate_count as (
    select place_geoid, count(*) as n, any_value(county_fips) as only_county, from candidates group by place_geoid
),
-- people: each ZCTA's people inside the place, split among the candidate counties by the ZIP's residential addresses
-- in each (HUD RES_RATIO); land: the place's land in the ZCTA, split by the ZCTA's land in each candidate county
hud as (
    select zip as zcta, county_fips, res_ratio, from stg_hud_crosswalk__zip_county where res_ratio > 0
),
people_split as (
    select
        p.place_geoid,
        c.county_fips,
        p.zcta_population * p.land / p.zcta_land * h.res_ratio / sum(h.res_ratio) over (partition by p.place_geoid, p.zcta) as people,
    from pieces p
    join candidates c on c.place_geoid = p.place_geoid
    join hud h on h.zcta = p.zcta and h.county_fips = c.county_fips
),
land_split as (
    select
        p.place_geoid,
        c.county_fips,
        p.land * zc.land / sum(zc.land) over (partition by p.place_geoid, p.zcta) as land,
    from pieces p
    join candidates c on c.place_geoid = p.place_geoid
    join zcta_counties zc on zc.zcta = p.zcta and zc.county_fips = c.county_fips
),
shares as (
    select
        coalesce(pe.place_geoid, la.place_geoid) as place_geoid,
        arg_max(pe.county_fips, (pe.people, pe.county_fips)) filter (where pe.people > 0) as by_people,
        arg_max(la.county_fips, (la.land, la.county_fips)) filter (where la.land > 0) as by_land,
    from (select place_geoid, county_fips, sum(people) as people, from people_split group by all) pe
    full join (select place_geoid, county_fips, sum(land) as land, from land_split group by all) la using (place_geoid, county_fips)
    group by 1
),
final as (
    select
        n.place_geoid,
        n.state_code,
        n.place_name,
        n.plain_name,
        slug(n.place_name) as name_slug,
        slug(n.plain_name) as name_core,
        n.lsad,
        n.funcstat,
        acs.population,
        n.land_area_sqmi,
        case
            when cc.n = 1 then cc.only_county
            when s.by_people is not null then s.by_people
            when s.by_land is not null then s.by_land
            when u.county_fips in (select county_fips from counties) then u.county_fips
        end as county_fips,
        case
            when cc.n = 1 then 'only_county'
            when s.by_people is not null then 'population_share'
            when s.by_land is not null then 'land_share'
            when u.county_fips in (select county_fips from counties) then 'usgeo_place'
        end as county_source,
        n.lat,
        n.lng,
    from named n
    left join acs on acs.geoid = n.place_geoid
    left join candidate_count cc using (place_geoid)
    left join shares s using (place_geoid)
    left join stg_usgeo__places u using (place_geoid)
)
select * from final order by place_geoid;

create or replace table int_geo_place_zips as
with own as (
    select p.place_geoid, zp.zcta as zip,
    from int_geo_places p
    join stg_usgeo__zcta_places zp using (place_geoid)
    join stg_usgeo__zctas z using (zcta)
    where zp.land_area_sqmi > 0
      and (zp.land_area_sqmi >= 0.1 * z.land_area_sqmi or zp.land_area_sqmi >= 0.1 * p.land_area_sqmi)
),
merged as (
    select b.place_geoid as balance_geoid, n.place_geoid,
    from int_geo_places b
    join int_geo_places n on n.state_code = b.state_code and n.county_fips = b.county_fips
    where b.funcstat = 'F' and b.place_name like '%(balance)' and n.funcstat = 'N'
)
select distinct place_geoid, zip, from own
union
select m.balance_geoid, o.zip, from merged m join own o using (place_geoid)
order by all;
