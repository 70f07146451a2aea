-- requires: stg_canonical__sales, sales
-- The operator's canonical sales.csv -> sales, validated row by row. The first failing rule of a row is its
-- reject reason (meta.rejects with the file line): missing_address, missing_city, bad_state, bad_zip, bad_date,
-- bad_price, zero_price, bad_property_type, bad_number (beds/baths/sqft/year_built not a number or out of
-- range), bad_condition, bad_coordinates, bad_list_price, bad_list_date.
create or replace temp view int_market_canonical_sales_checked as
select *,
    case
        when address is null then 'missing_address'
        when city is null then 'missing_city'
        when state is null or not regexp_matches(state, '^[A-Za-z]{2}$') then 'bad_state'
        when canonical_zip(zip) is null then 'bad_zip'
        when sale_date is null or year(sale_date) not between 1800 and 2100 then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price <= 0 then 'zero_price'
        when property_type is null or property_type not in ('sfr', 'multi', 'condo', 'land', 'commercial') then 'bad_property_type'
        when (beds_text is not null and (beds is null or beds < 0 or beds > 100))
          or (baths_text is not null and (baths is null or baths < 0 or baths > 100))
          or (sqft_text is not null and (sqft is null or sqft < 0))
          or (year_built_text is not null and (year_built is null or year_built not between 1600 and 2100)) then 'bad_number'
        when condition is not null and condition not in ('excellent', 'good', 'fair', 'poor') then 'bad_condition'
        when (lat_text is not null and (lat is null or lat not between -90 and 90))
          or (lng_text is not null and (lng is null or lng not between -180 and 180)) then 'bad_coordinates'
        when list_price_text is not null and (list_price is null or list_price <= 0) then 'bad_list_price'
        when list_date_text is not null and (list_date is null or list_date > sale_date) then 'bad_list_date'
    end as reject_reason
from stg_canonical__sales;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, reject_reason,
    case reject_reason
        when 'bad_state' then 'state=' || coalesce(state, '')
        when 'bad_zip' then 'zip=' || coalesce(zip, '')
        when 'bad_date' then 'sale_date=' || coalesce(sale_date_text, '')
        when 'bad_price' then 'sale_price=' || coalesce(sale_price_text, '')
        when 'zero_price' then 'sale_price=' || coalesce(sale_price_text, '')
        when 'bad_property_type' then 'property_type=' || coalesce(property_type, '')
        when 'bad_number' then 'beds=' || coalesce(beds_text, '') || ' baths=' || coalesce(baths_text, '') || ' sqft=' || coalesce(sqft_text, '') || ' year_built=' || coalesce(year_built_text, '')
        when 'bad_condition' then 'condition=' || coalesce(condition, '')
        when 'bad_coordinates' then 'lat=' || coalesce(lat_text, '') || ' lng=' || coalesce(lng_text, '')
        when 'bad_list_price' then 'list_price=' || coalesce(list_price_text, '')
        when 'bad_list_date' then 'list_date=' || coalesce(list_date_text, '') || ' sale_date=' || coalesce(sale_date_text, '')
        else reject_reason
    end
from int_market_canonical_sales_checked where reject_reason is not null;

insert into sales by name
select
    market_row_id('canonical', file, row_number) as sale_id,
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
    file, row_number + 1 as line
from int_market_canonical_sales_checked where reject_reason is null;
