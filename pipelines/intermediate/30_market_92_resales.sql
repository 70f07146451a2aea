-- requires: sales
-- int_market_resales: one row per arm's-length sale that follows an earlier arm's-length sale of the same
-- property (same source; parcel id, else a street line naming a lot + zip, else + city; plus the unit), with the
-- earlier sale's date, price and buyer class. A condo sale that does not identify its unit is left out (its key would be the building): one without a unit,
-- unless its source's parcel ids are the units' own (int_market_unit_parcels below). Grain: a (purchase, resale) pair
-- of consecutive arm's-length sales, in date order and, within one day, document order (the recorder's reception
-- numbers run in recording order: Denver's same-day double closings read seller -> middleman -> buyer, where file
-- order reversed 148 of 271 such pairs), then file line. Flip rules (warehouse/docs/market.md "Investor flip"):
-- investor flip = the purchase was by an investor and the resale came 1 to 365 days later; quick resale at a gain =
-- resale 1 to 365 days later at >= 10% over the purchase price (used by the rehab score where buyers are unknown).
-- A resale on the purchase's own day is neither: a double closing (a wholesaler or relocation company buys and sells
-- the same day, the end buyer's money paying the seller), which holds, renovates and lists nothing. The arm's-length
-- rule already leaves the middleman's deed out (pass_through, double_close: resold to another buyer by a deed of the same
-- day or recorded the same day), so a chain pairs the end buyer's purchase with its next resale; the guard stays for a
-- source without parties and for one seller's two deeds of a day (Denver: 5 such pairs, 298 before that rule).

-- int_market_unit_parcels: one row per source with condo sales that carry a parcel id: whether that parcel id is a
-- unit's own (`parcel_names_unit`), i.e. no parcel id of the source's condo sales is recorded with two or more units.
-- NYC's BBL is not (a co-op's lot is the whole building: 4,024 of its 41,625 condo and co-op lots carry several
-- apartment numbers); Denver's SCHEDNUM is (the assessor schedules every condo unit: 5,729 condo sales over 5,379
-- schedule numbers, none recorded with a unit). One parcel id with two units is enough to say no for the source.
create or replace table int_market_unit_parcels as
select source, count(*) as condo_parcels, count(*) filter (where units > 1) as parcels_with_units,
       count(*) filter (where units > 1) = 0 as parcel_names_unit
from (select source, parcel_id, count(distinct unit) as units
      from sales where property_type in ('condo', 'coop') and nullif(trim(parcel_id), '') is not null group by all)
group by source;

-- Whether a sale identifies its property for a resale or a repeat-sales pair: any sale but a condo (or co-op) sale
-- without a unit, which does only when it carries a parcel id of a source whose parcel ids name units
-- (`parcel_names_unit`, from int_market_unit_parcels joined on the source; null when the source has none).
create or replace macro sale_names_property(property_type, unit, parcel_id, parcel_names_unit) as
    property_type not in ('condo', 'coop') or property_type is null or unit is not null
    or (nullif(trim(parcel_id), '') is not null and coalesce(parcel_names_unit, false));

create or replace table int_market_resales as
with keyed as (
    select s.sale_id, s.source, s.zip, s.city, s.state_code, s.property_type, s.sale_date, s.sale_price, s.buyer_is_investor, s.document_id, s.line,
           -- the unit without its punctuation, as property.md "Identity" keys it: NYC writes one apartment "6-C" on one
           -- deed and "6C" on the next (lot 3-5770-36), one property (h68audit2)
           s.source || ':' || coalesce(s.parcel_id, s.address || '|' || coalesce(s.zip, upper(s.city) || ',' || s.state_code)) || '|'
               || coalesce(regexp_replace(upper(s.unit), '[^A-Z0-9]', '', 'g'), '') as property_key
    from sales s left join int_market_unit_parcels u using (source)
    where s.is_arms_length
      -- without a parcel id, the street line names the property only when it names a lot (street_line_names_lot:
      -- "PARADISE DR" is a street) and only within its place: the zip, else the city (Connecticut's 2022 extract has no
      -- zip, and "12 MAIN ST" of two towns is two properties)
      and (s.parcel_id is not null or (s.address is not null and street_line_names_lot(s.address)
                                       and (s.zip is not null or s.city is not null)))
      -- a condo or co-op sale that does not identify its unit names a building, not a property (NYC co-ops share one BBL)
      and sale_names_property(s.property_type, s.unit, s.parcel_id, u.parcel_names_unit)
),
paired as (
    select *,
        lag(sale_date) over w as prev_sale_date,
        lag(sale_price) over w as prev_sale_price,
        lag(buyer_is_investor) over w as prev_buyer_is_investor
    from keyed
    window w as (partition by property_key order by sale_date, document_id, line)
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
