-- requires: mart_geo_cities
-- GET /v1/geo/lookup?state=&city=: one city lookup object per city; the path is the state and the city's slug. Beyond
-- the spec's fields: rate_basis (how to read interest_rate_pct, as /v1/legal/tax-sale gives it) and part_counties (the
-- counties of a city made of county parts, New York City's boroughs; null elsewhere).
with city as (
    select * from mart_geo_cities
),
final as (
    select
        state_code as state,
        city_name as city,
        to_json({
            state_code: state_code,
            state_name: state_name,
            city_name: city_name,
            county_name: county_name,
            fips_code: fips_code,
            metro_area: metro_area,
            market_tier: market_tier,
            zip_codes: zip_codes,
            has_city_rent_control: has_city_rent_control,
            has_city_eviction_protections: has_city_eviction_protections,
            is_investor_active: is_investor_active,
            landlord_risk: {
                friendliness_score: landlord_friendliness_score,
                label: landlord_friendliness_label,
            },
            tax_type: tax_type,
            interest_rate_pct: interest_rate_pct,
            redemption_period_months: redemption_period_months,
            rate_basis: rate_basis,
            part_counties: part_counties,
        })::varchar as body,
    from city
    -- a name without any letter or digit has no URL slug, so it cannot be looked up
    where regexp_matches(city_slug, '^[a-z0-9]+(-[a-z0-9]+)*$') and length(city_slug) <= 80
)
select * from final;
