-- requires: mart_rehab
-- GET /v1/market/rehab-score?zip=&months= : the rehab score object (spec "Rehab score object").
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
        as_of: strftime(as_of, '%Y-%m-%d')
    }) as varchar) as body
from mart_rehab
order by zip, months;
