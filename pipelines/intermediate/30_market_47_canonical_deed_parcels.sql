-- requires: stg_canonical__sales, sales, parcels
-- The canonical properties seen in the deeds, as every sales adapter records its own (King County, Sacramento, NYC,
-- Denver: "the latest sale of each parcel"): one parcels row per property of canonical sales.csv, from its latest
-- sale, and the owner is the latest grantee (buyer_name), Denver's rule. The property record reads its owner name and
-- owner type (owner_type(), 30_market_00_canonical_tables.sql) from parcels rows (warehouse/docs/property.md), so a
-- canonical market's properties have an owner type wherever sales.csv names the buyer (review 9 #8: it was null).
-- After the row contracts (30_market_44_row_contracts.ts), so a rejected sale makes no parcel and a nulled value stays
-- null. A property that the operator's parcels.csv lists (30_market_41, the same property identity) keeps that row
-- only: the roll is the assessor's record of the property, and its owner_name the owner.
insert into parcels by name
with sold as (
    select *, property_identity('canonical', parcel_id, address, unit, zip) as identity
    from sales where source = 'canonical'
),
rolled as (
    select distinct property_identity('canonical', parcel_id, address, unit, zip) as identity
    from parcels where source = 'canonical'
)
select parcel_id, source, address, unit, city, state_code, zip, property_type, beds, baths, sqft, year_built, lat, lng,
       buyer_name as owner_name, sale_date as last_sale_date, sale_price as last_sale_price, file, line
from sold
where identity is not null and identity not in (select identity from rolled where identity is not null)
-- a day's deeds in recording order where a document number is known (document_order(), as Denver's), then by line
qualify row_number() over (partition by identity order by sale_date desc, document_order(document_id) desc nulls last, line desc) = 1;
