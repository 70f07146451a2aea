-- requires: stg_denver__sales, stg_denver__residential, sales
-- Denver: sqft (above-grade living area), beds, baths (full + half/2) and year built from the residential
-- characteristics file, matched on reception number + PIN (its SCHEDNUM is an Excel float and is never used).
-- int_sale_fact_rows keeps, per sales row, the residential file and line these values were read from: the sales
-- row's own file (the transfers file) has no BED_RMS, AREA_ABG, CCYRBLT or LAND_SQFT column, so the property record's
-- lineage cites this row for them (60_mart_property_10_tables.sql); the lot (LAND_SQFT) is the property record's only
-- (60_mart_property_03_denver.sql), as sales carry no lot.
create or replace table int_sale_fact_rows as
select s.sale_id, r.file as fact_file, r.row_number + 1 as fact_line, r.sqft, r.beds, r.full_baths, r.half_baths, r.year_built,
       r.lot_sqft
from (select market_row_id('denver', file, row_number) as sale_id, reception_num, pin from stg_denver__sales) s
join (select * from stg_denver__residential qualify row_number() over (partition by reception_num, pin order by row_number) = 1) r
  on r.reception_num = s.reception_num and r.pin = s.pin;

update sales set
    sqft = positive_or_null(c.sqft),
    beds = positive_or_null(c.beds),
    baths = positive_or_null(coalesce(c.full_baths, 0) + coalesce(c.half_baths, 0) / 2),
    year_built = case when c.year_built between 1700 and 2100 then c.year_built end
from int_sale_fact_rows c
where sales.sale_id = c.sale_id and sales.source = 'denver';
