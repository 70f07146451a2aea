// The raw distress files read by the tests' own SQL (warehouse/docs/market.md "Distress status"), without the build:
// Allegheny's docket (a case closed by its last closing docket row, reopened by a later "Praecipe to Reinstate") and
// Louisville's lien foreclosures (a case with a Sale Date was sold at the commissioner sale: closed).
import { dataFile } from './oracle-raw-comps.ts';

/** The docket types that close a case, by outcome (the tests' own reading of the file's 166 types); a later
 *  "Praecipe to Reinstate" reopens it. */
export const CLOSING: [string, string][] = [
  ['Discontinued without Prejudice', 'discontinued'], ['Discontinued with Prejudice', 'discontinued'], ['Discontinued', 'discontinued'],
  ['Discontinuance', 'discontinued'], ['Settled and Discontinued', 'discontinued'], ['Case Settled', 'discontinued'],
  ['Dismissed without Prejudice', 'dismissed'], ['Dismissed with Prejudice', 'dismissed'], ['Order of Court- Case Dismissed', 'dismissed'],
  ['Satisfaction', 'satisfied'], ['Case Terminated', 'terminated'], ["Sheriff's Deed", 'sheriff_sale'], ['Praecipe to Reinstate', 'reinstated'],
];

export const ALLEGHENY_FILE = dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz');
export const LOUISVILLE_FILE = dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz');

/** Allegheny's docket rows the build reads (a case id, a municipality and a filing date), with `rn` the file order. */
export const ALLEGHENY_ROWS = `(select trim(case_id) as case_id, nullif(trim(pin), '') as pin, try_cast(filing_date as date) as d,
    trim(docket_type) as docket_type, rn
  from (select *, row_number() over () as rn from read_csv('${ALLEGHENY_FILE}', all_varchar = true))
  where nullif(trim(case_id), '') is not null and nullif(trim(municipality), '') is not null and try_cast(filing_date as date) is not null)`;

/** One row per Allegheny case: its outcome when closed (null: open) and the day it closed. */
export const ALLEGHENY_CASE_STATUS = `(with k(docket_type, outcome) as (values ${CLOSING.map(([d, o]) => `('${d.replaceAll("'", "''")}', '${o}')`).join(', ')}),
  last as (select case_id, arg_max(outcome, (d, rn)) as outcome, strftime(max(d), '%Y-%m-%d') as status_date
           from ${ALLEGHENY_ROWS} join k using (docket_type) group by case_id)
  select case_id, nullif(l.outcome, 'reinstated') as outcome, case when l.outcome <> 'reinstated' then l.status_date end as status_date
  from (select distinct case_id from ${ALLEGHENY_ROWS}) left join last l using (case_id))`;

/** Allegheny's open properties filed in the 12 months to the file's last filing, per municipality: a parcel of a case
 *  (its municipality its first docket row's), and a case naming no parcel as one property of its own. */
export const ALLEGHENY_OPEN = `(with r as (select trim(case_id) as case_id, nullif(trim(pin), '') as pin, try_cast(filing_date as date) as d,
      trim(municipality) as m, row_number() over () as rn from read_csv('${ALLEGHENY_FILE}', all_varchar = true)
    where nullif(trim(case_id), '') is not null and nullif(trim(municipality), '') is not null and try_cast(filing_date as date) is not null),
  c as (select case_id, min(d) as filed, count(pin) as pins from r group by case_id),
  props as (select case_id, pin, arg_min(m, (d, rn)) as m from r where pin is not null group by case_id, pin
    union all select case_id, null, arg_min(m, (d, rn)) from r where case_id in (select case_id from c where pins = 0) group by case_id),
  e as (select max(d) as as_of from r)
  select p.m, p.pin from props p join c using (case_id) join ${ALLEGHENY_CASE_STATUS} s using (case_id), e
  where c.filed > e.as_of - interval 12 month and c.filed <= e.as_of and (s.status_date is null or s.status_date::date > e.as_of))`;

/** Louisville's cases: one row per case and parcel (a repeated row of a case and parcel is one filing). */
export const LOUISVILLE_CASES = `(select distinct trim("Civil Case Number") as case_no, nullif(trim(PRCLID), 'NA') as parcel,
    "Date Action Filed"::date as filed, try_cast(nullif("Sale Date", 'NA') as date) as sold,
    try_cast(nullif("Sale Price", 'NA') as double) as price, "Civil Case Style" as style
  from read_csv('${LOUISVILLE_FILE}', all_varchar = true))`;
