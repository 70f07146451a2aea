-- requires: stg_allegheny__foreclosures, distress
-- Allegheny County mortgage foreclosure docket adapter -> distress (kind pre_foreclosure). The file has one
-- row per docket event. One distress row per case and parcel, as Louisville's: a case may name several parcels
-- (GD-22-000426 names 20, in South Fayette Township; 45 cases name parcels of two municipalities), and each is a
-- property in the pipeline (review 5A: one row per case counted 7 properties where South Fayette had 26). Each row
-- is dated by its case's earliest docket date, carries the case's largest claimed amount (the claim is the case's,
-- so a several-parcel case repeats it), and takes the municipality of its parcel's first docket row. A docket row
-- without a pin in a case that names parcels is one of its events; a case naming no parcel is one row of its own.
-- The other docket rows are recorded in meta.rejects as merged_docket_event (nothing silently lost).
-- Status (warehouse/docs/market.md "Distress status"): a case whose last closing or reinstating docket row (by date,
-- then file line) is a closing one is closed, its outcome that row's kind (allegheny_closing_dockets below: discontinued,
-- dismissed, satisfied, terminated, sheriff_sale), status_date its date; any other case is active. docket_type: the type
-- of the case's last docket row (by date, then file line). "Praecipe to Withdraw" (607 cases) is not counted as closing:
-- the file does not say whether the action or an appearance is withdrawn.
-- Municipality -> city: "X Boro" -> X, "City of X" -> X, "N./S./Mt./Hts." spelled out, "Twp." -> Township.
create or replace temp view int_market_allegheny_checked as
select *,
    -- the first valid docket row of each parcel of a case, and how many valid rows of the case name a parcel
    row_number() over (partition by case_id, pin order by base_reason nulls first, filing_date, row_number) as parcel_rank,
    count(pin) filter (where base_reason is null) over (partition by case_id) as case_pins
from (
    select *,
        case
            when case_id is null or case_id = '' then 'missing_case_id'
            when filing_date is null then 'bad_date'
            when municipality is null or municipality = '' then 'missing_city'
        end as base_reason
    from stg_allegheny__foreclosures
);

insert into meta.rejects
select 'intermediate', 'allegheny', file, row_number + 1,
       coalesce(base_reason, 'merged_docket_event'),
       'case=' || coalesce(case_id, '') || ' docket=' || coalesce(docket_type, '') || ' date=' || coalesce(filing_date_text, '')
from int_market_allegheny_checked where base_reason is not null or parcel_rank > 1 or (pin is null and case_pins > 0);

create or replace temp table allegheny_closing_dockets (docket_type varchar, outcome varchar);
insert into allegheny_closing_dockets values
    ('Discontinued without Prejudice', 'discontinued'), ('Discontinued with Prejudice', 'discontinued'),
    ('Discontinued', 'discontinued'), ('Discontinuance', 'discontinued'), ('Settled and Discontinued', 'discontinued'),
    ('Case Settled', 'discontinued'), ('Dismissed without Prejudice', 'dismissed'), ('Dismissed with Prejudice', 'dismissed'),
    ('Order of Court- Case Dismissed', 'dismissed'), ('Satisfaction', 'satisfied'), ('Case Terminated', 'terminated'),
    ('Sheriff''s Deed', 'sheriff_sale'), ('Praecipe to Reinstate', 'reinstated');

create or replace temp view int_market_allegheny_status as
select case_id,
       arg_max(docket_type, (filing_date, row_number)) as docket_type,
       arg_max(k.outcome, (filing_date, row_number)) filter (where k.docket_type is not null) as outcome,
       max(filing_date) filter (where k.docket_type is not null) as status_date
from int_market_allegheny_checked c left join allegheny_closing_dockets k using (docket_type)
where base_reason is null group by case_id;

insert into distress by name
select
    'allegheny:' || c.case_id || coalesce(':' || c.pin, '') as distress_id,
    'allegheny' as source,
    c.pin as parcel_id,
    null as address,
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        regexp_replace(c.municipality, '^City of ', ''), ' Boro$', ''), ' Twp\.$', ' Township'), '^N\. ', 'North '),
        '^S\. ', 'South '), '^Mt\. ', 'Mount '), ' Hts\.( |$)', ' Heights\1'), '^Duquesnt$', 'Duquesne')) as city,
    'PA' as state_code,
    null as zip,
    'pre_foreclosure' as kind,
    a.filing_date,
    a.amount,
    st.docket_type,
    case when coalesce(st.outcome, 'reinstated') = 'reinstated' then 'active' else 'closed' end as status,
    nullif(st.outcome, 'reinstated') as outcome,
    case when st.outcome <> 'reinstated' then st.status_date end as status_date,
    null as lat, null as lng,
    c.file, c.row_number + 1 as line
from int_market_allegheny_checked c
join (select case_id, min(filing_date) as filing_date, max(positive_or_null(amount)) as amount
      from int_market_allegheny_checked where base_reason is null group by case_id) a using (case_id)
join int_market_allegheny_status st using (case_id)
where c.base_reason is null and c.parcel_rank = 1 and (c.pin is not null or c.case_pins = 0);
