-- requires: stg_canonical__distress, distress
-- The operator's canonical distress.csv -> distress, checked row by row against the canonical format
-- (warehouse/docs/market.md "Row contracts"); the first rule a row breaks is its reject (rule, column, value):
--   missing_value  address, city, state, zip, kind or filing_date empty
--   too_long       address over 200 characters, city over 100, parcel_id over 64
--   unknown_state  state not two letters;  bad_zip  zip not 5 digits or ZIP+4
--   not_a_date     filing_date not a YYYY-MM-DD date
--   not_a_number   amount not a number;  out_of_range  amount negative or infinite
--   not_in_list    kind outside its list
-- Dates against the build clock, the amount bound, real state and zip in that state: 30_market_44_row_contracts.ts.
create or replace temp view int_market_canonical_distress_checked as
select *,
    canonical_reject(address, city, state, zip,
        case when kind is null then {'rule': 'missing_value', 'col': 'kind', 'val': null::varchar}
             when filing_date_text is null then {'rule': 'missing_value', 'col': 'filing_date', 'val': null} end,
        case when length(parcel_id) > 64 then {'rule': 'too_long', 'col': 'parcel_id', 'val': parcel_id} end,
        case when filing_date is null then {'rule': 'not_a_date', 'col': 'filing_date', 'val': filing_date_text}
             when amount_text is not null and (amount is null or isnan(amount)) then {'rule': 'not_a_number', 'col': 'amount', 'val': amount_text}
             when amount < 0 or isinf(amount) then {'rule': 'out_of_range', 'col': 'amount', 'val': amount_text}
             when kind not in ('pre_foreclosure', 'tax_delinquent', 'lien_foreclosure') then {'rule': 'not_in_list', 'col': 'kind', 'val': kind} end
    ) as hit
from stg_canonical__distress;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, hit.rule, reject_detail(hit.col, hit.val)
from int_market_canonical_distress_checked where hit is not null;

insert into distress by name
select
    market_row_id('canonical', file, row_number) as distress_id,
    'canonical' as source,
    parcel_id,
    normalize_address(address) as address,
    title_case(city) as city, upper(state) as state_code, canonical_zip(zip) as zip,
    kind, filing_date, amount,
    null as lat, null as lng,
    file, row_number + 1 as line
from int_market_canonical_distress_checked where hit is null;
