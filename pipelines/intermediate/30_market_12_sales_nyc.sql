-- requires: stg_nyc__sales, sales
-- NYC DOF rolling sales adapter -> sales, parcels. Caveats acted on: $0 transfers (~29% of the rows: deeds between
-- family members, corrections...) and nominal prices are real records of real properties, kept as sales and
-- flagged by the one arm's-length rule (30_market_45_sale_flags.sql: nominal_price), not rejected. The file names
-- neither a document nor a buyer, so the tax block (borough-block) is the package key the rule reads (several lots
-- of one block sold on the same day for the same total price). Gross square feet 0 (all condo and co-op units) is
-- unknown. City is the municipality, New York, for all five boroughs; the borough (BOROUGH, SOURCE.md: 1 Manhattan,
-- 2 Bronx, 3 Brooklyn, 4 Queens, 5 Staten Island) goes to int_market_city_parts, so a borough's city queries answer
-- from its own sales.
-- A unit's living area: GROSS SQUARE FEET is the building's (SOURCE.md), so on a row that sells one unit (an
-- apartment number) of a building of several units (RESIDENTIAL or TOTAL UNITS > 1) it is not the unit's and sqft is
-- null: "228 WEST 17TH STREET, 4B", a 15-unit walk-up, sold for $425,000 with the building's 7,790 sqft ($55/sqft)
-- and was a valuation comp (review 6 #7; valuation.md "Units"). The $0 transfers' rows (50_address_02) read it too.
create or replace macro nyc_unit_sqft(gross_sqft, unit, residential_units, total_units) as
    case when unit is not null and greatest(coalesce(residential_units, 0), coalesce(total_units, 0)) > 1 then null
         else positive_or_null(gross_sqft) end;
create or replace macro nyc_unit(address, apartment_number) as
    coalesce(normalize_unit(apartment_number), normalize_unit(nullif(trim(split_part(address, ',', 2)), '')),
             address_unit(split_part(address, ',', 1)));
create or replace temp view int_market_nyc_checked as
select *,
    case
        when building_class_category like '01 %' then 'sfr'
        when building_class_category similar to '(02|03|07|08|11|14) .*' then 'multi'
        when building_class_category similar to '(04|09|10|12|13|15|16|17) .*' then 'condo'
        when building_class_category similar to '(05|31) .*' then 'land'
        when building_class_category similar to '[0-9][0-9] .*' then 'commercial'
    end as property_type,
    case
        when sale_date is null then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
        when not (building_class_category similar to '[0-9][0-9] .*') then 'unknown_property_type'
    end as reject_reason
from (select *, nyc_unit(address, apartment_number) as unit from stg_nyc__sales);

insert into meta.rejects
select 'intermediate', 'nyc', file, row_number + 1, reject_reason,
       'price=' || coalesce(sale_price_text, '') || ' date=' || coalesce(sale_date_text, '') || ' class=' || coalesce(building_class_category, '')
from int_market_nyc_checked where reject_reason is not null;

insert into sales by name
select
    market_row_id('nyc', file, row_number) as sale_id,
    'nyc' as source,
    borough || '-' || block || '-' || lot as parcel_id,
    normalize_address(split_part(address, ',', 1)) as address,
    unit,
    'New York' as city, 'NY' as state_code,
    zip5(zip) as zip,
    sale_date, sale_price, null as list_price, null as list_date,
    property_type,
    null as beds, null as baths,
    nyc_unit_sqft(gross_sqft, unit, residential_units, total_units) as sqft,
    case when year_built between 1700 and 2100 then year_built end as year_built,
    null as condition, null as lat, null as lng, null as buyer_name, null as seller_name,
    null as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    borough || '-' || block as block_key
from int_market_nyc_checked where reject_reason is null;

insert into int_market_city_parts
select market_row_id('nyc', file, row_number), 'NY',
       case borough when '1' then 'Manhattan' when '2' then 'Bronx' when '3' then 'Brooklyn' when '4' then 'Queens'
                    when '5' then 'Staten Island' end
from int_market_nyc_checked where reject_reason is null and borough in ('1', '2', '3', '4', '5');

-- the Department of Finance's neighbourhood of each sale, as written (int_market_neighborhoods)
insert into int_market_neighborhoods
select market_row_id('nyc', file, row_number), 'NY',
       case borough when '1' then 'Manhattan' when '2' then 'Bronx' when '3' then 'Brooklyn' when '4' then 'Queens'
                    when '5' then 'Staten Island' end,
       upper(trim(neighborhood))
from int_market_nyc_checked where reject_reason is null and borough in ('1', '2', '3', '4', '5') and nullif(trim(neighborhood), '') is not null;

-- the lots seen in the file, $0 transfers included: the latest record of each (a $0 price is no price: null)
insert into parcels by name
select parcel_id, source, address, unit, city, state_code, zip, property_type, beds, baths, sqft, year_built, lat, lng,
       null as owner_name, sale_date as last_sale_date, positive_or_null(sale_price) as last_sale_price, file, line
from sales where source = 'nyc'
qualify row_number() over (partition by parcel_id, coalesce(unit, '') order by sale_date desc, line desc) = 1;
