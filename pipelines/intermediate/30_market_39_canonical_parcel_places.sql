-- requires: stg_canonical__parcels, int_market_canonical_parcel_places
-- The place (address, city, state, zip) of each parcel the operator's parcels.csv lists, for the sales of a deed
-- file keyed by parcel (README "Canonical format"): 30_market_40_canonical_sales.sql fills a sale's empty place
-- columns from its parcel_id's row here. One row per parcel_id: the first line of the file that lists it. The values
-- are the file's own text: the sale is then checked by the sales rules as if it had written them. `line` is the file's
-- line (the header is line 1), as parcels.line.
insert into int_market_canonical_parcel_places
select parcel_id, address, city, state, zip, file, row_number + 1 as line
from stg_canonical__parcels
where parcel_id is not null
qualify row_number() over (partition by parcel_id order by file, row_number) = 1;
