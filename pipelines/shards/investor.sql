-- requires: mart_investor
-- GET /v1/market/investor-overview?city=&state=&months= : the investor overview object (spec "Investor overview
-- object"). Rates are null where the city's records carry no buyer names or no flips, and the distressed pipeline
-- where no distress source covers the city (never invented). note (additive): that the records cover less than the
-- window (when they do), then why each null figure is null, else null. coverage (additive): the window asked and the
-- part of it the city's records cover (warehouse/docs/market.md "Coverage of a window"). distressed_without_parcel
-- (additive): of distressed_pipeline_count, the filings naming no parcel or address, each a property of its own.
select
    state_code as state,
    city,
    months,
    cast(to_json({
        city: city,
        state: state_code,
        investor_purchase_rate_pct: round_to(investor_purchase_rate_pct, 1),
        flip_velocity_days: round_to(flip_velocity_days, 1),
        gross_flip_margin_pct: round_to(gross_flip_margin_pct, 1),
        distressed_pipeline_count: cast(distressed_pipeline_count as integer),
        platform_active_deals: cast(platform_active_deals as integer),
        market_tier: market_tier,
        confidence: confidence,
        as_of: strftime(as_of, '%Y-%m-%d'),
        distress_as_of: strftime(distress_as_of, '%Y-%m-%d'),
        distressed_without_parcel: cast(distressed_without_parcel as integer),
        coverage: window_coverage(window_start, as_of, window_days, records_start, records_end, records_days),
        note: note
    }) as varchar) as body
from mart_investor
order by state_code, city_slug, months;
