-- requires: cities, int_market_city_tiers, sales, distress, zips, counties, int_geo_cbsas, int_market_town_zctas
-- Market tier per city from the geo `cities` table (its market_tier): replaces the fallback rows.
delete from int_market_city_tiers;
insert into int_market_city_tiers
select state_code, slug(city_name), arg_max(city_name, coalesce(population, 0)), arg_max(market_tier, coalesce(population, 0)), 'cities'
from cities where city_name is not null and state_code is not null
group by state_code, slug(city_name);

-- A city of the sales or distress files that is no city of `cities` (a Connecticut town that is no Census place:
-- Fairfield, Darien; an Allegheny township: Mount Lebanon Township; El Dorado, CA) takes the tier of its county's
-- CBSA by the same rule (market_tier_of_cbsa). Its county: the one (zips.county_fips) of most of its records with a
-- zip; else the one of most of its town's ZCTAs (a Connecticut town, int_market_town_zctas: Berlin, Stratford, whose
-- sales carry no zip); else, when its source is the file of one county, that county: 99% or more of the source's
-- records that name a city of `cities` lie in it (Allegheny's docket: 20,888 of 20,908 in Allegheny County, the
-- others name a township that is also a place elsewhere in PA; Connecticut's sales lie in nine). Fairfield, CT:
-- Greater Bridgeport Planning Region, CBSA 14860 (947,528 people), secondary; it was rural by rule. Else the county of
-- most of its records with a point and no zip, each that of the ZCTA whose internal point is nearest in its state
-- (the zip itself is not guessed for such a town, 30_market_80_fill_geo.sql: it may be the next town's; its county,
-- a planning region of several towns, is what is asked here): Griswold and Lisbon, Southeastern Connecticut, CBSA
-- 35980, secondary; Lyme, Lower Connecticut River Valley, primary; Warren, Northwest Hills, tertiary (h78 audit: they
-- were rural by rule, though 74, 34, 13 and 1 of their raw sales have a Location). A city with none (a Connecticut town
-- whose sales carry neither zip nor point: North Canaan, Sprague, Union, Winchester) stays unmatched: rural by rule in
-- mart_investor, whose tier_source says so.
insert into int_market_city_tiers
with records as (
    select source, state_code, city, zip, lat, lng from sales where city is not null and state_code is not null
    union all select source, state_code, city, zip, lat, lng from distress where city is not null and state_code is not null
),
unmatched as (
    select r.*, slug(r.city) as city_slug, z.county_fips as zip_county, row_number() over () as rid
    from records r left join zips z on z.zip = r.zip
    where slug(r.city) <> ''
      and not exists (select 1 from int_market_city_tiers t where t.state_code = r.state_code and t.city_slug = slug(r.city))
),
source_county as (
    select source, arg_max(county_fips, n) as county_fips
    from (select r.source, c.county_fips, count(*) as n, sum(count(*)) over (partition by r.source) as source_n
          from records r join cities c on c.state_code = r.state_code and c.city_slug = slug(r.city)
          group by r.source, c.county_fips)
    group by source
    having max(n) >= 0.99 * any_value(source_n)
),
town_county as (
    select t.state_code, t.city_key, mode(z.county_fips) as county_fips
    from int_market_town_zctas t join zips z on z.zip = t.zip and z.county_fips is not null
    group by all
),
point_county as (
    select state_code, city_slug, mode(county_fips) as county_fips
    from (select u.rid, any_value(u.state_code) as state_code, any_value(u.city_slug) as city_slug,
                 arg_min(z.county_fips, pow(z.lat - u.lat, 2) + pow((z.lng - u.lng) * cos(radians(u.lat)), 2)) as county_fips
          from unmatched u join zips z on z.state_code = u.state_code and zip_is_area(z.is_zcta, z.centroid_source)
               and z.county_fips is not null and z.lat is not null and z.lng is not null
          where u.zip is null and u.lat between -90 and 90 and u.lng between -180 and 180
          group by u.rid)
    group by all
),
city_counties as (
    select u.state_code, u.city_slug, mode(u.city) as city_name,
           coalesce(mode(u.zip_county), any_value(tc.county_fips), any_value(sc.county_fips), any_value(pc.county_fips)) as county_fips
    from unmatched u left join source_county sc using (source)
    left join town_county tc on tc.state_code = u.state_code and tc.city_key = lower(u.city)
    left join point_county pc on pc.state_code = u.state_code and pc.city_slug = u.city_slug
    group by all
)
select c.state_code, c.city_slug, c.city_name,
       market_tier_of_cbsa(co.cbsa_code, cb.population) as market_tier,
       format('no Census place: its county, {}{}', co.county_name,
              case when co.cbsa_code is not null then format(', is in CBSA {} ({})', co.cbsa_code, co.metro_area) else ', is in no CBSA' end) as tier_source
from city_counties c
join counties co on co.county_fips = c.county_fips
left join int_geo_cbsas cb on cb.cbsa_code = co.cbsa_code;
