-- requires: stg_philadelphia__properties, sales
-- Philadelphia OPA adapter -> parcels (every row: the assessor roll) and sales (each parcel's last sale).
-- Caveats acted on: sale dates in 2068-2071 are a two-digit-year error upstream and are moved back 100 years
-- (1968-1971); zip_code ZIP+4 -> zip5; $1 (nominal) sales are kept as not arm's-length. owner_1/owner_2 is
-- the buyer of the last sale. A row whose sale part is unusable stays in parcels; its sale part is recorded in
-- meta.rejects (detail says "parcel kept").
create or replace temp view int_market_philadelphia_checked as
select *,
    case
        when category = 'SINGLE FAMILY' then 'sfr'
        when category in ('MULTI FAMILY', 'APARTMENTS  > 4 UNITS', 'APARTMENTS > 4 UNITS') then 'multi'
        when category like 'VACANT LAND%' or category = 'GARAGE - RESIDENTIAL' then 'land'
        when category in ('MIXED USE', 'COMMERCIAL', 'OFFICES', 'INDUSTRIAL', 'SPECIAL PURPOSE') then 'commercial'
    end as property_type,
    case when year(sale_date) >= 2060 then sale_date - interval 100 year else sale_date end :: date as sale_date_fixed,
    nullif(trim(concat_ws(' ', owner_1, owner_2)), '') as owner_name
from stg_philadelphia__properties;

create or replace temp view int_market_philadelphia_sales_checked as
select *,
    case
        when sale_date is null then 'bad_date'
        when year(sale_date_fixed) < 1800 then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price <= 0 then 'zero_price'
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
    -- OPA interior condition: 2 new/rehabbed, 3 above average, 4 average, 5 below average, 6 vacant, 7 sealed
    case interior_condition when 2 then 'excellent' when 3 then 'good' when 4 then 'good' when 5 then 'fair'
                            when 6 then 'poor' when 7 then 'poor' end as condition,
    lat, lng,
    owner_name as buyer_name, null as seller_name,
    sale_price >= nominal_price_floor() as is_arms_length,
    is_investor_name(owner_1) as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line
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
