-- requires: stg_canonical__distress, distress
-- The operator's canonical distress.csv -> distress, checked row by row against the canonical format
-- (warehouse/docs/market.md "Row contracts"); a required value that breaks a rule rejects the row, the first rule it
-- breaks its reject (rule, column, value); a bad optional value (parcel_id, amount) is set to null and the filing kept,
-- a meta.repairs row `nulled_<rule>` (the rule of sales.csv: Louisville writes "NA" for a case with no sale, and such
-- filings were rejected, review 15):
--   missing_value  address, city, state, zip, kind or filing_date empty
--   too_long       address over 200 characters, city over 100 (rejects); parcel_id over 64 (nulled)
--   unknown_state  state not two letters;  bad_zip  zip not 5 digits or ZIP+4
--   not_a_date     filing_date not a YYYY-MM-DD date
--   not_a_number   amount not a number;  out_of_range  amount negative or infinite;  zero_is_unknown  amount 0 (nulled)
--   not_in_list    kind outside its list (one of it in another case, "Tax_Delinquent": read in lower case, the
--                  filing kept, a meta.repairs row lower_cased, as sales.csv's)
--   upper_cased    state in lower or mixed case ("wa"): read in upper case, a meta.repairs row upper_cased, as sales.csv's
--   duplicate_filing  an exact copy of an earlier line (every column the same as the file writes it): a filing
--                  recorded twice counts once, as a sale recorded twice (review 15: 8 of Louisville's 398 lines as a
--                  canonical file had 15 copies, each listed in the property record and counted in the filings);
--                  the value names the earlier line. The native Louisville adapter's duplicate_case is the same rule.
--   number_unformatted, date_zero_padded, zip_plus4_dropped  "295,000", "2023-9-5", "06405-1234": read, a repair each, as sales.csv's
-- closed_date (optional, review 22): the day the case closed (dismissed, satisfied, redeemed, sold), as the native
-- Louisville (its Sale Date) and Allegheny (its closing docket row) adapters read a case's end: a filing with one is
-- status closed, status_date that day, and counts in no distressed pipeline after it; empty: active. A closed_date that
-- is no date, or before the filing, is nulled (nulled_not_a_date, nulled_out_of_range) and the case's status unknown.
-- No such column: every status null, and the investor answers say the file records no case outcome.
-- Dates against the build clock, the amount bound, real state and zip in that state: 30_market_44_row_contracts.ts.
create or replace temp view int_market_canonical_distress_checked as
select *,
    canonical_reject(address, city, state, zip,
        case when kind is null then {'rule': 'missing_value', 'col': 'kind', 'val': null::varchar}
             when filing_date_text is null then {'rule': 'missing_value', 'col': 'filing_date', 'val': null} end,
        null,
        case when filing_date is null then {'rule': 'not_a_date', 'col': 'filing_date', 'val': filing_date_text}
             when kind not in ('pre_foreclosure', 'tax_delinquent', 'lien_foreclosure') then {'rule': 'not_in_list', 'col': 'kind', 'val': kind_text}
             when first_line < row_number + 1 then {'rule': 'duplicate_filing', 'col': 'line', 'val': 'copy of line ' || first_line} end
    ) as hit,
    list_filter([
        case when length(parcel_id) > 64 then {'rule': 'too_long', 'col': 'parcel_id', 'val': parcel_id} end,
        case when amount_text is not null and (amount is null or isnan(amount)) then {'rule': 'not_a_number', 'col': 'amount', 'val': amount_text}
             -- a claimed amount of 0 is no claim known (market_canonical checks amounts above 0): unknown, as a valuation 0
             when amount = 0 then {'rule': 'zero_is_unknown', 'col': 'amount', 'val': amount_text}
             when amount < 0 or isinf(amount) then {'rule': 'out_of_range', 'col': 'amount', 'val': amount_text} end,
        case when closed_date_text is not null and closed_date is null then {'rule': 'not_a_date', 'col': 'closed_date', 'val': closed_date_text}
             when closed_date < filing_date then {'rule': 'out_of_range', 'col': 'closed_date', 'val': closed_date_text} end
    ], r -> r is not null) as repairs,
    list_filter([canonical_lower_cased('kind', kind_text, kind in ('pre_foreclosure', 'tax_delinquent', 'lien_foreclosure')), canonical_upper_cased_state(state),
                 canonical_number_read('amount', amount_text), canonical_date_read('filing_date', filing_date_text, filing_date),
                 canonical_date_read('closed_date', closed_date_text, closed_date), canonical_zip_read(zip)], r -> r is not null) as respelled
from (select *, min(row_number + 1) over (partition by file, parcel_id, address, city, state, zip, kind, filing_date_text, amount_text, closed_date_text) as first_line,
             -- whether the file has the column at all (the staging view gives an absent one as empty)
             exists (select 1 from duckdb_columns() where schema_name = 'raw' and table_name = 'canonical__distress' and column_name = 'closed_date') as has_closed_date
      from stg_canonical__distress);

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, hit.rule, reject_detail(hit.col, hit.val)
from int_market_canonical_distress_checked where hit is not null;

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, 'nulled_' || r.rule, reject_detail(r.col, r.val) || ' -> null'
from (select file, row_number, unnest(repairs) as r from int_market_canonical_distress_checked where hit is null);

insert into meta.repairs
select 'intermediate', 'canonical', file, row_number + 1, r.rule, reject_detail(r.col, r.val) || ' -> ' || r.to
from (select file, row_number, unnest(respelled) as r from int_market_canonical_distress_checked where hit is null);

insert into distress by name
select
    market_row_id('canonical', file, row_number + 1) as distress_id, -- the file line, as sales.csv's sale_id
    'canonical' as source,
    case when list_contains(list_transform(repairs, r -> r.col), 'parcel_id') then null else parcel_id end as parcel_id,
    normalize_address(address) as address,
    title_case(city) as city, upper(state) as state_code, canonical_zip(zip) as zip,
    kind, filing_date, case when list_contains(list_transform(repairs, r -> r.col), 'amount') then null else amount end as amount,
    case when not has_closed_date or list_contains(list_transform(repairs, r -> r.col), 'closed_date') then null
         when closed_date is not null then 'closed' else 'active' end as status,
    case when not list_contains(list_transform(repairs, r -> r.col), 'closed_date') then closed_date end as status_date,
    null as lat, null as lng,
    file, row_number + 1 as line
from int_market_canonical_distress_checked where hit is null;
