-- requires: cities, states, state_legal, local_legal, int_geo_city_parts
-- mart_geo_cities: one row per city of the cities table, with every field of the spec's city lookup object
-- (GET /v1/geo/lookup) and the market-list fields. The city flags come from city-level local_legal rows whose
-- city matches by slug (case- and accent-insensitive), or, for a part of a city (a New York City borough:
-- int_geo_city_parts, derived from the Census tables), the city it is part of ("Brooklyn" has New York's rent
-- stabilization). County rules do not set them: "the city has an ordinance"
-- is not true of every city in a county (LA County's covers unincorporated areas only); the legal marts weigh
-- county rules as "may apply" instead.
-- zip_codes: the city's (cities.zip_codes), and, for a city that is a Connecticut town of the market files, its
-- town's ZCTAs by the market's rule (int_market_town_zctas, 30_market_80_fill_geo.sql): the Greenwich CDP's 06830,
-- 06831, 06836 and the town's 06807 (Cos Cob), 06870 (Old Greenwich), 06878 (Riverside), where its sales are.
-- is_investor_active is false everywhere: there is no platform community data yet (warehouse/docs/geo.md).
-- a build without the market stage's town table (no town-state source, or the geo steps alone) lists the cities' own zips
create table if not exists int_market_town_zctas (state_code varchar, city_key varchar, zip varchar);
create or replace table mart_geo_cities as
with city as (
    select * from cities
),
local_rules as (
    select * from local_legal
),
city_rules as (
    select
        c.city_id,
        coalesce(bool_or(l.has_city_rent_control), false) as has_city_rent_control,
        coalesce(bool_or(l.has_city_eviction_protections), false) as has_city_eviction_protections,
    from city c
    left join int_geo_city_parts cp on cp.state_code = c.state_code and cp.city_slug = c.city_slug
    join local_rules l
        on l.state_code = c.state_code
        and l.city is not null
        and (slug(l.city) = c.city_slug or slug(l.city) = cp.parent_city_slug)
    group by c.city_id
),
-- a city made of parts that are each a county (New York City's five boroughs: int_geo_city_parts) spans their
-- counties: part_counties lists them (additive; county_name and fips_code stay the one holding most of its people)
part_counties as (
    select p.state_code, p.parent_city_slug as city_slug,
        list({county_name: pc.county_name, fips_code: pc.county_fips} order by pc.county_fips) as part_counties,
    from int_geo_city_parts p
    join cities pc on pc.state_code = p.state_code and pc.city_slug = p.city_slug
    where pc.county_fips is not null
    group by all
),
final as (
    select
        c.city_id,
        c.city_slug,
        c.state_code,
        s.state_name,
        c.city_name,
        coalesce(c.county_name, '') as county_name,
        coalesce(c.county_fips, '') as fips_code,
        pcs.part_counties,
        coalesce(c.metro_area, '') as metro_area,
        c.market_tier,
        case when tz.zips is null then c.zip_codes else list_sort(list_distinct(list_concat(c.zip_codes, tz.zips))) end as zip_codes,
        coalesce(r.has_city_rent_control, false) as has_city_rent_control,
        coalesce(r.has_city_eviction_protections, false) as has_city_eviction_protections,
        false as is_investor_active,
        cast(l.landlord_friendliness_score as double) as landlord_friendliness_score,
        l.landlord_friendliness_label,
        l.lien_or_deed as tax_type,
        cast(l.interest_rate_pct as double) as interest_rate_pct,
        cast(l.redemption_period_months as double) as redemption_period_months,
        -- how to read interest_rate_pct (additive; state_legal's, as in /v1/legal/tax-sale and /v1/geo/states)
        l.rate_basis,
        c.population,
        c.is_market,
    from city c
    join states s using (state_code)
    left join state_legal l using (state_code)
    left join city_rules r using (city_id)
    left join part_counties pcs on pcs.state_code = c.state_code and pcs.city_slug = c.city_slug
    left join (select state_code, city_key, list(distinct zip) as zips from int_market_town_zctas group by all) tz
        on tz.state_code = c.state_code and tz.city_key = lower(c.city_name)
)
select * from final order by state_code, city_slug;
