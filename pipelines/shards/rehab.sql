-- requires: mart_rehab
-- GET /v1/market/rehab-score?zip=&months= : the rehab score object (spec "Rehab score object"). coverage and note
-- (additive): the window asked, the part of it the zip's permit and sales records cover, and a note saying so when they
-- cover less (warehouse/docs/market.md "Coverage of a window"), and that a window of 1-4 arm's-length sales has no
-- resale share (minimum cohort 5, market.md "mart_rehab"), else null.
select
    zip,
    months,
    cast(to_json({
        zip_code: zip,
        city: city,
        state: state_code,
        rehab_momentum_score: round_to(rehab_momentum_score, 1),
        label: label,
        trend: trend,
        trend_pct: round_to(trend_pct, 1),
        trend_end: strftime(trend_end, '%Y-%m-%d'),
        confidence: confidence,
        as_of: strftime(as_of, '%Y-%m-%d'),
        coverage: window_coverage(window_start, as_of, window_days, records_start, records_end, records_days),
        note: note
    }) as varchar) as body
from mart_rehab
order by zip, months;
