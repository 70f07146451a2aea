-- requires: stg_louisville__foreclosures, distress
-- Louisville Metro lien foreclosure adapter -> distress. Commonwealth cases ("C/W v.", "CW v.", "Comm v.":
-- delinquent property-tax liens) -> tax_delinquent; Metro cases (code-enforcement / vacant-property liens) ->
-- lien_foreclosure. One row per case and parcel (a case may name several parcels; repeated case+parcel rows are
-- rejected as duplicate_case; its copies agree on the sale). amount is null: the file has no claimed amount.
-- Status (warehouse/docs/market.md "Distress status"): a case with a `Sale Date` was sold at the commissioner's
-- foreclosure sale: closed, outcome commissioner_sale, status_date and sale_date the sale's date, sale_price its `Sale
-- Price` (null for the 35 sold filings the file gives no price); any other case is active (the file records sales only, no
-- dismissal or redemption). Both kinds are foreclosure actions on the property before its sale: the distressed pipeline
-- counts them until the sale (a Metro code-enforcement lien foreclosure is a pre-foreclosure by the spec's definition).
-- The sale is no recorded market sale: it stays on the filing (GET /v1/property's distress entry), never in `sales`.
create or replace temp view int_market_louisville_checked as
select *,
    case
        when filing_date is null then 'bad_date'
        when case_number is null then 'missing_case_id'
        when row_number() over (partition by case_number, parcel_id order by row_number) > 1 then 'duplicate_case'
    end as reject_reason
from stg_louisville__foreclosures;

insert into meta.rejects
select 'intermediate', 'louisville', file, row_number + 1, reject_reason,
       'case=' || coalesce(case_number, '') || ' filed=' || coalesce(filing_date_text, '')
from int_market_louisville_checked where reject_reason is not null;

insert into distress by name
select
    'louisville:' || case_number || coalesce(':' || parcel_id, '') as distress_id,
    'louisville' as source,
    parcel_id,
    normalize_address(concat_ws(' ', street_number, pre_direction, street_name, street_suffix, post_direction)) as address,
    'Louisville' as city, 'KY' as state_code,
    zip5(zip) as zip,
    case when regexp_matches(upper(case_style), '^\s*(C/W|CW|COMM|COMMONWEALTH)\b') then 'tax_delinquent' else 'lien_foreclosure' end as kind,
    filing_date,
    null as amount,
    case when sale_date is not null then 'closed' else 'active' end as status,
    case when sale_date is not null then 'commissioner_sale' end as outcome,
    sale_date as status_date,
    sale_date,
    case when sale_date is not null then sale_price end as sale_price,
    lat, lng,
    file, row_number + 1 as line
from int_market_louisville_checked where reject_reason is null;
