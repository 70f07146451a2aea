-- requires: stg_sacramento__sales, sales
-- Sacramento adapter -> sales, parcels. Caveats acted on: the 49 bogus 4,897 prices and the two other prices
-- under $10,000 are kept and flagged by the one arm's-length rule (30_market_45_sale_flags.sql: nominal_price), not
-- rejected: they are real sales of real houses whose price is no market signal; sq__ft/beds/baths 0 mean unknown
-- (null); "Unkown" type rejected.
create or replace temp view int_market_sacramento_checked as
select *,
    case type_norm when 'Residential' then 'sfr' when 'Condo' then 'condo' when 'Multi-Family' then 'multi' end as property_type,
    case
        when sale_date is null then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
        when type_norm not in ('Residential', 'Condo', 'Multi-Family') then 'unknown_property_type'
        when normalize_address(street) is null then 'missing_address'
    end as reject_reason
from (select *, coalesce(source_type, '') as type_norm from stg_sacramento__sales);

insert into meta.rejects
select 'intermediate', 'sacramento', file, row_number + 1, reject_reason,
       'price=' || coalesce(sale_price_text, '') || ' type=' || coalesce(source_type, '') || ' date=' || coalesce(sale_date_text, '')
from int_market_sacramento_checked where reject_reason is not null;

insert into sales by name
select
    market_row_id('sacramento', file, row_number) as sale_id,
    'sacramento' as source,
    null as parcel_id,
    normalize_address(street) as address,
    address_unit(street) as unit,
    title_case(city) as city,
    coalesce(upper(state_code), 'CA') as state_code,
    zip5(zip) as zip,
    sale_date, sale_price, null as list_price, null as list_date,
    property_type,
    positive_or_null(beds) as beds, positive_or_null(baths) as baths, positive_or_null(sqft) as sqft,
    null as year_built, null as condition,
    lat, lng, null as buyer_name, null as seller_name,
    null as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line
from int_market_sacramento_checked where reject_reason is null;

insert into parcels by name
select null as parcel_id, source, address, unit, city, state_code, zip, property_type, beds, baths, sqft, year_built, lat, lng,
       null as owner_name, sale_date as last_sale_date, sale_price as last_sale_price, file, line
from sales where source = 'sacramento'
qualify row_number() over (partition by address, coalesce(unit, ''), zip order by sale_date desc, line desc) = 1;
