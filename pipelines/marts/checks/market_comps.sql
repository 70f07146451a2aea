-- check: mart_comps has one row per (zip, property_type, months) with a 5-digit zip, a type of the five, months 3-24, a city and state, percentiles above 0 and ordered p25 <= median <= p75 (null together below 5 comps), a confidence in its set and window_start <= as_of <= window_end <= build date, and days on market from the sales or a Redfin period that may stand for the window (redfin_stands_for), list-to-sale from the sales only, a coverage inside the window (window_start < records_start <= records_end <= window_end, 1 <= records_days <= window_days; or none, records_days 0 with no start or end and low confidence, where only a thin extract's months reach the window) that caps the confidence
-- requires: mart_comps
select zip, property_type, months, 'duplicate key' as problem, count(*)::varchar as value
from mart_comps group by zip, property_type, months having count(*) > 1
union all
select zip, property_type, months, 'key missing or malformed', concat_ws('/', zip, property_type, months)
from mart_comps
where zip is null or not regexp_matches(zip, '^\d{5}$')
   or property_type is null or property_type not in ('sfr', 'multi', 'condo', 'land', 'commercial')
   or months is null or months not between 3 and 24
union all
select zip, property_type, months, 'city or state missing', concat_ws('/', city, state_code)
from mart_comps where city is null or city = '' or state_code is null
union all
select zip, property_type, months, 'confidence not in low, medium, high', coalesce(confidence, 'null')
from mart_comps where confidence is null or confidence not in ('low', 'medium', 'high')
union all
select zip, property_type, months, 'percentiles not above 0, not finite or not ordered p25 <= median <= p75', concat_ws(' <= ', ppsf_p25, ppsf_median, ppsf_p75)
from mart_comps
where ppsf_p25 <= 0 or not isfinite(ppsf_p25) or not isfinite(ppsf_median) or not isfinite(ppsf_p75)
   or ppsf_p25 > ppsf_median or ppsf_median > ppsf_p75
union all
select zip, property_type, months, 'percentiles and sample_count not null together, or shown below 5 comps', concat_ws(' ', comp_count, sample_count, ppsf_median)
from mart_comps
where (sample_count is null) <> (ppsf_median is null) or (ppsf_p25 is null) <> (ppsf_median is null) or (ppsf_p75 is null) <> (ppsf_median is null)
   or (sample_count is not null and comp_count < 5) or comp_count < 0
union all
select zip, property_type, months, 'days on market below 0, list-to-sale ratio not above 0, a source outside sales (and redfin for days on market), or a Redfin period that cannot stand for the window', concat_ws(' ', dom_median, dom_source, list_to_sale_ratio, ratio_source, redfin_period_end, redfin_homes_sold, redfin_property_type)
from mart_comps
where dom_median < 0 or list_to_sale_ratio <= 0 or dom_source not in ('sales', 'redfin') or ratio_source <> 'sales'
   or (dom_median is null) <> (dom_source is null) or (list_to_sale_ratio is null) <> (ratio_source is null)
   or (dom_source = 'redfin') <> (redfin_period_end is not null)
   or (dom_source = 'redfin' and not redfin_stands_for(redfin_period_end, redfin_homes_sold, redfin_property_type, property_type, cast(window_start + 1 as date), window_end))
union all
select zip, property_type, months, 'window not window_start <= as_of <= window_end <= build date', concat_ws(' ', window_start, as_of, window_end)
from mart_comps
where window_start is null or as_of is null or window_end is null
   or window_start > as_of or as_of > window_end or window_end > build_date()
union all
select zip, property_type, months, 'coverage not inside the window, or confidence above what it allows', concat_ws(' ', window_start, records_start, records_end, window_end, records_days, window_days, confidence)
from mart_comps
where case when records_days = 0 then records_start is not null or records_end is not null or confidence <> 'low'
           else records_start is null or records_end is null or records_start <= window_start or records_start > records_end or records_end > window_end
                or records_days < 1 or records_days > window_days or records_days > date_diff('day', records_start, records_end) + 1 end
   or (confidence = 'high' and records_days < 0.9 * window_days) or (confidence = 'medium' and records_days < 0.5 * window_days)
