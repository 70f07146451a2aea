-- requires: stg_connecticut__sales_gl, sales
-- Connecticut OPM "Real Estate Sales 2001-2022 GL" (first 9,999 rows) adapter -> sales. Town = city; no zip in
-- the file: 30_market_80_fill_geo.sql assigns the nearest ZCTA centroid to rows with a Location point.
-- The Non Use Code (family, love and affection, inter-corporation, foreclosure, part interest, change in property,
-- ...) is kept as non_use_code and the town's serial number as document_id (town + list year + serial) for the one
-- arm's-length rule (30_market_45_sale_flags.sql), and the Assessed Value (70% of the town's appraisal on the row's
-- grand list) as assessed_value for its sale-to-assessment ratio test. A $0 amount is kept and flagged; a missing one
-- is rejected.
create or replace temp view int_market_ct_gl_checked as
select *,
    case
        when property_type_text = 'Residential' and residential_type = 'Single Family' then 'sfr'
        when property_type_text = 'Residential' and residential_type = 'Condo' then 'condo'
        when property_type_text = 'Residential' and residential_type in ('Two Family', 'Three Family', 'Four Family') then 'multi'
        when property_type_text = 'Residential' then 'sfr'
        when property_type_text in ('Apartments') then 'multi'
        when property_type_text in ('Vacant Land') then 'land'
        when property_type_text in ('Commercial', 'Industrial', 'Public Utility') then 'commercial'
        when property_type_text is null and residential_type = 'Single Family' then 'sfr'
        when property_type_text is null and residential_type = 'Condo' then 'condo'
        when property_type_text is null and residential_type in ('Two Family', 'Three Family', 'Four Family') then 'multi'
    end as property_type,
    case
        when sale_date is null then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
    end as base_reason
from stg_connecticut__sales_gl;

insert into meta.rejects
select 'intermediate', 'connecticut', file, row_number + 1, coalesce(base_reason, 'unknown_property_type'),
       'serial=' || coalesce(serial_number, '') || ' date=' || coalesce(sale_date_text, '') || ' price=' || coalesce(sale_price_text, '')
       || ' type=' || coalesce(property_type_text, '') || '/' || coalesce(residential_type, '')
from int_market_ct_gl_checked where base_reason is not null or property_type is null;

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
    lat, lng, null as buyer_name, null as seller_name,
    null as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    case when serial_number is not null then title_case(town) || ':' || coalesce(list_year, '') || ':' || serial_number end as document_id,
    non_use_code,
    positive_or_null(assessed_value) as assessed_value
from int_market_ct_gl_checked where base_reason is null and property_type is not null;
