-- requires: mart_comps
-- GET /v1/market/comps?zip=&property_type=&months= : the comparable sales object (spec "Comparable sales object").
-- Suppressed cohorts (< 5 comps): sample_count and the three percentiles are null, as_of is the window end. days_on_market.median and
-- list_to_sale_ratio are null when neither the sales nor a Redfin zip snapshot within ~6 months of the window end
-- that describes the property type have them. Every zip with a sale has all five types (an empty type: low, nulls).
-- note (additive): why the percentiles are null when the window's sales of the type record no living area, else null.
select
    zip,
    property_type,
    months,
    cast(to_json({
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
        days_on_market: {median: round_to(dom_median, 1)},
        list_to_sale_ratio: round_to(list_to_sale_ratio, 4),
        confidence: confidence,
        as_of: strftime(as_of, '%Y-%m-%d'),
        note: note
    }) as varchar) as body
from mart_comps
order by zip, property_type, months;
