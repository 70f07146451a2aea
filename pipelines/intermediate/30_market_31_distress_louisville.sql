-- requires: stg_louisville__foreclosures, distress
-- Louisville Metro lien foreclosure adapter -> distress. Commonwealth cases ("C/W v.", "CW v.", "Comm v.":
-- delinquent property-tax liens) -> tax_delinquent; Metro cases (code-enforcement / vacant-property liens) ->
-- lien_foreclosure. One row per case and parcel (a case may name several parcels; repeated case+parcel rows are
-- rejected as duplicate_case). amount is null: the file has no claimed amount (Sale Price is the later auction price).
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
    lat, lng,
    file, row_number + 1 as line
from int_market_louisville_checked where reject_reason is null;
