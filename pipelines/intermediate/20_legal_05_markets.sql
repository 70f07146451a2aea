-- requires: cities, regulations, int_geo_city_parts
-- int_legal_markets: one row per legal market = every city of `cities` plus every city that has an ACTIVE city
-- overlay record but is missing from `cities` (matched by state + slug(city name)), with the local overlay
-- records that apply to it:
--   city_overlays    the city's own overlay records (state + slug match), and for a part of a city (a New York
--                    City borough, int_geo_city_parts) the records of the city it is part of (part_of_city names it);
--   county_overlays  overlay records of the city's county (county_fips match), only for cities WITHOUT their own
--                    overlay: a county ordinance's reach inside city limits varies (Los Angeles County's covers
--                    unincorporated areas only; Montgomery County, MD says cities with their own rules such as
--                    Takoma Park are checked separately), so it is reported as "may apply" and weighs half.
--                    A county record whose structured_data.unincorporated_only is true (its rules cover the
--                    county's unincorporated areas only: Los Angeles County's) never applies to an incorporated
--                    city (cities.is_incorporated); it still may apply to an unincorporated community (a CDP).
-- Docs: warehouse/docs/legal.md.
create or replace table int_legal_markets as
with overlay as (
    select
        id,
        jurisdiction_level,
        state_code,
        county_fips,
        city,
        slug(city) as city_slug,
        category,
        title,
        source_citation,
        cast(structured_data->>'rent_control' as boolean) as rent_control,
        cast(structured_data->>'eviction_protections' as boolean) as eviction_protections,
        cast(structured_data->>'annual_cap_pct' as double) as annual_cap_pct,
        structured_data->>'cap_formula' as cap_formula,
        coalesce(cast(structured_data->>'unincorporated_only' as boolean), false) as unincorporated_only,
        len(uncertain_fields) > 0 as uncertain,
        last_reviewed_at,
        case category when 'rent_control' then 0 when 'eviction' then 1 else 2 end as category_rank,
    from regulations
    where status = 'active' and jurisdiction_level in ('city', 'county') and subcategory = 'local_overlay'
),
listed as (
    select state_code, city_name, city_slug, county_fips, county_name, cast(population as double) as population, true as in_cities,
    from cities
),
overlay_only as (
    select
        o.state_code,
        first(o.city order by o.id) as city_name,
        o.city_slug,
        first(o.county_fips order by o.id) as county_fips,
        cast(null as varchar) as county_name,
        cast(null as double) as population,
        false as in_cities,
    from overlay o
    where o.jurisdiction_level = 'city'
        and not exists (select 1 from listed l where l.state_code = o.state_code and l.city_slug = o.city_slug)
    group by o.state_code, o.city_slug
),
markets as (
    select * from listed
    union all
    select * from overlay_only
),
overlay_struct as (
    select
        *,
        {
            id: id,
            jurisdiction_level: jurisdiction_level,
            category: category,
            title: title,
            rent_control: rent_control,
            eviction_protections: eviction_protections,
            annual_cap_pct: annual_cap_pct,
            cap_formula: cap_formula,
            source_citation: source_citation,
            uncertain: uncertain,
        } as rec,
    from overlay
),
city_rules as (
    select
        m.state_code,
        m.city_slug,
        list(o.rec order by o.category_rank, o.id) as city_overlays,
        bool_or(o.rent_control) as city_rent_control,
        bool_or(o.eviction_protections) as city_eviction_protections,
        max(o.annual_cap_pct) filter (where o.category = 'rent_control') as city_rent_cap_pct,
        min(o.last_reviewed_at) as city_last_reviewed_at,
    from markets m
    left join int_geo_city_parts cp on cp.state_code = m.state_code and cp.city_slug = m.city_slug
    join overlay_struct o on o.jurisdiction_level = 'city' and o.state_code = m.state_code
        and (o.city_slug = m.city_slug or o.city_slug = cp.parent_city_slug)
    group by m.state_code, m.city_slug
),
county_rules as (
    select
        m.state_code,
        m.city_slug,
        list(o.rec order by o.category_rank, o.id) as county_overlays,
        bool_or(o.rent_control) as county_rent_control,
        bool_or(o.eviction_protections) as county_eviction_protections,
        min(o.last_reviewed_at) as county_last_reviewed_at,
    from markets m
    join overlay_struct o on o.jurisdiction_level = 'county' and o.state_code = m.state_code and o.county_fips = m.county_fips
    left join cities ci on ci.state_code = m.state_code and ci.city_slug = m.city_slug
    where not (o.unincorporated_only and coalesce(ci.is_incorporated, false))
        and not exists (select 1 from city_rules c where c.state_code = m.state_code and c.city_slug = m.city_slug)
    group by m.state_code, m.city_slug
),
final as (
    select
        m.*,
        cp.parent_city_name as part_of_city,
        coalesce(c.city_overlays, []) as city_overlays,
        coalesce(c.city_rent_control, false) as city_rent_control,
        coalesce(c.city_eviction_protections, false) as city_eviction_protections,
        c.city_rent_cap_pct,
        coalesce(k.county_overlays, []) as county_overlays,
        coalesce(k.county_rent_control, false) as county_rent_control,
        coalesce(k.county_eviction_protections, false) as county_eviction_protections,
        least(c.city_last_reviewed_at, k.county_last_reviewed_at) as overlay_last_reviewed_at,
    from markets m
    left join city_rules c using (state_code, city_slug)
    left join county_rules k using (state_code, city_slug)
    left join int_geo_city_parts cp using (state_code, city_slug)
)
select * from final order by state_code, city_slug;
