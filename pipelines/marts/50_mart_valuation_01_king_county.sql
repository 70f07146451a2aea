-- requires: mart_valuation_features, sales, stg_king_county__sales, raw."king_county__sales"
-- King County's valuation features: construction grade (1-13), view rating (0-4), waterfront (0/1) and the log of the
-- lot size. view and waterfront are not in stg_king_county__sales (rename-and-cast only), so they are cast here from
-- the raw table, matched on the same file row.
insert into mart_valuation_features by name
select s.sale_id,
       case when k.grade between 1 and 13 then k.grade::double end as grade,
       case when try_cast(r.view as integer) between 0 and 4 then try_cast(r.view as double) end as view,
       case when try_cast(r.waterfront as integer) in (0, 1) then try_cast(r.waterfront as double) end as waterfront,
       case when k.lot_sqft > 0 then ln(k.lot_sqft) end as log_lot
from sales s
join stg_king_county__sales k on s.file = k.file and s.line = k.row_number + 1
join raw."king_county__sales" r on r._file = k.file and r._row = k.row_number
where s.source = 'king_county';
