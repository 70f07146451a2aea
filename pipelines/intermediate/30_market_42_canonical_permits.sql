-- requires: stg_canonical__permits, permits, permit_sources
-- The operator's canonical permits.csv -> permits, checked row by row against the canonical format
-- (warehouse/docs/market.md "Row contracts"); the first rule a row breaks is its reject (rule, column, value):
--   missing_value     address, zip, issue_date or permit_type empty
--   too_long          address over 200 characters, permit_id over 64
--   bad_zip           zip not 5 digits or ZIP+4
--   not_a_date        issue_date not a YYYY-MM-DD date
--   not_a_number      valuation not a number;  out_of_range  valuation negative or infinite
--   zero_is_unknown   valuation 0: the declared cost is unknown (market.md: 0 is a placeholder, as the native Nashville
--                     and Chicago adapters read it), nulled and the permit kept, a meta.repairs row nulled_zero_is_unknown;
--                     before, the permit reached the market_canonical check ("valuation not above 0") and failed the
--                     whole build naming no line (review 22: 1,442 of Nashville's applications as a canonical file)
--   lat or lng not a number: nulled (both) and the permit kept, a meta.repairs row nulled_not_a_number, as sales.csv's
--   not_in_list       permit_type outside its list (one of it in another case, "Renovation": read in lower case,
--                     the permit kept, a meta.repairs row lower_cased, as sales.csv's)
--   duplicate_permit  a permit_id already seen on an earlier line
--   number_unformatted, date_zero_padded, zip_plus4_dropped  "295,000", "2023-9-5", "06405-1234": read, a repair each, as sales.csv's
-- building_use (optional: residential or nonresidential, the building the work is on, as the native adapters read it;
-- market.md "Residential rehab"): a nonresidential permit counts in no rehab score; empty or no such column: the use is
-- unknown (is_residential_rehab's $500,000 rule) and the rehab answers say commercial work may be counted. Another
-- word is nulled (nulled_not_in_list), one in another case read in lower case (lower_cased).
-- City and state come from the zip (30_market_80_fill_geo.sql); dates against the build clock, the valuation bound,
-- the zip and the coordinates: 30_market_44_row_contracts.ts.
create or replace temp view int_market_canonical_permits_checked as
select *,
    -- permits.csv has no city or state (they come from the zip)
    canonical_reject(address, null, null, zip,
        case when issue_date_text is null then {'rule': 'missing_value', 'col': 'issue_date', 'val': null::varchar}
             when permit_type is null then {'rule': 'missing_value', 'col': 'permit_type', 'val': null} end,
        case when length(permit_id) > 64 then {'rule': 'too_long', 'col': 'permit_id', 'val': permit_id} end,
        case when issue_date is null then {'rule': 'not_a_date', 'col': 'issue_date', 'val': issue_date_text}
             when valuation_text is not null and (valuation is null or isnan(valuation)) then {'rule': 'not_a_number', 'col': 'valuation', 'val': valuation_text}
             when valuation < 0 or isinf(valuation) then {'rule': 'out_of_range', 'col': 'valuation', 'val': valuation_text}
             when permit_type not in ('renovation', 'addition', 'repair', 'new', 'demolition', 'other') then {'rule': 'not_in_list', 'col': 'permit_type', 'val': permit_type_text}
             when permit_id is not null and row_number() over (partition by permit_id order by file, row_number) > 1 then {'rule': 'duplicate_permit', 'col': 'permit_id', 'val': permit_id} end,
        has_city_state := false
    ) as hit,
    list_filter([canonical_zero_is_unknown('valuation', valuation, valuation_text),
                 case when lat_text is not null and (lat is null or isnan(lat)) then {'rule': 'not_a_number', 'col': 'lat', 'val': lat_text} end,
                 case when lng_text is not null and (lng is null or isnan(lng)) then {'rule': 'not_a_number', 'col': 'lng', 'val': lng_text} end,
                 case when building_use not in ('residential', 'nonresidential') then {'rule': 'not_in_list', 'col': 'building_use', 'val': building_use_text} end], r -> r is not null) as repairs,
    list_filter([canonical_lower_cased('permit_type', permit_type_text, permit_type in ('renovation', 'addition', 'repair', 'new', 'demolition', 'other')),
                 canonical_lower_cased('building_use', building_use_text, building_use in ('residential', 'nonresidential')),
                 canonical_number_read('valuation', valuation_text), canonical_date_read('issue_date', issue_date_text, issue_date),
                 canonical_zip_read(zip)], r -> r is not null) as respelled
from stg_canonical__permits;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, hit.rule, reject_detail(hit.col, hit.val)
from int_market_canonical_permits_checked where hit is not null;

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, 'nulled_' || r.rule, reject_detail(r.col, r.val) || ' -> null'
from (select file, row_number, unnest(repairs) as r from int_market_canonical_permits_checked where hit is null);

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, r.rule, reject_detail(r.col, r.val) || ' -> ' || r.to
from (select file, row_number, unnest(respelled) as r from int_market_canonical_permits_checked where hit is null);

insert into permits by name
select
    'canonical:' || coalesce(permit_id, regexp_extract(file, '[^/]+$') || ':' || cast(row_number + 1 as varchar)) as permit_id, -- else its file line
    'canonical' as source,
    normalize_address(address) as address, canonical_zip(zip) as zip,
    null as city, null as state_code,
    issue_date, permit_type,
    case when list_contains(list_transform(repairs, r -> r.col), 'valuation') then null else valuation end as valuation,
    -- a point with an unreadable half is no point
    case when list_has_any(list_transform(repairs, r -> r.col), ['lat', 'lng']) then null else lat end as lat,
    case when list_has_any(list_transform(repairs, r -> r.col), ['lat', 'lng']) then null else lng end as lng,
    null as parcel_id, null as description,
    case when list_contains(list_transform(repairs, r -> r.col), 'building_use') then null else building_use end as building_use,
    false as zip_imputed,
    file, row_number + 1 as line
from int_market_canonical_permits_checked where hit is null;

-- The format's declarations (permit_sources): issue_date is the day a permit was issued; permits.csv declares no area,
-- so 30_market_98_permit_area.sql infers it from the counties its permits lie in.
insert or replace into permit_sources values ('canonical', 'issued', null, null, null);
