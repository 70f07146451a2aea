-- requires: mart_investor, mart_answer_source
-- GET /v1/market/investor-overview?city=&state=&months= : the investor overview object (spec "Investor overview
-- object"). Rates are null where the city's records carry no buyer names or no flips, and the distressed pipeline
-- where no distress source covers the city (never invented). note (additive): that the records cover less than the
-- window (when they do), then why each null figure is null, else null. coverage (additive): the window asked and the
-- part of it the city's sales files cover, a city of filings only its filing files (warehouse/docs/market.md
-- "Coverage of a window"). distressed_without_parcel
-- (additive): of distressed_pipeline_count, the filings naming no parcel or address, each a property of its own.
-- Where flip_velocity_days is given, the note ends with what it measures (review 18: the spec defines it as purchase
-- to re-list; the build measures purchase deed to resale deed, market.md "Investor flip"). source (additive, last):
-- the sources of the kinds of record the overview counts, the city's arm's-length sales and its filings, as the manifest
-- names them, with `kinds` (mart_answer_source, keyed by the state and the city's slug, as the shard's path; market.md
-- "The source of a market answer"): Louisville's names its filings source.
select
    state_code as state,
    city,
    months,
    json_with(cast(to_json({
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
        note: case when round_to(flip_velocity_days, 1) is not null
                   then concat_ws('; ', note, 'flip_velocity_days is the median days from an investor''s purchase deed to the property''s resale deed, not to its re-listing as the spec defines it: no source of the build records listing dates, so the resale stands for the re-list (a flip: an investor purchase resold 1 to 365 days later)')
                   else note end
    }) as varchar), 'source', (select a.source from mart_answer_source a where a.answer = 'investor'
                               and a.market_key = 'city|' || upper(mart_investor.state_code) || '|' || slug(mart_investor.city))) as body
from mart_investor
order by state_code, city_slug, months;
