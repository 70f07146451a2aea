-- requires: mart_valuation_features, sales, stg_nyc__sales
-- NYC's valuation feature: ln(LAND SQUARE FEET), the lot (DOF rolling sales; 0 or blank = unknown), from the sale's
-- own file row. It weights comps (TUNING.features log_land: a house on a 2,000 sqft lot is a poor comp for one on
-- 5,000) and feeds the trees; NYC has no beds or baths, so its regression fits no feature slope.
insert into mart_valuation_features by name
select s.sale_id,
       case when n.land_sqft > 0 then ln(n.land_sqft) end as log_land
from sales s
join stg_nyc__sales n on n.file = s.file and n.row_number + 1 = s.line
where s.source = 'nyc';
