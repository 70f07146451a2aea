-- requires: sales, int_property_extra, raw."king_county__sales"
-- King County's lot area (sqft_lot) for each sale row, by the row's file and line (raw _row = line - 1).
insert into int_property_extra (file, line, lot_sqft)
select s.file, s.line, positive_or_null(try_cast(r.sqft_lot as double))
from sales s join raw."king_county__sales" r on r._file = s.file and r._row = s.line - 1
where s.source = 'king_county';
