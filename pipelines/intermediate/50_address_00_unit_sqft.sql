-- requires: sales, parcels
-- Square feet that are a lot's, not a unit's (rules: warehouse/docs/address.md, "Facts"): NYC writes a lot's GROSS
-- SQUARE FEET on every unit row of a deed that sold several units of the lot (K1 store buildings of a market sold in
-- one portfolio deed: 151 HUNTS POINT MARKET units 149, 149A, 150... each "1,172,005"). A figure that several unit
-- rows of one lot and one sale date share is the building's: the addresses table (50_address_01_candidates.sql) and
-- the property record (pipelines/marts/60_mart_property_10_tables.sql) do not take it as the unit's size.
--   int_unit_shared_sqft  one row per sales or parcels row (source, file, line) whose sqft is such a shared figure
create or replace table int_unit_shared_sqft as
with unit_rows as (
    select source, parcel_id, unit, sale_date as record_date, sqft, file, line
    from sales where unit is not null and nullif(trim(parcel_id), '') is not null and sqft > 0
    union all
    select source, parcel_id, unit, last_sale_date, sqft, file, line
    from parcels where unit is not null and nullif(trim(parcel_id), '') is not null and sqft > 0
)
select distinct source, file, line, sqft
from (
    select *, count(distinct regexp_replace(upper(unit), '[^A-Z0-9]', '', 'g'))
                  over (partition by source, parcel_id, record_date, sqft) as units
    from unit_rows
)
where units > 1;
