-- requires: sales, int_property_extra, int_sale_fact_rows
-- Denver's lot area (the residential characteristics file's LAND_SQFT) for each sale row the characteristics were
-- matched to (30_market_14), by the sale row's file and line; its lineage cites the characteristics row (the sales
-- file has no lot column). Zero is no lot recorded.
insert into int_property_extra (file, line, lot_sqft)
select s.file, s.line, positive_or_null(f.lot_sqft)
from sales s join int_sale_fact_rows f using (sale_id)
where s.source = 'denver';
