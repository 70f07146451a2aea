-- requires: stg_connecticut__sales_2022, sales
-- Connecticut OPM sales recorded 2022-01..09 (list year 2021; third-party extract without Non Use Code or
-- residential subtype) adapter -> sales. "Residential" (single family, condo or 2-4 family: not told apart in
-- this file) is mapped to sfr. No coordinates, so no zip. Its "Serial Number" is the extract's own row counter (not
-- the town's serial: every value is unique), so no document_id; with neither codes nor parties, the one arm's-length
-- rule (30_market_45_sale_flags.sql) can apply only the price floor, duplicates (rows recorded twice: ~290 here) and,
-- standing in for the missing Non Use Code, the sale-to-assessment ratio: its Assessed Value (list year 2021, 70% of
-- the town's appraisal) is recorded as assessed_value, and the ratio's fences are this file's own (market.md).
create or replace temp view int_market_ct_2022_checked as
select *,
    case property_type_text
        when 'Residential' then 'sfr' when 'Apartments' then 'multi' when 'Vacant Land' then 'land'
        when 'Commercial' then 'commercial' when 'Industrial' then 'commercial' when 'Public Utility' then 'commercial'
    end as property_type,
    case
        when sale_date is null then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
    end as base_reason
from stg_connecticut__sales_2022;

insert into meta.rejects
select 'intermediate', 'connecticut', file, row_number + 1, coalesce(base_reason, 'unknown_property_type'),
       'serial=' || coalesce(serial_number, '') || ' date=' || coalesce(sale_date_text, '') || ' price=' || coalesce(sale_price_text, '')
       || ' type=' || coalesce(property_type_text, '')
from int_market_ct_2022_checked where base_reason is not null or property_type is null;

-- its residential sales have no subtype: sfr stands for all of them (int_market_untyped_files)
insert into int_market_untyped_files select distinct 'connecticut', file from stg_connecticut__sales_2022;

insert into sales by name
select
    market_row_id('connecticut', file, row_number) as sale_id,
    'connecticut' as source,
    null as parcel_id,
    normalize_address(address) as address, address_unit(address) as unit,
    title_case(town) as city, 'CT' as state_code, null as zip,
    sale_date, sale_price, null as list_price, null as list_date,
    property_type,
    null as beds, null as baths, null as sqft, null as year_built, null as condition,
    null as lat, null as lng, null as buyer_name, null as seller_name,
    null as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    positive_or_null(assessed_value) as assessed_value
from int_market_ct_2022_checked where base_reason is null and property_type is not null;
