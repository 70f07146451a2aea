-- requires: sales, int_property_extra, stg_canonical__sales
-- The operator's canonical sales.csv: its optional lot_sqft (README "Canonical format") for each sale row, by the
-- row's file and line, as the valuation reads it (50_mart_valuation_07_canonical.sql): the record's lot is the one its
-- valuation calls a record fact (review r21 #5: 2 DREYER AVENUE, 10314, lot 1073 in the file, read null). Empty, 0,
-- not a number, negative or infinite is no lot (the last three nulled with a repair by 30_market_40).
insert into int_property_extra (file, line, lot_sqft)
select s.file, s.line, c.lot_sqft
from sales s join stg_canonical__sales c on c.file = s.file and c.row_number + 1 = s.line
where s.source = 'canonical' and isfinite(c.lot_sqft) and c.lot_sqft > 0;
