-- requires: stg_nyc__sales, int_address_candidates, sales
-- NYC rows that are not in sales (rejected rows) still name a real property: their address, unit, zip and gross
-- square feet join the candidates (kind 'transfer'). The $0 deed transfers are sales now (kept, flagged not
-- arm's-length), so they come in through the sales like every other sale. The same
-- normalisation as 30_market_12_sales_nyc.sql; rows that became sales are not repeated (anti join on file+line).
create or replace temp table int_address_nyc_rejected as
select s.address as raw_address, s.apartment_number, s.building_class_category, s.zip, s.gross_sqft, s.residential_units, s.total_units, s.sale_date, s.file, s.row_number
from stg_nyc__sales s
anti join (select file, line from sales where source = 'nyc') k on k.file = s.file and k.line = s.row_number + 1;

insert into int_address_candidates by name
select 'nyc' as source, 'transfer' as kind, address, unit, 'New York' as city, 'NY' as state_code, zip5(zip) as zip,
       null as lat, null as lng, null as beds, null as baths,
       nyc_unit_sqft(gross_sqft, unit, residential_units, total_units) as sqft, -- a unit of a building: no living area
       sale_date as seen_date, file, row_number + 1 as line
from (
    select *,
        normalize_address(split_part(raw_address, ',', 1)) as address,
        nyc_unit(raw_address, apartment_number, building_class_category) as unit
    from int_address_nyc_rejected
)
where address is not null;

drop table int_address_nyc_rejected;
