-- requires: stg_king_county__sales, sales
-- King County WA adapter -> sales, parcels. No street address, no buyer names (buyer_is_investor null),
-- every row is a house sale (property_type sfr). City is filled from the zip by 30_market_80_fill_geo.sql: a city whose
-- geo lookup lists the zip (int_market_zip_cities; warehouse/docs/market.md "City from zip").
-- Arm's-length flags come later from the one rule (30_market_45_sale_flags.sql): no document or buyer here, so only
-- the price floor and duplicates can apply. A $0 price is kept (and flagged); a missing or negative one is rejected.
create or replace temp view int_market_kc_checked as
select *,
    case
        when sale_date is null then 'bad_date'
        when sale_price is null then 'bad_price'
        when sale_price < 0 then 'negative_price'
    end as reject_reason
from stg_king_county__sales;

-- repair (SOURCE.md: "one known outlier, 33 bedrooms"): more than 20 bedrooms is nulled, and counted
insert into meta.repairs
select 'intermediate', 'king_county', file, row_number + 1, 'implausible_bedrooms', 'beds=' || cast(beds as varchar) || ' -> null'
from int_market_kc_checked where reject_reason is null and beds > 20;

insert into meta.rejects
select 'intermediate', 'king_county', file, row_number + 1, reject_reason,
       'date=' || coalesce(sale_date_text, '') || ' price=' || coalesce(sale_price_text, '')
from int_market_kc_checked where reject_reason is not null;

insert into sales by name
select
    market_row_id('king_county', file, row_number) as sale_id,
    'king_county' as source,
    parcel_id,
    null as address, null as unit, null as city, 'WA' as state_code,
    zip5(zip) as zip,
    sale_date, sale_price,
    null as list_price, null as list_date,
    'sfr' as property_type,
    -- one known outlier (33 bedrooms in 1,620 sqft): more than 20 bedrooms is nulled, not trusted
    case when beds between 1 and 20 then beds end as beds,
    positive_or_null(baths) as baths,
    positive_or_null(sqft) as sqft,
    positive_or_null(year_built) as year_built,
    -- assessor condition 1..5: 1 poor, 2 fair, 3 average and 4 good -> good, 5 very good -> excellent
    case condition_code when 1 then 'poor' when 2 then 'fair' when 3 then 'good' when 4 then 'good' when 5 then 'excellent' end as condition,
    lat, lng,
    null as buyer_name, null as seller_name,
    null as buyer_is_investor,
    positive_or_null(year_renovated) as year_renovated,
    file, row_number + 1 as line
from int_market_kc_checked where reject_reason is null;

-- the parcel roll of the sold houses: the latest sale of each parcel
insert into parcels by name
select parcel_id, source, address, unit, city, state_code, zip, property_type, beds, baths, sqft, year_built, lat, lng,
       null as owner_name, sale_date as last_sale_date, sale_price as last_sale_price, file, line
from sales where source = 'king_county'
qualify row_number() over (partition by parcel_id order by sale_date desc, line desc) = 1;
