-- requires: mart_valuation_features, sales, stg_canonical__sales
-- The operator's canonical sales.csv: ln(lot_sqft), the lot (optional column; README "Canonical format"), from the
-- sale's own file row, as King County's lot (log_lot: a comp weight, a hedonic slope and a tree feature;
-- TUNING.features). A lot that is empty, 0, not a number, negative or infinite is unknown (the last three are nulled
-- with a meta.repairs row by 30_market_40_canonical_sales.sql). A file without the column fills no row.
insert into mart_valuation_features by name
select s.sale_id, ln(c.lot_sqft) as log_lot
from sales s
join stg_canonical__sales c on c.file = s.file and c.row_number + 1 = s.line
where s.source = 'canonical' and isfinite(c.lot_sqft) and c.lot_sqft > 0;
