-- requires: stg_denver__sales, sales
-- Denver parcels seen in the deeds (latest sale per schedule number); owner = the latest grantee. Deeds of the same day
-- are ordered by reception number (the recording order: document_order()), not by line (the file lists a day's chain
-- newest first: 15427004000 MACDONALD -> CARTUS -> DURHAM,AIDEN, owner DURHAM).
insert into parcels by name
select parcel_id, source, address, unit, city, state_code, zip, property_type, beds, baths, sqft, year_built, lat, lng,
       buyer_name as owner_name, sale_date as last_sale_date, sale_price as last_sale_price, file, line
from sales where source = 'denver' and parcel_id is not null
qualify row_number() over (partition by parcel_id order by sale_date desc, document_order(document_id) desc nulls last, line desc) = 1;
