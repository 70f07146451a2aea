-- requires: stg_allegheny__foreclosures, distress
-- Allegheny County mortgage foreclosure docket adapter -> distress (kind pre_foreclosure). The file has one
-- row per docket event: a case is one filing, dated by its earliest docket date, with the largest claimed
-- amount; its other docket rows are recorded in meta.rejects as merged_docket_event (nothing silently lost).
-- Municipality -> city: "X Boro" -> X, "City of X" -> X, "N./S./Mt./Hts." spelled out, "Twp." -> Township.
create or replace temp view int_market_allegheny_checked as
select *,
    case
        when case_id is null or case_id = '' then 'missing_case_id'
        when filing_date is null then 'bad_date'
        when municipality is null or municipality = '' then 'missing_city'
    end as base_reason,
    row_number() over (partition by case_id order by filing_date nulls last, row_number) as case_rank
from stg_allegheny__foreclosures;

insert into meta.rejects
select 'intermediate', 'allegheny', file, row_number + 1,
       coalesce(base_reason, 'merged_docket_event'),
       'case=' || coalesce(case_id, '') || ' docket=' || coalesce(docket_type, '') || ' date=' || coalesce(filing_date_text, '')
from int_market_allegheny_checked where base_reason is not null or case_rank > 1;

insert into distress by name
select
    'allegheny:' || c.case_id as distress_id,
    'allegheny' as source,
    c.pin as parcel_id,
    null as address,
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        regexp_replace(c.municipality, '^City of ', ''), ' Boro$', ''), ' Twp\.$', ' Township'), '^N\. ', 'North '),
        '^S\. ', 'South '), '^Mt\. ', 'Mount '), ' Hts\.( |$)', ' Heights\1'), '^Duquesnt$', 'Duquesne')) as city,
    'PA' as state_code,
    null as zip,
    'pre_foreclosure' as kind,
    c.filing_date,
    a.amount,
    null as lat, null as lng,
    c.file, c.row_number + 1 as line
from int_market_allegheny_checked c
join (select case_id, max(positive_or_null(amount)) as amount from int_market_allegheny_checked where base_reason is null group by case_id) a using (case_id)
where c.base_reason is null and c.case_rank = 1;
