-- requires: mart_valuation_features, sales, stg_canonical__sales
-- The operator's canonical sales.csv (optional columns; README "Canonical format"), from the sale's own file row:
--   log_lot  ln(lot_sqft), the lot, as King County's lot (a comp weight, a hedonic slope and a tree feature;
--            TUNING.features). A lot that is empty, 0, not a number, negative or infinite is unknown (the last three
--            are nulled with a meta.repairs row by 30_market_40_canonical_sales.sql).
--   grade    quality_grade, the assessor's construction quality on its own numeric scale (higher is better), as King
--            County's grade (comp weight 1.0 a step, slope 0..0.4 a step, a tree feature); empty or not a number:
--            unknown (issue 24, sixth round).
-- A file without either column fills no row; a sale with neither value has none.
insert into mart_valuation_features by name
select s.sale_id,
       case when isfinite(c.lot_sqft) and c.lot_sqft > 0 then ln(c.lot_sqft) end as log_lot,
       case when isfinite(c.quality_grade) then c.quality_grade end as grade
from sales s
join stg_canonical__sales c on c.file = s.file and c.row_number + 1 = s.line
where s.source = 'canonical' and ((isfinite(c.lot_sqft) and c.lot_sqft > 0) or isfinite(c.quality_grade));
