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
-- The unit a row sells: APARTMENT NUMBER, else the ", 3D" after the street, else a unit the street line ends with. Two
-- exceptions (review 15): a special condo billing lot's APARTMENT NUMBER is often the lot's part ("RESI", "RES", "RU")
-- and the street's ", 16C" the apartment sold ("138 WILLOUGHBY STREET, 16C", apartment RESI: 199 sales), so a
-- number in the street's part wins over an apartment column with none; and on a house or rental building's row
-- (categories 01-03, 07, 08, 14) a garage or parking word after the comma ("18 CRANBERRY STREET, GAR", a 3-family of
-- 5,375 sqft sold with its garage for $4,001,000) names what came with the building, not an apartment: no unit, so
-- the building's area stays its own. In the condo categories the same words are the unit sold (44 "PK5", a space).
create or replace macro nyc_street_part(address) as nullif(trim(split_part(address, ',', 2)), '');
create or replace macro nyc_house_category(category) as regexp_matches(coalesce(category, ''), '^(01|02|03|07|08|14) ');
create or replace macro nyc_part_is_accessory(part) as
    regexp_matches(upper(coalesce(part, '')), '^(GAR|GARAGE|GARAG|GARGE|GRG|PKG|PKNG|PAKNG|PARKING)$');
create or replace macro nyc_unit(address, apartment_number, category) as
    coalesce(
        case when regexp_matches(coalesce(nyc_street_part(address), ''), '[0-9]')
                  and not regexp_matches(coalesce(apartment_number, ''), '[0-9]')
             then normalize_unit(nyc_street_part(address)) end,
        normalize_unit(apartment_number),
        case when not (nyc_house_category(category) and nyc_part_is_accessory(nyc_street_part(address)))
             then normalize_unit(nyc_street_part(address)) end,
        address_unit(split_part(address, ',', 1)));
-- A whole building's number (review 18a #4): on a row of a lot sold under no other unit in the files, a bare number
-- after the comma is no apartment of a house or small rental building (01-03, 14: "23 PROSPECT PLACE, 6", a 2-family
-- of 3,040 sqft sold whole for $4,800,000; "156 COURT STREET, 6", 6 units, $7,065,000), nor of a larger rental
-- building (07, 08) when it is the building's own RESIDENTIAL or TOTAL UNITS ("96 STERLING PLACE, 25", 25 units,
-- $16,500,000). SOURCE.md documents unit text in ADDRESS for condo units only. No unit, so the sale is the building's,
-- with its area. A lot sold unit by unit ("20 RIVER TERRACE, 14J"), an apartment-like part ("4B") and a larger
-- building's other number ("78 1ST STREET, 25", one of 429 units, $380,000) keep their unit.
create or replace macro nyc_building_number(address, apartment_number, category, lot_units, residential_units, total_units) as
    nyc_house_category(category) and lot_units < 2 and nullif(trim(coalesce(apartment_number, '')), '') is null
    and regexp_matches(coalesce(nyc_street_part(address), ''), '^[0-9]+$')
    and (regexp_matches(coalesce(category, ''), '^(01|02|03|14) ')
         or try_cast(nyc_street_part(address) as integer) in (residential_units, total_units));
-- Units sold as condos: a special condo billing lot's row (category 11, building class RR) that names an apartment
-- is the sale of one condominium unit of the building ("138 WILLOUGHBY STREET, 16C", $1,268,540), not of a
-- multi-family building: 474 of its 495 rows did (review 15: they were multi, 265 of 11201's arm's-length multi
-- sales, and a unit's price was the month's multi median). Its rows naming no apartment ("531 MYRTLE AVENUE, RU",
-- 29 units, $14,700,000) sell the lot's whole residential part and stay multi. A rental building's row (02, 03, 07,
-- 08, 14) naming a unit is a unit's sale when the lot sold under two or more units in the files: the building is
-- sold unit by unit ("20 RIVER TERRACE, 11L", one of 293 units, $2,060,000); the lot's row naming none is the
-- building's sale and stays multi ("32-34 JEFFERSON AVENUE", 61 units, $8,353,019).
-- Co-ops (F7): categories 09 and 10 (COOPS - WALKUP / ELEVATOR APARTMENTS, classes C6, C8, D0, D4) and 17 (CONDO
-- COOPS, class R9: a co-op within a condominium) sell shares in a cooperative, with the board's approval and no deed:
-- no condominium, and usually cheaper (Queens' February 2024 "condo" median was $370,000, 230 co-op sales at a median
-- near $315,000 beside 117 condos). They are typed 'coop', a type of the warehouse that the contract's five
-- (property_types()) do not hold: no per-type figure counts them, the condo comps' note says how many were left out.
create or replace temp view int_market_nyc_checked as
select *,
    case
        when building_class_category like '01 %' then 'sfr'
        when building_class_category like '11 %' and regexp_matches(coalesce(unit, ''), '[0-9]') then 'condo'
        when building_class_category similar to '(02|03|07|08|14) .*' and unit is not null and lot_units >= 2 then 'condo'
        when building_class_category similar to '(02|03|07|08|11|14) .*' then 'multi'
        when building_class_category similar to '(09|10|17) .*' then 'coop'
        when building_class_category similar to '(04|12|13|15|16) .*' then 'condo'
        when building_class_category similar to '(05|31) .*' then 'land'
        when building_class_category similar to '[0-9][0-9] .*' then 'commercial'
    end as property_type,
    case
        when sale_date is null then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
        when not (building_class_category similar to '[0-9][0-9] .*') then 'unknown_property_type'
    end as reject_reason
from (select * replace (case when coalesce(nyc_building_number(address, apartment_number, building_class_category, lot_units, residential_units, total_units), false) then null else unit end as unit)
      from (select *, count(distinct unit) over (partition by borough, block, lot) as lot_units
            from (select *, nyc_unit(address, apartment_number, building_class_category) as unit from stg_nyc__sales)));

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
    -- a billing lot's unit over the condo bound (market.md "Row contracts") carries the building's area
    -- ("1184 RIVER AVENUE, 5", 198,833 sqft): unknown, as a unit of a building of several units
    case when building_class_category like '11 %' and property_type = 'condo' and gross_sqft > 50000 then null
         else nyc_unit_sqft(gross_sqft, unit, residential_units, total_units) end as sqft,
    case when year_built between 1700 and 2100 then year_built end as year_built,
    null as condition, null as lat, null as lng, null as buyer_name, null as seller_name,
    null as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    borough || '-' || block as block_key
from int_market_nyc_checked where reject_reason is null;

-- (the borough's name: nyc_boroughs(), warehouse/macros.sql)
insert into int_market_city_parts
select market_row_id('nyc', c.file, c.row_number), 'NY', b.name
from int_market_nyc_checked c join nyc_boroughs() b on b.code = c.borough where c.reject_reason is null;

-- the Department of Finance's neighbourhood of each sale, as written (int_market_neighborhoods)
insert into int_market_neighborhoods
select market_row_id('nyc', c.file, c.row_number), 'NY', b.name, upper(trim(c.neighborhood))
from int_market_nyc_checked c join nyc_boroughs() b on b.code = c.borough
where c.reject_reason is null and nullif(trim(c.neighborhood), '') is not null;

-- the lots seen in the file, $0 transfers included: the latest record of each (a $0 price is no price: null)
insert into parcels by name
select parcel_id, source, address, unit, city, state_code, zip, property_type, beds, baths, sqft, year_built, lat, lng,
       null as owner_name, sale_date as last_sale_date, positive_or_null(sale_price) as last_sale_price, file, line
from sales where source = 'nyc'
qualify row_number() over (partition by parcel_id, coalesce(unit, '') order by sale_date desc, line desc) = 1;
