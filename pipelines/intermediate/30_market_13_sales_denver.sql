-- requires: stg_denver__sales, sales
-- Denver deeds adapter -> sales. Buyer = GRANTEE, seller = GRANTOR. No street address, zip or coordinates in
-- these files: city Denver, zip null. Characteristics (sqft, beds, baths, year built) are added by
-- 30_market_14_sales_denver_characteristics.sql when the residential file is present.
-- The deed's reception number (document_id) and instrument (deed_type) are kept for the one arm's-length rule
-- (30_market_45_sale_flags.sql): a multi-parcel deed (one reception number, one date, its total price on every
-- parcel), an instrument other than a deed for value, grantor = grantee, a price under the floor, and the recording date
-- (recorded_date): a double closing's two deeds are recorded together even where their sale dates differ. A $0 deed is kept
-- and flagged; a deed without a date or price is rejected.
-- Repair (counted in meta.repairs): a deed without a sale date takes its recording date (RECEPTION_DATE).
create or replace temp view int_market_denver_checked as
select s.*,
    coalesce(s.sale_date, s.reception_date) as deed_date,
    case s.class when 'R' then 'sfr' when 'H' then 'sfr' when 'O' then 'condo' when 'A' then 'condo' when 'B' then 'condo' end as property_type,
    case
        when coalesce(s.sale_date, s.reception_date) is null then 'bad_date'
        when s.sale_price is null then 'bad_price'
        when s.sale_price < 0 then 'negative_price'
        when s.class is null or s.class not in ('R', 'H', 'O', 'A', 'B') then 'unknown_property_type'
    end as reject_reason
from stg_denver__sales s;

insert into meta.rejects
select 'intermediate', 'denver', file, row_number + 1, reject_reason,
       'reception=' || coalesce(reception_num, '') || ' date=' || coalesce(sale_date_text, '') || ' price=' || coalesce(sale_price_text, '') || ' class=' || coalesce(class, '')
from int_market_denver_checked where reject_reason is not null;

insert into meta.repairs
select 'intermediate', 'denver', file, row_number + 1, 'recording_date_for_sale_date',
       'sale date ' || coalesce(sale_date_text, '') || ' -> recording date ' || cast(reception_date as varchar)
from int_market_denver_checked where reject_reason is null and sale_date is null;

insert into sales by name
select
    market_row_id('denver', file, row_number) as sale_id,
    'denver' as source,
    schednum as parcel_id,
    null as address, null as unit, 'Denver' as city, 'CO' as state_code, null as zip,
    deed_date as sale_date, sale_price, null as list_price, null as list_date,
    property_type,
    null as beds, null as baths, null as sqft, null as year_built, null as condition, null as lat, null as lng,
    nullif(grantee, '') as buyer_name, nullif(grantor, '') as seller_name,
    is_investor_name(grantee) as buyer_is_investor,
    null as year_renovated,
    file, row_number + 1 as line,
    nullif(reception_num, '') as document_id,
    nullif(upper(instrument), '') as deed_type,
    reception_date as recorded_date
from int_market_denver_checked where reject_reason is null;
