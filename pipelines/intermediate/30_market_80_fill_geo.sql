-- requires: zips, cities, sales, parcels, permits, distress, int_geo_places, stg_usgeo__zcta_places, stg_usgeo__zctas
-- Rows without a zip but with coordinates (Chicago permits, Connecticut sales with a Location point) get the
-- zip of the nearest ZCTA centroid of the row's state when it has one (equirectangular distance). Only ZCTAs are
-- candidates (zip_is_area, warehouse/macros.sql: zips.is_zcta with the Gazetteer's internal point): a PO-box or
-- unique zip (GeoNames' or the ZIP reference's point, often the post office's own) delivers to no area, so a
-- coordinate is never in it (a Chicago permit at 200 W Madison St got 60695, a Greenwich house 06836, the USPS locale
-- file's physical zip of which is 06830); zips without a ZCTA also have no housing units, so their permits counted in
-- no rehab score. A row whose city is an incorporated Census place of its state takes the nearest of the ZCTAs that place overlaps
-- (us_geo zcta_places, land area > 0): a Chicago permit is in Chicago, so a suburb's ZCTA whose centroid happens to be
-- nearer (Oak Park 60302/60304, Evanston 60202: 1,948 Chicago permits, review 2) is no candidate, while a ZCTA Chicago
-- shares with a suburb (60707) still is; a city that is neither keeps the state's ZCTAs. A Connecticut row's city is
-- its town, and it takes the nearest of its town's ZCTAs, else no zip (below: a Darien sale placed in Stamford's
-- 06907 made that zip's comps read Stamford as of a Darien sale: a reviewer's recount).
-- Exact nearest search on a grid: the centroids in
-- the 3x3 block of cells around the point are compared, and the answer is accepted when it is closer than one
-- cell width (so no centroid outside the block can be closer); points left over go to the next, coarser grid
-- (0.05, 0.5, then 5 degrees; the last pass accepts its best). Then rows without a state take the USPS state of
-- their zip, and rows without a city (King County sales, canonical permits) the city of their zip by the rule of
-- int_market_zip_cities below: a city whose geo lookup lists the zip. The tables are rebuilt (create
-- table as) rather than updated in place: linear, and fast at 10 million rows. Each says which zips were guessed
-- this way (zip_imputed; the address domain keeps guessed zips out of autocomplete), and which cities and states
-- were filled from the zip (city_from_zip, state_from_zip: the property lineage cites them as imputed, not as read).
create or replace temp table int_market_zip_centroids as
select zip, lat, lng, state_code from zips
where lat is not null and lng is not null and zip is not null and zip_is_area(is_zcta, centroid_source);

create or replace temp table int_market_zip_rows as
select lat, lng, state_code, city from sales where zip is null and lat is not null and lng is not null
union all select lat, lng, state_code, city from parcels where zip is null and lat is not null and lng is not null
union all select lat, lng, state_code, city from permits where zip is null and lat is not null and lng is not null
union all select lat, lng, state_code, city from distress where zip is null and lat is not null and lng is not null;

-- The states whose rows name a town as their city: Connecticut, whose 169 towns are its municipalities (the sales
-- file's Town). The Census counts them as county subdivisions; its places there are 29 cities and boroughs, inside
-- a town or one with it (Groton city is a part of the town of Groton, Stonington borough of Stonington), and CDPs.
create or replace temp table int_market_town_states as select 'CT' as state_code;

-- the ZCTAs of each Connecticut town, by state and the town's name in lower case: the ZCTAs whose primary county
-- subdivision (us_geo zctas) is the town's. No source names a county subdivision; the USPS names it: the town's is the
-- one holding a ZCTA whose USPS city (`zips.city`) is the town's name (Darien: 06820; Greenwich: 06830, so Cos Cob
-- 06807, Old Greenwich 06870 and Riverside 06878 are Greenwich's too), else the only one holding ZCTAs whose USPS city
-- has the town's name as whole words (Mansfield: Storrs Mansfield, Mansfield Center; Killingly: East Killingly, so
-- Danielson, Dayville and Rogers too). A town named neither way (Griswold, whose post office is Jewett City; Lyme,
-- whose words East Lyme, Old Lyme and South Lyme hold in three towns) has none. Kept (not temp): the geo lookup of a
-- city that is such a town lists its town's ZCTAs too (10_mart_geo_cities.sql: Greenwich's 06807, 06870, 06878).
create or replace table int_market_town_zctas as
with zcta_towns as (
    select z.zcta as zip, z.primary_county_subdivision as town, c.state_code, lower(c.city) as usps_city
    from stg_usgeo__zctas z join zips c on c.zip = z.zcta
    where c.state_code in (select state_code from int_market_town_states) and z.primary_county_subdivision is not null
      and z.zcta in (select zip from int_market_zip_centroids)
),
row_towns as (
    -- every town of the rows (not only those with a zip to guess: the geo lookup lists them all)
    select distinct state_code, lower(city) as city_key
    from (select state_code, city from sales union all select state_code, city from parcels
          union all select state_code, city from permits union all select state_code, city from distress)
    where state_code in (select state_code from int_market_town_states) and city is not null
),
named as (
    select distinct r.state_code, r.city_key, t.town
    from row_towns r join zcta_towns t on t.state_code = r.state_code and t.usps_city = r.city_key
),
worded as (
    select r.state_code, r.city_key, any_value(t.town) as town
    from row_towns r join zcta_towns t on t.state_code = r.state_code and contains(' ' || t.usps_city || ' ', ' ' || r.city_key || ' ')
    where not exists (select 1 from named n where n.state_code = r.state_code and n.city_key = r.city_key)
    group by all having count(distinct t.town) = 1
)
select distinct n.state_code, n.city_key, t.zip
from (select * from named union all select * from worded) n join zcta_towns t on t.state_code = n.state_code and t.town = n.town;

-- the ZCTAs each incorporated Census place overlaps (land), by state and the place's plain name in lower case, in the
-- other states. Only places with a government of their own (funcstat A: Chicago): a census-designated place is a part
-- of a town that may share its name, so a town's record is no record of that CDP. With the towns, a row's candidates.
create or replace temp table int_market_place_zctas as
select * from int_market_town_zctas
union
select distinct p.state_code, lower(p.plain_name) as city_key, zp.zcta as zip
from int_geo_places p join stg_usgeo__zcta_places zp using (place_geoid)
where p.funcstat = 'A' and zp.land_area_sqmi > 0 and zp.zcta in (select zip from int_market_zip_centroids)
  and p.state_code not in (select state_code from int_market_town_states);

-- a row's city key: its city in lower case when that is a town or place with ZCTAs in its state (joined here), else ''
-- (the state's ZCTAs), but for a town state's row, which then gets no zip
create or replace temp table int_market_city_keys as select distinct state_code, city_key from int_market_place_zctas;

create or replace temp table int_market_zip_points as
select distinct round(r.lat, 4) as plat, round(r.lng, 4) as plng, coalesce(r.state_code, '') as pstate, coalesce(ck.city_key, '') as pcity
from int_market_zip_rows r left join int_market_city_keys ck on ck.state_code = r.state_code and ck.city_key = lower(r.city)
where r.lat between -90 and 90 and r.lng between -180 and 180
  and (ck.city_key is not null or r.state_code is null or r.state_code not in (select state_code from int_market_town_states));

create or replace temp table int_market_zip_nearest (plat double, plng double, pstate varchar, pcity varchar, zip varchar);

create or replace temp macro int_market_nearest_pass(cell, final) as table
with pts as (
    select p.plat, p.plng, p.pstate, p.pcity from int_market_zip_points p anti join int_market_zip_nearest n using (plat, plng, pstate, pcity)
),
expanded as (
    select p.plat, p.plng, p.pstate, p.pcity, cast(floor(p.plat / cell) as bigint) + o.dy as cy, cast(floor(p.plng / cell) as bigint) + o.dx as cx
    from pts p cross join (select * from range(-1, 2) a(dy), range(-1, 2) b(dx)) o
),
cells as (
    select zip, lat, lng, state_code, cast(floor(lat / cell) as bigint) as cy, cast(floor(lng / cell) as bigint) as cx from int_market_zip_centroids
),
best as (
    select e.plat, e.plng, e.pstate, e.pcity,
           arg_min(c.zip, pow(c.lat - e.plat, 2) + pow((c.lng - e.plng) * cos(radians(e.plat)), 2)) as zip,
           min(pow(c.lat - e.plat, 2) + pow((c.lng - e.plng) * cos(radians(e.plat)), 2)) as d2
    from expanded e join cells c on c.cy = e.cy and c.cx = e.cx and (e.pstate = '' or c.state_code = e.pstate)
    left join int_market_place_zctas k on k.state_code = e.pstate and k.city_key = e.pcity and k.zip = c.zip
    where e.pcity = '' or k.zip is not null
    group by e.plat, e.plng, e.pstate, e.pcity
)
select plat, plng, pstate, pcity, zip from best where final or sqrt(d2) <= cell * cos(radians(plat));

insert into int_market_zip_nearest select * from int_market_nearest_pass(0.05, false);
insert into int_market_zip_nearest select * from int_market_nearest_pass(0.5, false);
insert into int_market_zip_nearest select * from int_market_nearest_pass(5.0, true);

create or replace temp table int_market_zip_states as select zip, any_value(city) as city, any_value(state_code) as state_code from zips group by zip;

-- int_market_zip_cities: the city a row with a zip and no city takes (warehouse/docs/market.md "City from zip"), one
-- row per (zip, state). The candidates are the cities whose geo lookup lists the zip: the `cities` table's own
-- zip_codes, which /v1/geo/lookup serves (a place's ZCTAs holding 10% of its land or 10% of theirs, and the non-ZCTA
-- ZIPs whose USPS city it is), read here rather than derived a second time, so a city market's zips are always zips
-- its lookup lists. Of the candidates, in order:
--   1. usps_city: the zip's USPS primary city (`zips`), when the lookup lists the zip under it: the name on the
--      mail and the lookup agree (98133, Seattle, which Seattle shares with Shoreline; 98059, Renton, mostly
--      unincorporated land, of which Renton holds 23%);
--   2. incorporated_place: else the incorporated place (funcstat A) holding the most of the zip's land (98155,
--      mailed as Seattle, lies in Shoreline and Lake Forest Park: Shoreline);
--   3. place: else the other city holding the most of the zip's land: a census-designated place, an unincorporated
--      community the lookup names (98053, mailed as Redmond, whose land is 5% Redmond's: Union Hill-Novelty Hill);
--      a city that is no Census place (no land known) last, the more populous first;
--   4. usps_unlisted: a zip no city of its state lists keeps its USPS city, the only name known for it.
create or replace table int_market_zip_cities as
with listed as (
    select c.state_code, z.zip, c.city_name, c.city_slug, c.place_geoid, c.population
    from cities c, unnest(c.zip_codes) as z(zip)
),
ranked as (
    select l.zip, l.state_code, l.city_name,
        case when slug(u.city) = l.city_slug and u.state_code = l.state_code then 1 when p.funcstat = 'A' then 2 else 3 end as pass,
        coalesce(zp.land_area_sqmi, 0) as land, coalesce(l.population, 0) as population, l.city_slug
    from listed l
    left join int_market_zip_states u on u.zip = l.zip
    left join int_geo_places p on p.place_geoid = l.place_geoid
    left join stg_usgeo__zcta_places zp on zp.place_geoid = l.place_geoid and zp.zcta = l.zip
),
picked as (
    select zip, state_code, arg_min(city_name, (pass, -land, -population, city_slug)) as city, min(pass) as pass
    from ranked group by zip, state_code
)
select zip, state_code, city, ['usps_city', 'incorporated_place', 'place'][pass] as city_rule from picked
union all
select u.zip, u.state_code, u.city, 'usps_unlisted' from int_market_zip_states u
where u.city is not null and not exists (select 1 from picked p where p.zip = u.zip and p.state_code = u.state_code)
order by zip, state_code;

create or replace table sales as
with filled as (
    select s.* replace (coalesce(s.zip, n.zip) as zip), (s.zip is null and n.zip is not null) as zip_imputed
    from sales s
    left join int_market_city_keys ck on ck.state_code = s.state_code and ck.city_key = lower(s.city)
    left join int_market_zip_nearest n on n.plat = round(s.lat, 4) and n.plng = round(s.lng, 4) and n.pstate = coalesce(s.state_code, '') and n.pcity = coalesce(ck.city_key, '')
)
select f.* replace (coalesce(f.city, zc.city, z.city) as city, coalesce(f.state_code, z.state_code) as state_code),
    f.city is null and coalesce(zc.city, z.city) is not null as city_from_zip, f.state_code is null and z.state_code is not null as state_from_zip
from filled f
left join int_market_zip_states z on z.zip = f.zip
left join int_market_zip_cities zc on zc.zip = f.zip and zc.state_code = coalesce(f.state_code, z.state_code);

create or replace table parcels as
with filled as (
    select s.* replace (coalesce(s.zip, n.zip) as zip), (s.zip is null and n.zip is not null) as zip_imputed
    from parcels s
    left join int_market_city_keys ck on ck.state_code = s.state_code and ck.city_key = lower(s.city)
    left join int_market_zip_nearest n on n.plat = round(s.lat, 4) and n.plng = round(s.lng, 4) and n.pstate = coalesce(s.state_code, '') and n.pcity = coalesce(ck.city_key, '')
)
select f.* replace (coalesce(f.city, zc.city, z.city) as city, coalesce(f.state_code, z.state_code) as state_code),
    f.city is null and coalesce(zc.city, z.city) is not null as city_from_zip, f.state_code is null and z.state_code is not null as state_from_zip
from filled f
left join int_market_zip_states z on z.zip = f.zip
left join int_market_zip_cities zc on zc.zip = f.zip and zc.state_code = coalesce(f.state_code, z.state_code);

create or replace table permits as
with filled as (
    select s.* replace (coalesce(s.zip, n.zip) as zip,
    s.zip_imputed or (s.zip is null and n.zip is not null) as zip_imputed)
    from permits s
    left join int_market_city_keys ck on ck.state_code = s.state_code and ck.city_key = lower(s.city)
    left join int_market_zip_nearest n on n.plat = round(s.lat, 4) and n.plng = round(s.lng, 4) and n.pstate = coalesce(s.state_code, '') and n.pcity = coalesce(ck.city_key, '')
)
select f.* replace (coalesce(f.city, zc.city, z.city) as city, coalesce(f.state_code, z.state_code) as state_code),
    f.city is null and coalesce(zc.city, z.city) is not null as city_from_zip, f.state_code is null and z.state_code is not null as state_from_zip
from filled f
left join int_market_zip_states z on z.zip = f.zip
left join int_market_zip_cities zc on zc.zip = f.zip and zc.state_code = coalesce(f.state_code, z.state_code);

create or replace table distress as
with filled as (
    select s.* replace (coalesce(s.zip, n.zip) as zip), (s.zip is null and n.zip is not null) as zip_imputed
    from distress s
    left join int_market_city_keys ck on ck.state_code = s.state_code and ck.city_key = lower(s.city)
    left join int_market_zip_nearest n on n.plat = round(s.lat, 4) and n.plng = round(s.lng, 4) and n.pstate = coalesce(s.state_code, '') and n.pcity = coalesce(ck.city_key, '')
)
select f.* replace (coalesce(f.city, zc.city, z.city) as city, coalesce(f.state_code, z.state_code) as state_code),
    f.city is null and coalesce(zc.city, z.city) is not null as city_from_zip, f.state_code is null and z.state_code is not null as state_from_zip
from filled f
left join int_market_zip_states z on z.zip = f.zip
left join int_market_zip_cities zc on zc.zip = f.zip and zc.state_code = coalesce(f.state_code, z.state_code);

drop table int_market_zip_points;
drop table int_market_zip_rows;
drop table int_market_town_states;
drop table int_market_place_zctas;
drop table int_market_city_keys;
drop table int_market_zip_centroids;
drop table int_market_zip_nearest;
drop table int_market_zip_states;
