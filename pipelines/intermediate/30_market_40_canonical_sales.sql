-- requires: stg_canonical__sales, sales, int_market_canonical_parcel_places, int_market_canonical_place_fills
-- The operator's canonical sales.csv -> sales, checked row by row against the canonical format (README "Canonical
-- format", warehouse/docs/market.md "Row contracts"). A required value that breaks a rule rejects the row: the first
-- rule broken is its reject (meta.rejects: file line, rule, column with the file's own value); the row never reaches
-- `sales`. A bad value in an optional column (README "no" or "may be empty") is set to null and the sale kept: each
-- such repair is a meta.repairs row, rule `nulled_<rule>`, detail `<column>=<the file's value> -> null` (a kept row is
-- no reject: it never counts toward the reject-share gate).
--   missing_value  a required value is empty: address, city, state, zip, sale_date, sale_price, property_type
--   unknown_parcel a sale that leaves address, city, state or zip empty takes each from the parcels.csv row of its
--                  parcel_id (30_market_39_canonical_parcel_places.sql: a deed file keyed by parcel; each value so
--                  taken is an int_market_canonical_place_fills row naming that parcels.csv line); one whose
--                  parcel_id parcels.csv does not list (or with no parcels.csv) is rejected so, naming the parcel_id.
--                  Without a parcel_id, or where the parcel's row leaves the column empty too: missing_value
--   too_long       address over 200 characters, city over 100 (rejects); parcel_id over 64, buyer_name or
--                  seller_name over 200 (nulled)
--   unknown_state  state is not two letters (a real code is checked in 30_market_44_row_contracts.ts)
--   bad_zip        zip is not 5 digits or ZIP+4
--   not_a_date     sale_date (rejects) or list_date (nulled) is not a YYYY-MM-DD date
--   not_a_number   sale_price (rejects); list_price, beds, baths, sqft, lot_sqft, quality_grade, year_built (an
--                  integer), lat or lng (nulled)
--   out_of_range   sale_price negative or infinite (1e400) (rejects); list_price not above 0 or infinite, beds, baths,
--                  sqft or lot_sqft negative or infinite, quality_grade infinite (nulled; a lot of 0 is unknown: no
--                  lot feature). A $0 (or
--                  nominal) sale_price is a real deed transfer: kept,
--                  is_arms_length false, and flagged nominal_price by 30_market_45_sale_flags.sql as NYC's $0
--                  transfers are (never prices a market)
--   not_in_list    property_type (rejects) or condition (nulled) outside its list; condition `average` (the assessor
--                  middle grade) is read as `good`, as the King County and Philadelphia adapters read theirs
--   lower_cased    property_type, condition or deed_type a word of its list in another case ("SFR", "Good"): read in
--                  lower case, the row kept, a meta.repairs row `lower_cased` (`property_type=SFR -> sfr`; canonical_respelled)
--   upper_cased    state written in lower or mixed case ("wa"): read in upper case, a meta.repairs row `upper_cased`
--                  (`state=wa -> WA`), the same respelling rule
--   list_date_after_sale  list_date later than sale_date (list_date nulled)
--   number_unformatted, date_zero_padded, zip_plus4_dropped  "295,000", "2023-9-5", "06405-1234": read, a repair each
--                  (canonical_read_as, 30_market_00_canonical_tables.sql)
--   zero_is_unknown  beds, baths, sqft or lot_sqft 0 (nulled): canonical_zero_is_unknown() (30_market_00_canonical_tables.sql), the
--                  rule parcels.csv reads its counts by too
-- The deed columns (optional) feed the one arm's-length rule as the native Denver adapter's do: sale_date is the deed's
-- own date (as Denver's sale date), recorded_date its recording date (Denver RECEPTION_DATE: a double closing's two
-- deeds dated apart are recorded together), document_id its recording number (Denver RECEPTION_NUM: one deed over
-- several parcels, and the order of a day's deeds), deed_type a word of canonical_deed_type_code() read as the
-- instrument code Denver writes (WD, SW, PR, TR, BS for value; QC, OTHER not). A bad one is nulled: recorded_date
-- not_a_date, document_id too_long (over 64), deed_type not_in_list.
-- Dates against the build clock, bounds per property type, real state, zip in that state and coordinates in the
-- state are checked for every source by 30_market_44_row_contracts.ts (for canonical rows, an optional value out of
-- its bounds is nulled there the same way).
-- The canonical deed_type words (README "Canonical format") as the instrument codes market_deed_type() reads.
create or replace macro canonical_deed_type_code(t) as
    case t when 'warranty' then 'WD' when 'special_warranty' then 'SW' when 'personal_representative' then 'PR'
           when 'trustee' then 'TR' when 'bargain_and_sale' then 'BS' when 'quitclaim' then 'QC' when 'other_nonvalue' then 'OTHER' end;

create or replace temp view int_market_canonical_sales_checked as
with s as (
    select s.* replace (case s.condition when 'average' then 'good' else s.condition end as condition,
                        coalesce(s.address, p.address) as address, coalesce(s.city, p.city) as city,
                        coalesce(s.state, p.state) as state, coalesce(s.zip, p.zip) as zip),
           s.state as own_state, p.file as place_file, p.line as place_line,
           -- the place columns this sale took from its parcel's row (int_market_canonical_place_fills below)
           list_filter([case when s.address is null and p.address is not null then 'address' end,
                        case when s.city is null and p.city is not null then 'city' end,
                        case when s.state is null and p.state is not null then 'state' end,
                        case when s.zip is null and p.zip is not null then 'zip' end], c -> c is not null) as place_filled,
           s.parcel_id is not null and p.parcel_id is null
               and (s.address is null or s.city is null or s.state is null or s.zip is null) as parcel_unlisted
    from stg_canonical__sales s
    left join int_market_canonical_parcel_places p
      on p.parcel_id = s.parcel_id and (s.address is null or s.city is null or s.state is null or s.zip is null)
),
checked as (
    select *,
        case when parcel_unlisted then {'rule': 'unknown_parcel', 'col': 'parcel_id', 'val': parcel_id} else
        canonical_reject(address, city, state, zip,
            case when sale_date_text is null then {'rule': 'missing_value', 'col': 'sale_date', 'val': null::varchar}
                 when sale_price_text is null then {'rule': 'missing_value', 'col': 'sale_price', 'val': null}
                 when property_type is null then {'rule': 'missing_value', 'col': 'property_type', 'val': null} end,
            null,
            case when sale_date is null then {'rule': 'not_a_date', 'col': 'sale_date', 'val': sale_date_text}
                 when sale_price is null or isnan(sale_price) then {'rule': 'not_a_number', 'col': 'sale_price', 'val': sale_price_text}
                 when isinf(sale_price) or sale_price < 0 then {'rule': 'out_of_range', 'col': 'sale_price', 'val': sale_price_text}
                 when property_type not in (select unnest(property_types())) then {'rule': 'not_in_list', 'col': 'property_type', 'val': property_type_text} end
        ) end as hit,
        list_filter([
            case when length(parcel_id) > 64 then {'rule': 'too_long', 'col': 'parcel_id', 'val': parcel_id} end,
            case when length(buyer_name) > 200 then {'rule': 'too_long', 'col': 'buyer_name', 'val': buyer_name} end,
            case when length(seller_name) > 200 then {'rule': 'too_long', 'col': 'seller_name', 'val': seller_name} end,
            case when list_date_text is not null and list_date is null then {'rule': 'not_a_date', 'col': 'list_date', 'val': list_date_text}
                 when list_date > sale_date then {'rule': 'list_date_after_sale', 'col': 'list_date', 'val': list_date_text} end,
            case when list_price_text is not null and (list_price is null or isnan(list_price)) then {'rule': 'not_a_number', 'col': 'list_price', 'val': list_price_text}
                 when list_price_text is not null and (isinf(list_price) or list_price <= 0) then {'rule': 'out_of_range', 'col': 'list_price', 'val': list_price_text} end,
            case when beds_text is not null and (beds is null or isnan(beds)) then {'rule': 'not_a_number', 'col': 'beds', 'val': beds_text}
                 when beds < 0 or isinf(beds) then {'rule': 'out_of_range', 'col': 'beds', 'val': beds_text}
                 else canonical_zero_is_unknown('beds', beds, beds_text) end,
            case when baths_text is not null and (baths is null or isnan(baths)) then {'rule': 'not_a_number', 'col': 'baths', 'val': baths_text}
                 when baths < 0 or isinf(baths) then {'rule': 'out_of_range', 'col': 'baths', 'val': baths_text}
                 else canonical_zero_is_unknown('baths', baths, baths_text) end,
            case when recorded_date_text is not null and recorded_date is null then {'rule': 'not_a_date', 'col': 'recorded_date', 'val': recorded_date_text} end,
            case when length(document_id) > 64 then {'rule': 'too_long', 'col': 'document_id', 'val': document_id} end,
            case when deed_type is not null and canonical_deed_type_code(deed_type) is null then {'rule': 'not_in_list', 'col': 'deed_type', 'val': deed_type_text} end,
            case when sqft_text is not null and (sqft is null or isnan(sqft)) then {'rule': 'not_a_number', 'col': 'sqft', 'val': sqft_text}
                 when sqft < 0 or isinf(sqft) then {'rule': 'out_of_range', 'col': 'sqft', 'val': sqft_text}
                 else canonical_zero_is_unknown('sqft', sqft, sqft_text) end,
            case when lot_sqft_text is not null and (lot_sqft is null or isnan(lot_sqft)) then {'rule': 'not_a_number', 'col': 'lot_sqft', 'val': lot_sqft_text}
                 when lot_sqft < 0 or isinf(lot_sqft) then {'rule': 'out_of_range', 'col': 'lot_sqft', 'val': lot_sqft_text}
                 else canonical_zero_is_unknown('lot_sqft', lot_sqft, lot_sqft_text) end,
            case when quality_grade_text is not null and (quality_grade is null or isnan(quality_grade)) then {'rule': 'not_a_number', 'col': 'quality_grade', 'val': quality_grade_text}
                 when isinf(quality_grade) then {'rule': 'out_of_range', 'col': 'quality_grade', 'val': quality_grade_text} end,
            case when year_built_text is not null and year_built is null then {'rule': 'not_a_number', 'col': 'year_built', 'val': year_built_text} end,
            case when lat_text is not null and (lat is null or isnan(lat)) then {'rule': 'not_a_number', 'col': 'lat', 'val': lat_text} end,
            case when lng_text is not null and (lng is null or isnan(lng)) then {'rule': 'not_a_number', 'col': 'lng', 'val': lng_text} end,
            case when condition is not null and condition not in ('excellent', 'good', 'fair', 'poor') then {'rule': 'not_in_list', 'col': 'condition', 'val': condition_text} end
        ], r -> r is not null) as repairs,
        -- a list word in another case ("SFR", "Good", "Warranty"): read in lower case, a lower_cased repair
        list_filter([
            canonical_lower_cased('property_type', property_type_text, list_contains(property_types(), property_type)),
            canonical_lower_cased('condition', condition_text, lower(condition_text) in ('excellent', 'good', 'fair', 'poor', 'average')),
            canonical_lower_cased('deed_type', deed_type_text, canonical_deed_type_code(deed_type) is not null),
            -- the state the file wrote ("wa"): one taken from parcels.csv is that file's repair
            canonical_upper_cased_state(own_state),
            -- an amount or area with separators, a date without its zeros, a ZIP+4: read, a repair each (canonical_read_as)
            canonical_number_read('sale_price', sale_price_text), canonical_number_read('list_price', list_price_text),
            canonical_number_read('sqft', sqft_text), canonical_number_read('lot_sqft', lot_sqft_text),
            canonical_date_read('sale_date', sale_date_text, sale_date), canonical_date_read('list_date', list_date_text, list_date),
            canonical_date_read('recorded_date', recorded_date_text, recorded_date), canonical_zip_read(zip)
        ], r -> r is not null) as respelled
    from s
)
select * exclude (repairs), repairs, list_transform(repairs, r -> r.col) as nulled from checked;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, hit.rule, reject_detail(hit.col, hit.val)
from int_market_canonical_sales_checked where hit is not null;

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, 'nulled_' || r.rule, reject_detail(r.col, r.val) || ' -> null'
from (select file, row_number, unnest(repairs) as r from int_market_canonical_sales_checked where hit is null);

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, r.rule, reject_detail(r.col, r.val) || ' -> ' || r.to
from (select file, row_number, unnest(respelled) as r from int_market_canonical_sales_checked where hit is null);

-- each place value a kept sale took from parcels.csv, with that file's line: the property lineage cites it there
-- (60_mart_property_00_files.ts), not at this sales.csv line, which left the column empty
insert into int_market_canonical_place_fills
select file, row_number + 1, unnest(place_filled), place_file, place_line
from int_market_canonical_sales_checked where hit is null and len(place_filled) > 0;

insert into sales by name
with k as (
    select * replace (
        case when list_contains(nulled, 'parcel_id') then null else parcel_id end as parcel_id,
        case when list_contains(nulled, 'buyer_name') then null else buyer_name end as buyer_name,
        case when list_contains(nulled, 'seller_name') then null else seller_name end as seller_name,
        case when list_contains(nulled, 'list_date') then null else list_date end as list_date,
        case when list_contains(nulled, 'list_price') then null else list_price end as list_price,
        case when list_contains(nulled, 'beds') then null else beds end as beds,
        case when list_contains(nulled, 'baths') then null else baths end as baths,
        case when list_contains(nulled, 'sqft') then null else sqft end as sqft,
        case when list_contains(nulled, 'lat') or list_contains(nulled, 'lng') then null else lat end as lat,
        case when list_contains(nulled, 'lat') or list_contains(nulled, 'lng') then null else lng end as lng,
        case when list_contains(nulled, 'condition') then null else condition end as condition,
        case when list_contains(nulled, 'recorded_date') then null else recorded_date end as recorded_date,
        case when list_contains(nulled, 'document_id') then null else document_id end as document_id,
        case when list_contains(nulled, 'deed_type') then null else deed_type end as deed_type)
    from int_market_canonical_sales_checked where hit is null
)
select
    -- the id names the file line, as `line` and meta.rejects do: a reader of duplicate_of finds the copy kept at that line
    market_row_id('canonical', file, row_number + 1) as sale_id,
    'canonical' as source,
    parcel_id,
    normalize_address(address) as address, address_unit(address) as unit,
    title_case(city) as city, upper(state) as state_code, canonical_zip(zip) as zip,
    sale_date, sale_price, list_price, list_date,
    property_type,
    beds, baths, positive_or_null(sqft) as sqft, year_built, condition, lat, lng,
    buyer_name, seller_name,
    sale_price >= nominal_price_floor()
        and (buyer_name is null or seller_name is null or upper(buyer_name) <> upper(seller_name)) as is_arms_length,
    is_investor_name(buyer_name) as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    document_id, canonical_deed_type_code(deed_type) as deed_type, recorded_date
from k;
