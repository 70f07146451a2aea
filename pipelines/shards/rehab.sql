-- requires: mart_rehab, mart_answer_source
-- GET /v1/market/rehab-score?zip=&months= : the rehab score object (spec "Rehab score object"). coverage and note
-- (additive): the window asked, the part of it the zip's permit and sales records cover, and a note saying so when they
-- cover less (warehouse/docs/market.md "Coverage of a window"), and that a window of 1-4 arm's-length sales has no
-- resale share (minimum cohort 5, market.md "mart_rehab"), else null. permits_window and sales_window (additive): the
-- window each measure is counted over (the permit components over the months to the zip's permits' last day, the
-- resale share over the months to its sales' last day) and the part of it that kind's records cover; null where no
-- source of that kind counts in the zip. counts (additive): the events behind the score, each null where it is not
-- counted (rehab_permits: the residential rehab permits in permits_window, where a permit source counts in the zip;
-- sales: the arm's-length sales in sales_window, where a sales source does; rehab_resales: of those sales, the renovated
-- resales and quick resales at a gain, where the resale share is computed; trend_last_30d and trend_prior_30d: the rehab
-- events trend compares, the 30 days to trend_end and the 30 before, 0 where none). source (additive, last): the sources of the
-- kinds of record the score counts, the zip's arm's-length sales and its permits, as the manifest names them, with
-- `kinds` (mart_answer_source; market.md "The source of a market answer"): Nashville's 37206 names its permit source.
select
    zip,
    months,
    json_with(cast(to_json({
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
        permits_window: case when permits_as_of is not null then window_coverage(permits_window_start, permits_as_of, permits_window_days,
                                                                                  permits_records_start, permits_records_end, permits_records_days) end,
        sales_window: case when sales_as_of is not null then window_coverage(sales_window_start, sales_as_of, sales_window_days,
                                                                              sales_records_start, sales_records_end, sales_records_days) end,
        counts: {rehab_permits: case when permits_as_of is not null then permits_rehab end,
                 sales: case when sales_as_of is not null then sales_n end,
                 rehab_resales: case when rehab_sale_share is not null then rehab_sales end,
                 trend_last_30d: events_last_30d, trend_prior_30d: events_prior_30d},
        note: note
    }) as varchar), 'source', (select a.source from mart_answer_source a where a.answer = 'rehab' and a.market_key = 'zip|' || mart_rehab.zip)) as body
from mart_rehab
order by zip, months;
