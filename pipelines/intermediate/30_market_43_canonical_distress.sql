-- requires: stg_canonical__distress, distress
-- The operator's canonical distress.csv -> distress, validated row by row: missing_address, missing_city,
-- bad_state, bad_zip, bad_kind, bad_date, bad_amount.
create or replace temp view int_market_canonical_distress_checked as
select *,
    case
        when address is null then 'missing_address'
        when city is null then 'missing_city'
        when state is null or not regexp_matches(state, '^[A-Za-z]{2}$') then 'bad_state'
        when canonical_zip(zip) is null then 'bad_zip'
        when kind is null or kind not in ('pre_foreclosure', 'tax_delinquent', 'lien_foreclosure') then 'bad_kind'
        when filing_date is null or year(filing_date) not between 1800 and 2100 then 'bad_date'
        when amount_text is not null and (amount is null or amount < 0) then 'bad_amount'
    end as reject_reason
from stg_canonical__distress;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, reject_reason,
    case reject_reason
        when 'bad_state' then 'state=' || coalesce(state, '')
        when 'bad_zip' then 'zip=' || coalesce(zip, '')
        when 'bad_kind' then 'kind=' || coalesce(kind, '')
        when 'bad_date' then 'filing_date=' || coalesce(filing_date_text, '')
        when 'bad_amount' then 'amount=' || coalesce(amount_text, '')
        else reject_reason
    end
from int_market_canonical_distress_checked where reject_reason is not null;

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
from int_market_canonical_distress_checked where reject_reason is null;
