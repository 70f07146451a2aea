-- requires: sales
-- int_market_resales: one row per arm's-length sale that follows an earlier arm's-length sale of the same
-- property (same source; parcel id, else address + zip; plus the unit), with the earlier sale's date, price and buyer
-- class. Condo sales without a unit are left out (the key would be the building). Grain: a (purchase, resale) pair of consecutive arm's-length sales. Flip rules (warehouse/docs/market.md):
-- investor flip = the purchase was by an investor and the resale came within 365 days; quick resale at a gain =
-- resale within 365 days at >= 10% over the purchase price (used by the rehab score where buyers are unknown).
create or replace table int_market_resales as
with keyed as (
    select sale_id, source, zip, city, state_code, property_type, sale_date, sale_price, buyer_is_investor, line,
           source || ':' || coalesce(parcel_id, address || '|' || coalesce(zip, '')) || '|' || coalesce(unit, '') as property_key
    from sales
    where is_arms_length and (parcel_id is not null or address is not null)
      -- a condo or co-op sale without its unit names a building, not a property (NYC co-ops share one BBL)
      and not (property_type = 'condo' and unit is null)
),
paired as (
    select *,
        lag(sale_date) over w as prev_sale_date,
        lag(sale_price) over w as prev_sale_price,
        lag(buyer_is_investor) over w as prev_buyer_is_investor
    from keyed
    window w as (partition by property_key order by sale_date, line)
)
select sale_id, source, property_key, zip, city, state_code, property_type,
       prev_sale_date as purchase_date, prev_sale_price as purchase_price, prev_buyer_is_investor as purchase_by_investor,
       sale_date as resale_date, sale_price as resale_price,
       date_diff('day', prev_sale_date, sale_date) as days_held,
       (sale_price - prev_sale_price) / prev_sale_price as gross_margin,
       coalesce(prev_buyer_is_investor, false) and date_diff('day', prev_sale_date, sale_date) between 1 and 365 as is_investor_flip,
       date_diff('day', prev_sale_date, sale_date) between 1 and 365 and sale_price >= prev_sale_price * 1.10 as is_quick_gain_resale
from paired
where prev_sale_date is not null and prev_sale_price > 0;
