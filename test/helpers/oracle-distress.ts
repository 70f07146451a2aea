// The raw distress files read by the tests' own SQL (warehouse/docs/market.md "Distress status"), without the build:
// Allegheny's docket (a case closed by its last closing docket row, reopened by a later "Praecipe to Reinstate") and
// Louisville's lien foreclosures (a case with a Sale Date was sold at the commissioner sale: closed).
import { dataFile, rawQuery } from './oracle-raw-comps.ts';

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

// The filings the research index counts by month (live/research/distress-kinds-build.ts), read again from the raw
// files: review-24-periods and review-25-periods.
/** Louisville's filings kept (a date and a case number; a case and parcel's first row): filing date, zip (the ZIP+4's
 *  first five digits) and kind: a Commonwealth case ("C/W v.", "CW v.", "Comm v.") tax-delinquent, a Metro one a lien
 *  foreclosure. */
export const LOUISVILLE_FILINGS = `(select d, zip, case when regexp_matches(upper(style), '^\\s*(C/W|CW|COMM|COMMONWEALTH)\\b') then 'tax_delinquent' else 'lien_foreclosure' end as kind from (
    select try_cast("Date Action Filed" as date) as d, trim("Civil Case Number") as case_no, trim("Civil Case Style") as style, left(nullif(trim("ZIP"), 'NA'), 5) as zip,
      row_number() over (partition by trim("Civil Case Number"), nullif(trim("PRCLID"), 'NA') order by rn) as k
    from (select *, row_number() over () as rn from read_csv('${dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)))
  where d is not null and case_no is not null and k = 1)`;
/** Allegheny's filings: one per case and parcel (a case naming no parcel one of its own), of the docket rows with a
 *  case id, a date and a municipality, dated by the case's earliest such row, its municipality its parcel's first row's. */
export const ALLEGHENY_FILINGS = `(with v as (
    select nullif(trim(pin), '') as pin, trim(case_id) as case_id, try_cast(filing_date as date) as d, trim(municipality) as muni, rn
    from (select *, row_number() over () as rn from read_csv('${dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz')}', all_varchar = true))
    where nullif(trim(case_id), '') is not null and try_cast(filing_date as date) is not null and nullif(trim(municipality), '') is not null),
  c as (select case_id, min(d) as d, bool_or(pin is not null) as pins from v group by 1)
  select c.d, arg_min(v.muni, (v.d, v.rn)) as muni from v join c using (case_id) where v.pin is not null or not c.pins group by c.case_id, v.pin, c.d)`;

/** A file's filings of `where` by kind, and its first and last filing day. */
export async function filings(file: string, where: string, kind = "'pre_foreclosure'"): Promise<{ of: (k: string) => number; all: number; first: string; last: string }> {
  const rows = await rawQuery<{ t: string; n: number }>(`select ${kind} as t, count(*)::int as n from ${file} where ${where} group by 1`);
  const [span] = await rawQuery<{ a: string; b: string }>(`select min(d)::varchar as a, max(d)::varchar as b from ${file}`);
  return { of: (k) => rows.find((r) => r.t === k)?.n ?? 0, all: rows.reduce((s, r) => s + r.n, 0), first: span!.a, last: span!.b };
}

/** Allegheny's docket as properties (the CTEs r, c and props): r its rows with a case id, municipality and filing date;
 *  c a case's first filing day and parcel count; props a case's parcels (the municipality of its earliest docket row),
 *  a case naming none one property of its own. */
const ALLEGHENY_PROPS = `
r as (select trim(case_id) as case_id, nullif(trim(pin), '') as pin, try_cast(filing_date as date) as d, trim(municipality) as muni, rn
      from (select *, row_number() over () as rn from read_csv('${ALLEGHENY_FILE}', all_varchar = true))
      where nullif(trim(case_id), '') is not null and nullif(trim(municipality), '') is not null and try_cast(filing_date as date) is not null),
    c as (select case_id, min(d) as filed, count(pin) as pins from r group by case_id),
    props as (select case_id, pin, arg_min(muni, (d, rn)) as muni from r where pin is not null group by case_id, pin
      union all select case_id, null, arg_min(muni, (d, rn)) from r where case_id in (select case_id from c where pins = 0) group by case_id)`;

export interface OpenProperties { place: string; months: number; n: number; without_parcel: number }
/** The investor overview's distressed pipeline recounted from the raw files (market.md mart_investor
 *  `distressed_pipeline_count`): the distinct properties with a filing in the `months` to the file's last filing that
 *  is still open on that day. Allegheny: per raw municipality, a case's parcels (its date its earliest docket row's) and
 *  a case naming none as a property of its own (`without_parcel`); Louisville: the city's (its file is one city's),
 *  a property its parcel, else its address and zip, a case sold at the commissioner sale on or before the day closed. */
export async function openProperties(months: number[]): Promise<OpenProperties[]> {
  const m = `m(months) as (values ${months.map((n) => `(${n})`).join(', ')})`;
  return rawQuery<OpenProperties>(`
    with ${m},
    ${ALLEGHENY_PROPS},
    e as (select max(d) as as_of from r),
    lv as (select distinct trim("Civil Case Number") as case_no, nullif(trim(PRCLID), 'NA') as parcel, nullif(trim(full_address), 'NA') as addr,
        left(nullif(trim(ZIP), 'NA'), 5) as zip, try_cast("Date Action Filed" as date) as filed, try_cast(nullif("Sale Date", 'NA') as date) as sold
      from read_csv('${LOUISVILLE_FILE}', all_varchar = true)),
    le as (select max(filed) as as_of from lv)
    select p.muni as place, m.months, count(distinct coalesce(p.pin, p.case_id))::int as n, count(*) filter (where p.pin is null)::int as without_parcel
    from props p join c using (case_id) join ${ALLEGHENY_CASE_STATUS} s using (case_id), e, m
    where c.filed > e.as_of - to_months(m.months) and c.filed <= e.as_of and (s.status_date is null or s.status_date::date > e.as_of)
    group by all
    union all
    select 'Allegheny County', m.months, count(distinct coalesce(p.pin, p.case_id))::int, count(distinct p.case_id) filter (where p.pin is null)::int
    from props p join c using (case_id) join ${ALLEGHENY_CASE_STATUS} s using (case_id), e, m
    where c.filed > e.as_of - to_months(m.months) and c.filed <= e.as_of and (s.status_date is null or s.status_date::date > e.as_of)
    group by all
    union all
    select 'Louisville', m.months, count(distinct coalesce(parcel, addr || '|' || zip, case_no))::int, count(*) filter (where parcel is null and addr is null)::int
    from lv, le, m where filed > le.as_of - to_months(m.months) and filed <= le.as_of and (sold is null or sold > le.as_of)
    group by all`);
}

/** An Allegheny municipality (SQL column `col`) read as the city market.md names ("X Boro" -> X, "City of X" -> X,
 *  "Twp." -> Township, N./S./Mt./Hts. spelled out, the docket's misspelt "Duquesnt" Duquesne). */
export const ALLEGHENY_CITY = (col: string): string => `trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        ${col}, '^City of ', ''), ' Boro$', ''), ' Twp\\.$', ' Township'), '^N\\. ', 'North '), '^S\\. ', 'South '), '^Mt\\. ', 'Mount '),
        ' Hts\\.( |$)', ' Heights\\1'), '^Duquesnt$', 'Duquesne'))`;

export interface FilingCity { state: string; city: string; first: string; last: string }
/** The cities a distress file covers (market.md mart_investor: a city with a filing of any date there), each with its
 *  file's first and last filing day (a filing file's coverage is its span): Allegheny's municipalities of the docket
 *  rows with a case id, a municipality and a filing date, and Louisville (its file is the city's alone). */
export async function filingCities(): Promise<FilingCity[]> {
  return rawQuery<FilingCity>(`
    with ${ALLEGHENY_PROPS},
    lv as (select try_cast("Date Action Filed" as date) as filed from read_csv('${LOUISVILLE_FILE}', all_varchar = true)
      where nullif(trim("Civil Case Number"), '') is not null)
    select distinct 'PA' as state, ${ALLEGHENY_CITY('muni')} as city, (select min(d) from r)::varchar as first, (select max(d) from r)::varchar as last from r
    union all
    select 'KY', 'Louisville', min(filed)::varchar, max(filed)::varchar from lv`);
}

export interface OpenFilings { state: string; city: string; months: number; filings: number }
/** The investor overview's `distress_filings` recounted from the raw files (market.md mart_investor: the filings, not
 *  the properties, filed in the `months` to the source's last filing and still open on that day), per city: an
 *  Allegheny filing is a case's parcel (a case naming none one filing), dated by its case's earliest docket row, its
 *  city its parcel's first docket row's municipality read as market.md says ("X Boro" -> X, "City of X" -> X, "Twp." ->
 *  Township, N./S./Mt./Hts. spelled out; the docket's misspelt "Duquesnt" is Duquesne); a Louisville filing is a
 *  case's parcel (its first row), the city Louisville, closed by a `Sale Date` on or before the day. */
export async function openFilings(months: number[]): Promise<OpenFilings[]> {
  const m = `m(months) as (values ${months.map((n) => `(${n})`).join(', ')})`;
  return rawQuery<OpenFilings>(`
    with ${m},
    ${ALLEGHENY_PROPS},
    named as (select *, ${ALLEGHENY_CITY('muni')} as city from props),
    e as (select max(d) as as_of from r),
    lv as (select case_no, filed, sold from (
        select trim("Civil Case Number") as case_no, try_cast("Date Action Filed" as date) as filed, try_cast(nullif("Sale Date", 'NA') as date) as sold,
               row_number() over (partition by trim("Civil Case Number"), nullif(trim(PRCLID), 'NA') order by rn) as k
        from (select *, row_number() over () as rn from read_csv('${LOUISVILLE_FILE}', all_varchar = true)))
      where k = 1 and filed is not null and nullif(case_no, '') is not null),
    le as (select max(filed) as as_of from lv)
    select 'PA' as state, p.city, m.months, count(*)::int as filings
    from named p join c using (case_id) join ${ALLEGHENY_CASE_STATUS} s using (case_id), e, m
    where c.filed > e.as_of - to_months(m.months) and c.filed <= e.as_of and (s.status_date is null or s.status_date::date > e.as_of)
    group by all
    union all
    select 'KY', 'Louisville', m.months, count(*)::int from lv, le, m
    where filed > le.as_of - to_months(m.months) and filed <= le.as_of and (sold is null or sold > le.as_of) group by all`);
}
