-- check: mart_rehab has one row per (zip, months) with a 5-digit zip, months 3-24, a 0-100 score and components, a label, trend and confidence in their sets, shares 0-1, no resale share of 1-4 sales (minimum cohort 5), counts that add up, window_start <= as_of <= build date and a trend ending by as_of, and each kind's window (permits_as_of, sales_as_of) ending by as_of, the later of them on it
-- requires: mart_rehab
select zip, months, 'duplicate key' as problem, count(*)::varchar as value
from mart_rehab group by zip, months having count(*) > 1
union all
select zip, months, 'key missing or malformed', concat_ws('/', zip, months)
from mart_rehab where zip is null or not regexp_matches(zip, '^\d{5}$') or months is null or months not between 3 and 24
union all
select zip, months, 'score or a component missing or outside 0-100', concat_ws(' ', rehab_momentum_score, permit_score, value_score, resale_score)
from mart_rehab
where rehab_momentum_score is null or rehab_momentum_score not between 0 and 100
   or permit_score not between 0 and 100 or value_score not between 0 and 100 or resale_score not between 0 and 100
union all
select zip, months, 'label, trend or confidence outside its set', concat_ws('/', label, trend, confidence)
from mart_rehab
where label is null or label not in ('Cold', 'Warming', 'Active', 'Hot', 'Very Hot')
   or trend is null or trend not in ('up', 'flat', 'down')
   or confidence is null or confidence not in ('low', 'medium', 'high')
union all
select zip, months, 'a share outside 0-1', concat_ws(' ', value_declared_share, rehab_sale_share)
from mart_rehab where value_declared_share not between 0 and 1 or rehab_sale_share not between 0 and 1
union all
select zip, months, 'counts negative or not nested (valued <= rehab <= all permits, rehab sales <= sales)', concat_ws(' ', permits_rehab_valued, permits_rehab, permits_all, rehab_sales, sales_n)
from mart_rehab
where permits_rehab_valued > permits_rehab or permits_rehab > permits_all or rehab_sales > sales_n
   or permits_rehab_valued < 0 or rehab_sales < 0 or events_last_30d < 0 or events_prior_30d < 0
   or sample_count <> (case when permit_score is not null or value_score is not null then permits_rehab else 0 end)
                      + (case when resale_score is not null then sales_n else 0 end)
union all
select zip, months, 'a rehab resale share of 1-4 sales (minimum cohort 5)', concat_ws(' ', rehab_sales, sales_n)
from mart_rehab where (rehab_sale_share is not null or resale_score is not null) and sales_n < 5
union all
select zip, months, 'window not window_start <= as_of <= build date, or trend_end after as_of', concat_ws(' ', window_start, as_of, trend_end)
from mart_rehab where window_start is null or as_of is null or window_start > as_of or as_of > build_date() or trend_end > as_of
union all
select zip, months, 'a kind''s window not ending by as_of, or neither ending on it', concat_ws(' ', permits_as_of, sales_as_of, as_of)
from mart_rehab
where permits_as_of > as_of or sales_as_of > as_of or coalesce(greatest(permits_as_of, sales_as_of), as_of - 1) <> as_of
   or permits_window_start <> cast(permits_as_of - to_months(months) as date) or sales_window_start <> cast(sales_as_of - to_months(months) as date)
