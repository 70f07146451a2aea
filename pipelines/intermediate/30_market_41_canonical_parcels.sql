-- requires: stg_canonical__parcels, parcels
-- The operator's canonical parcels.csv (assessor roll) -> parcels, checked row by row against the canonical format
-- (warehouse/docs/market.md "Row contracts"); the first rule a row breaks is its reject (rule, column, value):
--   missing_value  address, city, state, zip or property_type empty
--   too_long       address over 200 characters, city over 100, parcel_id over 64, owner_name over 200
--   unknown_state  state not two letters;  bad_zip  zip not 5 digits or ZIP+4
--   not_a_number   beds, baths, sqft or year_built (an integer) not a number; lat or lng not a number: nulled (both)
--                  and the parcel kept, a meta.repairs row nulled_not_a_number, the rule of sales.csv and distress.csv
--                  (before, a parcel with a point "NA" was rejected whole: review 22)
--   out_of_range   beds, baths or sqft negative or infinite
--   not_in_list    property_type outside its list (one of it in another case, "SFR": read in lower case, the parcel
--                  kept, a meta.repairs row lower_cased, as sales.csv's)
--   upper_cased    state in lower or mixed case ("wa"): read in upper case, a meta.repairs row upper_cased, as sales.csv's
--   duplicate_parcel  a parcel_id already on an earlier line (one property: property_identity() reads no unit): the
--                  first line is the parcel (the one a deed keyed by parcel takes its place from, 30_market_39), the
--                  later ones rejected with the value naming that line; before, both reached the market_canonical check and failed the build (review 22)
--   zero_is_unknown  beds, baths or sqft 0: nulled and the parcel kept (meta.repairs nulled_zero_is_unknown), the one rule
--                  sales.csv reads its counts by (canonical_zero_is_unknown(), 30_market_00_canonical_tables.sql)
--   number_unformatted, date_zero_padded, zip_plus4_dropped  "295,000", "2023-9-5", "06405-1234": read, a repair each, as sales.csv's
-- Bounds per property type, real state, zip in that state and coordinates in the state: 30_market_44_row_contracts.ts.
create or replace temp view int_market_canonical_parcels_checked as
select *,
    canonical_reject(address, city, state, zip,
        case when property_type is null then {'rule': 'missing_value', 'col': 'property_type', 'val': null::varchar} end,
        case when length(parcel_id) > 64 then {'rule': 'too_long', 'col': 'parcel_id', 'val': parcel_id}
             when length(owner_name) > 200 then {'rule': 'too_long', 'col': 'owner_name', 'val': owner_name} end,
        case when beds_text is not null and (beds is null or isnan(beds)) then {'rule': 'not_a_number', 'col': 'beds', 'val': beds_text}
             when baths_text is not null and (baths is null or isnan(baths)) then {'rule': 'not_a_number', 'col': 'baths', 'val': baths_text}
             when sqft_text is not null and (sqft is null or isnan(sqft)) then {'rule': 'not_a_number', 'col': 'sqft', 'val': sqft_text}
             when year_built_text is not null and year_built is null then {'rule': 'not_a_number', 'col': 'year_built', 'val': year_built_text}
             when beds < 0 or isinf(beds) then {'rule': 'out_of_range', 'col': 'beds', 'val': beds_text}
             when baths < 0 or isinf(baths) then {'rule': 'out_of_range', 'col': 'baths', 'val': baths_text}
             when sqft < 0 or isinf(sqft) then {'rule': 'out_of_range', 'col': 'sqft', 'val': sqft_text}
             when property_type not in (select unnest(property_types())) then {'rule': 'not_in_list', 'col': 'property_type', 'val': property_type_text}
             when first_line < row_number + 1 then {'rule': 'duplicate_parcel', 'col': 'parcel_id', 'val': parcel_id || ' (first on line ' || first_line || ')'} end
    ) as hit,
    list_filter([canonical_zero_is_unknown('beds', beds, beds_text), canonical_zero_is_unknown('baths', baths, baths_text),
                 canonical_zero_is_unknown('sqft', sqft, sqft_text),
                 case when lat_text is not null and (lat is null or isnan(lat)) then {'rule': 'not_a_number', 'col': 'lat', 'val': lat_text} end,
                 case when lng_text is not null and (lng is null or isnan(lng)) then {'rule': 'not_a_number', 'col': 'lng', 'val': lng_text} end], r -> r is not null) as repairs,
    list_filter([canonical_lower_cased('property_type', property_type_text, list_contains(property_types(), property_type)), canonical_upper_cased_state(state),
                 canonical_number_read('sqft', sqft_text), canonical_zip_read(zip)], r -> r is not null) as respelled
from (select *, case when parcel_id is not null then min(row_number + 1) over (partition by parcel_id) end as first_line
      from stg_canonical__parcels);

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, hit.rule, reject_detail(hit.col, hit.val)
from int_market_canonical_parcels_checked where hit is not null;

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, 'nulled_' || r.rule, reject_detail(r.col, r.val) || ' -> null'
from (select file, row_number, unnest(repairs) as r from int_market_canonical_parcels_checked where hit is null);

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, r.rule, reject_detail(r.col, r.val) || ' -> ' || r.to
from (select file, row_number, unnest(respelled) as r from int_market_canonical_parcels_checked where hit is null);

insert into parcels by name
select
    parcel_id, 'canonical' as source,
    normalize_address(address) as address, address_unit(address) as unit,
    title_case(city) as city, upper(state) as state_code, canonical_zip(zip) as zip,
    property_type,
    case when list_contains(list_transform(repairs, r -> r.col), 'beds') then null else beds end as beds,
    case when list_contains(list_transform(repairs, r -> r.col), 'baths') then null else baths end as baths, positive_or_null(sqft) as sqft, year_built,
    case when list_has_any(list_transform(repairs, r -> r.col), ['lat', 'lng']) then null else lat end as lat,
    case when list_has_any(list_transform(repairs, r -> r.col), ['lat', 'lng']) then null else lng end as lng, owner_name,
    null as last_sale_date, null as last_sale_price,
    file, row_number + 1 as line
from int_market_canonical_parcels_checked where hit is null;
