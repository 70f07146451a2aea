-- requires: sales, parcels, permits, distress, int_unit_shared_sqft
-- Address domain, first step: every street address the canonical market tables carry, one row per source row,
-- with the row's property facts and a date that says how recent they are (sale date, last sale date, permit
-- issue date, filing date). 50_address_09_addresses.sql merges them. Rules: warehouse/docs/address.md.
-- Sources without street addresses contribute nothing here: King County (parcel id + zip only) and Denver
-- (schedule number only) have none; Sacramento, Philadelphia, NYC, Connecticut (sales), Nashville (permits),
-- Louisville (distress) and the operator's canonical files do. Chicago permits and Connecticut GL sales name no
-- zip: 30_market_80_fill_geo.sql guessed one from the nearest zip centroid (zip_imputed); the flag is carried so
-- that 50_address_09_addresses.sql can prefer a recorded zip and the index can leave guessed ones out.
-- A unit row's sqft that is its lot's (int_unit_shared_sqft, 50_address_00_unit_sqft.sql) is not the unit's: null.
create or replace table int_address_candidates (
    source varchar not null,
    kind varchar not null,          -- sale | parcel | permit | distress | transfer (a sale row the market domain rejected)
    address varchar not null,       -- normalize_address(): upper case, no unit, last word USPS-abbreviated
    unit varchar,
    city varchar,
    state_code varchar,
    zip varchar,
    zip_imputed boolean not null default false,  -- zip guessed from the nearest zip centroid, not recorded
    lat double,
    lng double,
    beds double,
    baths double,
    sqft double,
    seen_date date,
    file varchar,
    line bigint
);

-- The market tables with a zip_imputed column even where the fill step did not add one (it adds it to every
-- table it fills; a build without zips skips it): union by name with an empty row set that has the column.
create or replace temp macro address_with_flag(t) as table
    select * from query_table(t) union all by name (select null::boolean as zip_imputed where false);

-- Plausible coordinates only (a 0,0 or out-of-range point is no point at all).
create or replace temp macro address_point_ok(lat, lng) as
    lat is not null and lng is not null and lat between 17 and 72 and lng between -180 and -60 and not (lat = 0 and lng = 0);

insert into int_address_candidates by name
select source, 'sale' as kind, address, unit, city, state_code, zip, coalesce(zip_imputed, false) as zip_imputed,
       case when address_point_ok(lat, lng) then lat end as lat, case when address_point_ok(lat, lng) then lng end as lng,
       positive_or_null(beds) as beds, positive_or_null(baths) as baths,
       case when not exists (select 1 from int_unit_shared_sqft u where u.source = r.source and u.file = r.file and u.line = r.line)
            then positive_or_null(sqft) end as sqft,
       sale_date as seen_date, file, line
from address_with_flag('sales') r where address is not null;

insert into int_address_candidates by name
select source, 'parcel' as kind, address, unit, city, state_code, zip, coalesce(zip_imputed, false) as zip_imputed,
       case when address_point_ok(lat, lng) then lat end as lat, case when address_point_ok(lat, lng) then lng end as lng,
       positive_or_null(beds) as beds, positive_or_null(baths) as baths,
       case when not exists (select 1 from int_unit_shared_sqft u where u.source = r.source and u.file = r.file and u.line = r.line)
            then positive_or_null(sqft) end as sqft,
       last_sale_date as seen_date, file, line
from address_with_flag('parcels') r where address is not null;

insert into int_address_candidates by name
select source, 'permit' as kind, address, null as unit, city, state_code, zip, coalesce(zip_imputed, false) as zip_imputed,
       case when address_point_ok(lat, lng) then lat end as lat, case when address_point_ok(lat, lng) then lng end as lng,
       null as beds, null as baths, null as sqft,
       issue_date as seen_date, file, line
from address_with_flag('permits') where address is not null;

insert into int_address_candidates by name
select source, 'distress' as kind, address, null as unit, city, state_code, zip, coalesce(zip_imputed, false) as zip_imputed,
       case when address_point_ok(lat, lng) then lat end as lat, case when address_point_ok(lat, lng) then lng end as lng,
       null as beds, null as baths, null as sqft,
       filing_date as seen_date, file, line
from address_with_flag('distress') where address is not null;
