-- requires: states, counties, cities, stg_hud_crosswalk__zip_county, stg_geonames__zips, stg_gazetteer__zctas, stg_usgeo__zctas, stg_usgeo__zcta_mappings, stg_acs_population__zctas, stg_usps_locale__zips, stg_zip_reference__zips
-- Canonical zips: one row per 5-digit USPS ZIP or ZCTA in the 50 states + DC that can be placed in a state.
-- Precedence (warehouse/docs/geo.md):
--   county   HUD 2023 Q1 county with the largest share of the ZIP's addresses > ZCTA primary county (2020) >
--            primary county of the ZCTA containing a ZCTA-less ZIP > GeoNames county > ZIP reference county name >
--            county of the nearest city (of `cities`) in the same state. Every candidate must be a current county:
--            HUD and the 2020 ZCTA files still have the old CT counties 09001-09015, GeoNames and the ZIP
--            reference carry the 2022 planning regions 09110-09190.
--   city     USPS preferred city (HUD) > GeoNames place > USPS locale > ZIP reference city
--   state    USPS preferred state (HUD) > GeoNames > the county's state > ZIP reference
--   centroid Gazetteer ZCTA internal point > GeoNames point > ZIP reference centroid
create or replace table zips as
with hud as (
    select * from stg_hud_crosswalk__zip_county where zip is not null
),
hud_zip as (
    select
        zip,
        any_value(usps_pref_city) as usps_city,
        any_value(usps_pref_state) as usps_state,
        arg_max(county_fips, (coalesce(tot_ratio, 0), coalesce(res_ratio, 0), county_fips))
            filter (where county_fips in (select county_fips from counties)) as county_fips,
    from hud
    group by zip
),
geonames as (
    select * from stg_geonames__zips where zip is not null and state_code is not null
),
geonames_zip as (
    select
        g.zip,
        arg_min(g.place_name, g._row) as place_name,
        arg_min(g.state_code, g._row) as state_code,
        arg_min(s.state_fips || g.county_code, g._row) as county_fips,
        arg_min(g.lat, g._row) as lat,
        arg_min(g.lng, g._row) as lng,
    from geonames g
    left join states s using (state_code)
    group by g.zip
),
zcta as (
    select
        z.zcta as zip,
        case when z.primary_county_fips in (select county_fips from counties) then z.primary_county_fips end as county_fips,
        gz.lat,
        gz.lng,
        coalesce(acs.population, z.population) as population,
    from stg_usgeo__zctas z
    left join stg_gazetteer__zctas gz using (zcta)
    left join stg_acs_population__zctas acs on acs.geoid = z.zcta
    where z.zcta is not null
),
zcta_mapping as (
    select m.zip, any_value(z.county_fips) as county_fips,
    from stg_usgeo__zcta_mappings m
    join zcta z on z.zip = m.zcta
    group by m.zip
),
usps as (
    select zip, mode(locale_name) as locale_name,
    from stg_usps_locale__zips
    where zip is not null and locale_name is not null
    group by zip
),
reference as (
    select zip, any_value(city_name) as city_name, any_value(state_code) as state_code, any_value(county_name) as county_name,
        any_value(lat) as lat, any_value(lng) as lng,
    from stg_zip_reference__zips
    where zip is not null
    group by zip
),
-- the ZIP reference names counties by short name ("Capitol" for 09110): used only when the name is unambiguous
reference_county as (
    select r.zip, any_value(c.county_fips) as county_fips,
    from reference r
    join counties c on c.state_code = r.state_code and r.county_name in (c.county_short_name, c.county_name)
    group by r.zip
    having count(*) = 1
),
universe as (
    select zip from hud_zip
    union select zip from geonames_zip
    union select zip from zcta
    union select zip from usps
    union select zip from reference
),
valid_county as (
    select county_fips, state_code from counties
),
combined as (
    select
        u.zip,
        h.usps_city,
        h.usps_state,
        h.county_fips as hud_county,
        z.county_fips as zcta_county,
        zm.county_fips as mapped_county,
        case when g.county_fips in (select county_fips from valid_county) then g.county_fips end as geonames_county,
        rc.county_fips as reference_county,
        g.place_name as geonames_city,
        g.state_code as geonames_state,
        us.locale_name as usps_locale,
        r.city_name as reference_city,
        r.state_code as reference_state,
        z.zip is not null as is_zcta,
        z.population,
        coalesce(z.lat, g.lat, r.lat) as lat,
        coalesce(z.lng, g.lng, r.lng) as lng,
        case when z.lat is not null then 'gazetteer_zcta' when g.lat is not null then 'geonames' when r.lat is not null then 'zip_reference' end as centroid_source,
    from universe u
    left join hud_zip h using (zip)
    left join zcta z using (zip)
    left join zcta_mapping zm using (zip)
    left join geonames_zip g using (zip)
    left join usps us using (zip)
    left join reference r using (zip)
    left join reference_county rc using (zip)
),
placed as (
    select
        c.*,
        coalesce(hud_county, zcta_county, mapped_county, geonames_county, reference_county) as known_county,
        case
            when hud_county is not null then 'hud'
            when zcta_county is not null then 'zcta'
            when mapped_county is not null then 'zcta_mapping'
            when geonames_county is not null then 'geonames'
            when reference_county is not null then 'zip_reference'
        end as known_county_source,
    from combined c
),
with_state as (
    select
        p.*,
        coalesce(p.usps_state, p.geonames_state, vc.state_code, p.reference_state) as state_code,
    from placed p
    left join valid_county vc on vc.county_fips = p.known_county
),
in_scope as (
    select * from with_state where state_code in (select state_code from states)
),
-- ZIPs still without a county take the county of the nearest city (of `cities`) in the same state.
nearest as (
    select
        i.zip,
        arg_min(ci.county_fips, power(i.lat - ci.lat, 2) + power((i.lng - ci.lng) * cos(radians(i.lat)), 2)) as county_fips,
    from in_scope i
    join cities ci on ci.state_code = i.state_code and ci.county_fips is not null
    where i.known_county is null and i.lat is not null
    group by i.zip
),
cased as (
    select
        i.*,
        coalesce(i.known_county, n.county_fips) as county_fips,
        coalesce(i.known_county_source, case when n.county_fips is not null then 'nearest_city' end) as county_source,
        coalesce(i.usps_city, i.geonames_city, i.usps_locale, i.reference_city) as raw_city,
        case
            when i.usps_city is not null then 'usps_preferred'
            when i.geonames_city is not null then 'geonames'
            when i.usps_locale is not null then 'usps_locale'
            when i.reference_city is not null then 'zip_reference'
        end as city_source,
    from in_scope i
    left join nearest n using (zip)
),
-- USPS names are upper case: keep GeoNames' or simplemaps' spelling of the same name, else title-case it.
named as (
    select
        c.*,
        case
            when c.geonames_city is not null and slug(c.geonames_city) = slug(c.raw_city) then c.geonames_city
            when ci.city_name is not null then ci.city_name
            when c.raw_city = upper(c.raw_city) then array_to_string(
                list_transform(string_split(lower(c.raw_city), ' '), w -> upper(left(w, 1)) || substr(w, 2)), ' ')
            else c.raw_city
        end as city,
    from cased c
    left join cities ci on ci.state_code = c.state_code and ci.city_slug = slug(c.raw_city)
),
final as (
    select
        n.zip,
        n.city,
        n.state_code,
        n.county_fips,
        co.county_name,
        co.cbsa_code,
        co.metro_area,
        n.lat,
        n.lng,
        n.population,
        n.is_zcta,
        n.city_source,
        n.county_source,
        n.centroid_source,
    from named n
    left join counties co using (county_fips)
)
select * from final order by zip;

-- Dropped ZIPs: military APO/FPO (no state in GeoNames) and territories.
insert into meta.rejects
select 'intermediate', 'geonames', _file, _row + 1, 'military_or_territory_zip', zip || ' ' || coalesce(place_name, '')
from stg_geonames__zips
where zip is not null and zip not in (select zip from zips);
