// The permit files of ../shared/data read by the adapters' keep rules without the build (SOURCE.md and pipelines/
// intermediate 30_market_20_permits_nashville.sql, 30_market_21_permits_chicago.sql): each file's permits kept with
// their date and kind, for tests that count permits of a period (review-23-periods, review-24-periods).
import { dataFile, rawQuery } from './oracle-raw-comps.ts';

export const PERMIT_KIND_ORDER = ['renovation', 'addition', 'repair', 'new', 'demolition', 'other'] as const;
export const PERMIT_KIND_WORDS: Record<string, string> = { renovation: 'renovation/alteration', addition: 'addition', repair: 'repair', new: 'new construction', demolition: 'demolition', other: 'other' };

/** Nashville's applications kept (a permit number's first row, with a date), the application date and kind. */
export const NASHVILLE = `(select * from (
    select trim("Permit__") as permit, trim("ZIP") as zip, trim("City") as city, "Permit_Type_Description" as t,
      make_timestamp(try_cast("Date_Entered" as bigint) * 1000)::date as d,
      row_number() over (partition by trim("Permit__") order by rn) as k
    from (select *, row_number() over () as rn from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)))
  where k = 1 and d is not null and permit is not null)`;
export const NASHVILLE_KIND = `case when t ilike '%tenant finish out%' then 'new' when t ilike '%rehab%' then 'renovation' when t ilike '%addition%' then 'addition'
  when t ilike '%roofing%' or t ilike '%fire damage%' then 'repair' when t ilike '%demolition%' then 'demolition'
  when t ilike '% new%' or t ilike '%shell%' or t ilike '%foundation%' or t ilike '%structural frame%' then 'new' else 'other' end`;
/** Chicago's permits kept (not cancelled or revoked, a permit number's first row, with a date), the issue date and kind. */
export const CHICAGO = `(select * from (
    select trim(permit_number) as permit, try_cast(issue_date as date) as d, permit_type, work_type,
      row_number() over (partition by trim(permit_number) order by rn) as k, trim(permit_status) as status
    from (select *, row_number() over () as rn from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)))
  where k = 1 and d is not null and permit is not null and coalesce(status, '') not in ('CANCELLED', 'REVOKED'))`;
export const CHICAGO_KIND = `case when permit_type like '%RENOVATION/ALTERATION%' then 'renovation' when permit_type like '%NEW CONSTRUCTION%' then 'new'
  when permit_type like '%WRECKING/DEMOLITION%' then 'demolition' when permit_type like '%EASY PERMIT%' then 'repair'
  when permit_type like '%EXPRESS PERMIT%' and work_type in ('Reroofing', 'Masonry Work', 'Porch,Deck,Balcony,or Fire Escape',
    'Exterior Windows/Doors Replacement', 'Nonstructural Interior Work', 'Plumbing Work', 'Electrical Work', 'Mechanical Work') then 'repair'
  when permit_type like '%EXPRESS PERMIT%' and work_type = 'Detached Frame Garage' then 'addition' else 'other' end`;

/** Permits by kind of a file's rows matching `where`, and the file's first and last day. */
export async function permitCounts(file: string, kind: string, where: string): Promise<{ of: (k: string) => number; all: number; first: string; last: string }> {
  const rows = await rawQuery<{ t: string; n: number }>(`select ${kind} as t, count(*)::int as n from ${file} where ${where} group by 1`);
  const [span] = await rawQuery<{ a: string; b: string }>(`select min(d)::varchar as a, max(d)::varchar as b from ${file}`);
  return { of: (k) => rows.find((r) => r.t === k)?.n ?? 0, all: rows.reduce((s, r) => s + r.n, 0), first: span!.a, last: span!.b };
}

/** "29 renovation/alteration, 16 addition, ...": the kinds an answer lists, in its order. */
export const permitKindList = (c: { of: (k: string) => number }): string => PERMIT_KIND_ORDER.filter((k) => c.of(k) > 0).map((k) => `${c.of(k).toLocaleString('en-US')} ${PERMIT_KIND_WORDS[k]}`).join(', ');
