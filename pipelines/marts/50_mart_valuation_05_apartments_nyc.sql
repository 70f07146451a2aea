-- requires: mart_valuation_apartments, mart_valuation_apartment_sales, sales, parcels, stg_nyc__sales
-- NYC's apartment buildings (valuation scope, 50_mart_valuation_04_apartments.sql): a multi-family row whose DOF
-- RESIDENTIAL UNITS is 5 or more (building classes C and D: walk-up and elevator rentals; SOURCE.md), read from the
-- same file row of every sale and parcel row, arm's-length or not. A property takes the count of its newest row that
-- records one (0 is no count: a $0 transfer's or a land row's 0, a later row filed under another address, review 16
-- #2: 1481 2 AVE 10075, 32 units, $63,581,367 on 2021-12-03, read 0 on its newest row); a lot rebuilt smaller keeps
-- its property_id and its newest count. A multi-family sale whose own row reads 5+ units is never a comp either
-- (mart_valuation_apartment_sales), whatever the property's newest row reads.
insert into mart_valuation_apartment_sales by name
select s.sale_id, 'nyc' as source, n.residential_units::varchar as units, 'RESIDENTIAL UNITS ' || n.residential_units as evidence
from sales s join stg_nyc__sales n on n.file = s.file and n.row_number + 1 = s.line
where s.source = 'nyc' and s.property_type = 'multi' and n.residential_units >= 5;

insert into mart_valuation_apartments by name
with rows as (
    select property_id(s.source, s.parcel_id, s.address, s.unit, s.zip) as property_id, s.sale_date as day, s.property_type,
           n.residential_units as units
    from sales s join stg_nyc__sales n on n.file = s.file and n.row_number + 1 = s.line
    where s.source = 'nyc'
    union all
    select property_id(p.source, p.parcel_id, p.address, p.unit, p.zip), p.last_sale_date, p.property_type, n.residential_units
    from parcels p join stg_nyc__sales n on n.file = p.file and n.row_number + 1 = p.line
    where p.source = 'nyc'
), newest as (
    select property_id, arg_max(units, day) as units, arg_max(property_type, day) as property_type from rows
    where property_id is not null and units > 0 group by property_id
)
select property_id, 'nyc' as source, units::varchar as units, 'RESIDENTIAL UNITS ' || units as evidence
from newest where property_type = 'multi' and units >= 5;
