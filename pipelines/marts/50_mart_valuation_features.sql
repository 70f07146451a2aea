-- requires: sales, stg_king_county__sales, raw."king_county__sales"
-- Valuation: the assessor features of each King County sale that the canonical sales table has no column for:
-- construction grade (1-13), view rating (0-4), waterfront (0/1) and the log of the lot size. The valuation comps
-- carry them and the estimator adjusts and weights by each one both subject and comp have (warehouse/docs/valuation.md).
-- view and waterfront are not in stg_king_county__sales (rename-and-cast only), so they are cast here from the raw
-- table, matched on the same file row.
-- Philadelphia: the OPA assessment's market value (SOURCE.md: `market_value`, snapshot 2022-05-24) as log_assessed,
-- read from sales.assessed_value (the same file row: the roll's row is the parcel and its last sale).
-- Grain: one row per King County or Philadelphia sale.
create or replace table mart_valuation_features as
select s.sale_id,
       case when k.grade between 1 and 13 then k.grade::double end as grade,
       case when try_cast(r.view as integer) between 0 and 4 then try_cast(r.view as double) end as view,
       case when try_cast(r.waterfront as integer) in (0, 1) then try_cast(r.waterfront as double) end as waterfront,
       case when k.lot_sqft > 0 then ln(k.lot_sqft) end as log_lot,
       null::double as log_assessed
from sales s
join stg_king_county__sales k on s.file = k.file and s.line = k.row_number + 1
join raw."king_county__sales" r on r._file = k.file and r._row = k.row_number
where s.source = 'king_county'
union all
select s.sale_id, null::double, null::double, null::double, null::double,
       ln(s.assessed_value) as log_assessed -- the sale's own roll value (positive or null: 30_market_16_sales_philadelphia.sql)
from sales s
where s.source = 'philadelphia';
