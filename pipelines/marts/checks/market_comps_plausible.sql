-- check: residential comps medians (sfr, condo, multi; any window) lie between $10 and $2,500 per sqft; outside it is rarely a market and often a portfolio deed, a nominal price or a wrong living area, worth a look before clients see it
-- severity: warn
-- requires: mart_comps
select zip, property_type, state_code, city,
    round(min(ppsf_median), 2) as lowest_median, round(max(ppsf_median), 2) as highest_median,
    count(*) as windows, max(comp_count) as most_comps
from mart_comps
where property_type in ('sfr', 'condo', 'multi') and (ppsf_median < 10 or ppsf_median > 2500)
group by zip, property_type, state_code, city
order by zip, property_type
