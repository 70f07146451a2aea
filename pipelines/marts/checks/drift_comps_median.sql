-- check: no zip's comps median price per sqft (sfr, 6-month window: the answer's default) moves up or down by more than REII_DRIFT_MEDIAN_FACTOR (default 3x) against the build being replaced
-- requires: mart_comps, previous.mart_comps
select zip, p.ppsf_median as previous_median, n.ppsf_median as median,
    round(n.ppsf_median / p.ppsf_median, 3) as ratio, drift_median_factor() as limit_factor,
    p.as_of as previous_as_of, n.as_of
from mart_comps n
join previous.mart_comps p using (zip, property_type, months)
where n.property_type = 'sfr' and n.months = 6
  and n.ppsf_median > 0 and p.ppsf_median > 0
  and greatest(n.ppsf_median / p.ppsf_median, p.ppsf_median / n.ppsf_median) > drift_median_factor()
