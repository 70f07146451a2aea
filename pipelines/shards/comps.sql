-- requires: mart_comps, mart_market_source
-- GET /v1/market/comps?zip=&property_type=&months= : the comparable sales object (spec "Comparable sales object").
-- Suppressed cohorts (< 5 comps): sample_count and the three percentiles are null, as_of is the window end. days_on_market.median and
-- list_to_sale_ratio are null when neither the sales nor a Redfin zip snapshot within ~6 months of the window end
-- that describes the property type have them. Every zip with a sale has all five types (an empty type: low, nulls).
-- note (additive): that the sales records cover less than the window asked (when they do), and why each null figure is
-- null (mart_comps comps_note). coverage (additive): the window asked (first and last day, days) and the part of it the
-- zip's sales records cover (first and last covered day, days covered): warehouse/docs/market.md "Coverage of a window".
-- source (additive, last): the zip's sales source {id, name, vintage} as the manifest names it (mart_market_source;
-- market.md "The source of a market answer"), absent where no sales source records a sale in the zip.
select
    zip,
    property_type,
    months,
    json_with(cast(to_json({
        zip_code: zip,
        city: city,
        state: state_code,
        property_type: property_type,
        sample_count: cast(sample_count as integer),
        price_per_sqft: {
            p25: round_to(ppsf_p25, 2),
            median: round_to(ppsf_median, 2),
            p75: round_to(ppsf_p75, 2)
        },
        days_on_market: {
            median: round_to(dom_median, 1),
            source: dom_source,
            redfin: case when redfin_period_end is not null then {
                property_type: redfin_property_type,
                period_start: strftime(redfin_period_start, '%Y-%m-%d'),
                period_end: strftime(redfin_period_end, '%Y-%m-%d'),
                homes_sold: redfin_homes_sold
            } end
        },
        list_to_sale_ratio: round_to(list_to_sale_ratio, 4),
        confidence: confidence,
        as_of: strftime(as_of, '%Y-%m-%d'),
        coverage: window_coverage(window_start, window_end, window_days, records_start, records_end, records_days),
        note: note
    }) as varchar), 'source', (select ms.source from mart_market_source ms where ms.market_key = 'zip|' || mart_comps.zip)) as body
from mart_comps
order by zip, property_type, months;
