-- requires: stg_philadelphia__properties, raw."philadelphia__properties", sales
-- Philadelphia OPA adapter -> parcels (every row: the assessor roll) and sales (each parcel's last sale).
-- Caveats acted on: zip_code ZIP+4 -> zip5; $0 and $1 (nominal) sales are kept and flagged by the one arm's-length
-- rule (30_market_45_sale_flags.sql); the deed's book and page (document_id; '0000000' = none) and the owner (the
-- buyer of the last sale, owner_1 + owner_2) are what that rule reads to find portfolio deeds (one deed, one date,
-- its total price recorded on every parcel of the package). A row whose sale part is unusable stays in parcels; its
-- sale part is recorded in meta.rejects (detail says "parcel kept").
-- Repair (SOURCE.md: "~125 rows have impossible sale dates in 2068-2071, two-digit-year parsing error upstream,
-- really 1968-1971"): a sale year 2060-2099 (a two-digit year 60-99 read into the wrong century) is moved back 100
-- years, one meta.repairs row per date (two_digit_year).
-- OPA interior condition code -> the canonical condition (the sales below; the valuation's parcel subjects,
-- 50_mart_valuation_02_philadelphia.sql)
create or replace macro opa_condition(code) as
    case code when 1 then 'excellent' when 2 then 'excellent' when 3 then 'good' when 4 then 'good' when 5 then 'fair'
              when 6 then 'poor' when 7 then 'poor' end;

create or replace temp view int_market_philadelphia_checked as
select *,
    case
        -- OPA files a condominium unit under SINGLE FAMILY; its building code says so (RES CONDO 3 STY MASONRY, ...), and
        -- a condo parking space is no home (land, as a residential garage is)
        when category = 'SINGLE FAMILY' and building_description like 'RES CONDO%' then 'condo'
        when category = 'SINGLE FAMILY' and building_description = 'CONDO PARKING SPACE' then 'land'
        when category = 'SINGLE FAMILY' then 'sfr'
        when category in ('MULTI FAMILY', 'APARTMENTS  > 4 UNITS', 'APARTMENTS > 4 UNITS') then 'multi'
        when category like 'VACANT LAND%' or category = 'GARAGE - RESIDENTIAL' then 'land'
        when category in ('MIXED USE', 'COMMERCIAL', 'OFFICES', 'INDUSTRIAL', 'SPECIAL PURPOSE') then 'commercial'
    end as property_type,
    year(sale_date) between 2060 and 2099 as two_digit_year,
    case when year(sale_date) between 2060 and 2099 then sale_date - interval 100 year else sale_date end :: date as sale_date_fixed,
    nullif(trim(concat_ws(' ', owner_1, owner_2)), '') as owner_name,
    -- the deed's book and page, not in the staging view (rename-and-cast only): from the same raw row, read by
    -- name so that an extract without the column still loads (no document then; the buyer rule still applies)
    (select case when not regexp_full_match(trim(b), '0*') then trim(b) end
     from (select json_extract_string(to_json(r), 'book_and_page') as b
           from raw."philadelphia__properties" r where r._file = s.file and r._row = s.row_number)) as document_id
from stg_philadelphia__properties s;

insert into meta.repairs
select 'intermediate', 'philadelphia', file, row_number + 1, 'two_digit_year',
       'sale_date=' || cast(sale_date as varchar) || ' -> ' || cast(sale_date_fixed as varchar)
from int_market_philadelphia_checked where two_digit_year;

create or replace temp view int_market_philadelphia_sales_checked as
select *,
    case
        when sale_date is null then 'bad_date'
        when year(sale_date_fixed) < 1800 then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
        when property_type is null then 'unknown_property_type'
    end as reject_reason
from int_market_philadelphia_checked;

insert into meta.rejects
select 'intermediate', 'philadelphia', file, row_number + 1, reject_reason,
       'sale part only, parcel kept: date=' || coalesce(sale_date_text, '') || ' price=' || coalesce(sale_price_text, '') || ' category=' || coalesce(category, '')
from int_market_philadelphia_sales_checked where reject_reason is not null;

insert into sales by name
select
    market_row_id('philadelphia', file, row_number) as sale_id,
    'philadelphia' as source,
    parcel_number as parcel_id,
    normalize_address(location) as address,
    coalesce(normalize_unit(unit), address_unit(location)) as unit,
    'Philadelphia' as city, 'PA' as state_code,
    zip5(zip) as zip,
    sale_date_fixed as sale_date, sale_price, null as list_price, null as list_date,
    property_type,
    positive_or_null(beds) as beds, positive_or_null(baths) as baths, positive_or_null(sqft) as sqft,
    case when year_built between 1700 and 2100 then year_built end as year_built,
    -- OPA interior condition: 2 new/rehabbed, 3 above average, 4 average, 5 below average, 6 vacant, 7 sealed.
    -- SOURCE.md names no code 1: in the raw file its houses are new construction (the 122 single- and multi-family
    -- sales of code 1 over $10,000 were built 2019 at the median, code 2's 1923), so it reads excellent as 2 does,
    -- not unknown (test/pipelines/market-adapters.test.ts reads that evidence from the raw file)
    opa_condition(interior_condition) as condition,
    lat, lng,
    owner_name as buyer_name, null as seller_name,
    -- the buyer's whole name, as buyer_name: OPA splits a long name over owner_1 and owner_2 ("DI WANSHU" + "LLC",
    -- "BLAKE SAMUEL" + "BLAKE DEVELOPMENT CORP"), and owner_1 alone read those entities as people (h63audit)
    is_investor_name(owner_name) as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    document_id,
    -- the roll's market value (SOURCE.md market_value, assessment date 2022-05-24): the sale-to-assessment ratio
    positive_or_null(market_value) as assessed_value
from int_market_philadelphia_sales_checked where reject_reason is null;

-- the assessor roll: every parcel, sold or not (a parcel with an unknown category keeps a null type)
insert into parcels by name
select
    parcel_number as parcel_id, 'philadelphia' as source,
    normalize_address(location) as address,
    coalesce(normalize_unit(unit), address_unit(location)) as unit,
    'Philadelphia' as city, 'PA' as state_code, zip5(zip) as zip,
    property_type,
    positive_or_null(beds) as beds, positive_or_null(baths) as baths, positive_or_null(sqft) as sqft,
    case when year_built between 1700 and 2100 then year_built end as year_built,
    lat, lng, owner_name,
    case when year(sale_date_fixed) >= 1800 then sale_date_fixed end as last_sale_date,
    positive_or_null(sale_price) as last_sale_price,
    file, row_number + 1 as line
from int_market_philadelphia_checked;
