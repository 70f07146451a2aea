-- check: mart_investor has one row per (state, city slug, months) with a city, months 3-24, percentages 0-100, flips held 0-365 days at a margin above -100%, no figure of a cohort of 1-4 (rate: known buyers, flips), counts that nest, a tier and confidence in their sets and window_start <= as_of <= build date
-- requires: mart_investor
select state_code, city_slug, months, 'duplicate key' as problem, count(*)::varchar as value
from mart_investor group by state_code, city_slug, months having count(*) > 1
union all
select state_code, city_slug, months, 'key missing or malformed', concat_ws('/', state_code, city, city_slug, months)
from mart_investor
where state_code is null or not regexp_matches(state_code, '^[A-Z]{2}$') or city is null or city = ''
   or city_slug is null or city_slug <> slug(city) or months is null or months not between 3 and 24
union all
select state_code, city_slug, months, 'investor_purchase_rate_pct outside 0-100', investor_purchase_rate_pct::varchar
from mart_investor where investor_purchase_rate_pct not between 0 and 100
union all
select state_code, city_slug, months, 'flip_velocity_days outside 0-365 or gross_flip_margin_pct not above -100', concat_ws(' ', flip_velocity_days, gross_flip_margin_pct)
from mart_investor
where flip_velocity_days not between 0 and 365 or gross_flip_margin_pct <= -100 or not isfinite(gross_flip_margin_pct)
   or (flip_velocity_days is null) <> (gross_flip_margin_pct is null)
union all
select state_code, city_slug, months, 'counts negative or not nested (investor purchases <= known buyers <= sales for value >= arm''s-length sales)', concat_ws(' ', investor_purchases, known_buyer_sales, sales_for_value, arms_length_sales, flips, distress_filings, distressed_pipeline_count)
from mart_investor
where investor_purchases > known_buyer_sales or known_buyer_sales > sales_for_value or arms_length_sales > sales_for_value
   or investor_purchases < 0 or flips < 0 or distress_filings < 0 or distressed_pipeline_count < 0 or platform_active_deals < 0
   or sample_count <> known_buyer_sales + distress_filings
union all
select state_code, city_slug, months, 'market_tier, tier_source or confidence outside its set', concat_ws('/', market_tier, tier_source, confidence)
from mart_investor
where market_tier is null or market_tier not in ('primary', 'secondary', 'tertiary', 'rural')
   or tier_source is null or confidence is null or confidence not in ('low', 'medium', 'high')
union all
select state_code, city_slug, months, 'window not window_start <= as_of <= build date', concat_ws(' ', window_start, as_of)
from mart_investor where window_start is null or as_of is null or window_start > as_of or as_of > build_date()
union all
select state_code, city_slug, months, 'a figure of a cohort of 1-4 (minimum cohort 5: the rate needs 5 known buyers, flip velocity and margin 5 flips)', concat_ws(' ', known_buyer_sales, flips)
from mart_investor
where (investor_purchase_rate_pct is not null and known_buyer_sales < 5)
   or ((flip_velocity_days is not null or gross_flip_margin_pct is not null) and flips < 5)
