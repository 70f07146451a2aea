// Connecticut's raw sales with market.md's sale-to-assessment ratio test written out again (warehouse/docs/market.md
// "Arm's-length rule", `assessment_ratio`), for the tests that recompute a Connecticut town's arm's-length sales from
// the two raw files: every raw column (all VARCHAR) and `filename`, plus `ratio_out`, true for a row whose Assessed
// Value / Sale Amount lies outside Q1 - 3 IQR .. Q3 + 3 IQR of its file and property type (the adapters' types: the
// 2022 file's "Residential" is single-family), the quartiles over the rows of $10,000 or more with an assessment and
// no Non Use Code, 30 or more. The build's own flags are never read.
import { dataFile, rawQuery } from './oracle-raw-comps.ts';

const AMOUNT = `try_cast(replace("Sale Amount", ',', '') as double)`;
const ASSESSED = `try_cast(replace("Assessed Value", ',', '') as double)`;
const TYPE = `case
  when "Property Type" = 'Residential' and "Residential Type" = 'Condo' then 'condo'
  when "Property Type" = 'Residential' and "Residential Type" in ('Two Family', 'Three Family', 'Four Family') then 'multi'
  when "Property Type" = 'Residential' then 'sfr'
  when "Property Type" = 'Apartments' then 'multi'
  when "Property Type" = 'Vacant Land' then 'land'
  when "Property Type" in ('Commercial', 'Industrial', 'Public Utility') then 'commercial'
  when "Property Type" is null and "Residential Type" = 'Single Family' then 'sfr'
  when "Property Type" is null and "Residential Type" = 'Condo' then 'condo'
  when "Property Type" is null and "Residential Type" in ('Two Family', 'Three Family', 'Four Family') then 'multi' end`;

/** A subquery: the raw rows of both files with `filename` and `ratio_out`. */
export const CT_RATED = `(
  with r as (select *, ${TYPE} as o_type
             from read_csv('${dataFile('connecticut-real-estate-sales')}/*.csv.gz', all_varchar = true, union_by_name = true, filename = true)),
  judged as (select filename, o_type, ${ASSESSED} / ${AMOUNT} as x from r
             where ${AMOUNT} >= 10000 and ${ASSESSED} > 0 and coalesce(trim("Non Use Code"), '') = '' and o_type is not null),
  fences as (select filename, o_type, quantile_cont(x, 0.25) as q1, quantile_cont(x, 0.75) as q3 from judged group by all having count(*) >= 30)
  select r.* exclude (o_type),
         coalesce(${ASSESSED} > 0 and (${ASSESSED} / ${AMOUNT} < q1 - 3 * (q3 - q1) or ${ASSESSED} / ${AMOUNT} > q3 + 3 * (q3 - q1)), false) as ratio_out
  from r left join fences using (filename, o_type))`;

/** Every Connecticut sale the adapters read (a date, a price of $0 or more, a property type), with `why`, the first
 *  reason the arm's-length rule gives to leave it out, as CT_KEPT reads the rule (market.md "Arm's-length rule"):
 *  'nominal_price' (under $10,000), 'related_parties' (Non Use Code 01 family, 02 love and affection, 03
 *  inter-corporation), 'non_use_code' (any other), 'assessment_ratio' (outside the ratio fences), 'duplicate' (a
 *  copy or the lower of two near copies); null for a kept sale. Its columns besides: `address` (the street line as
 *  written, upper case), `line_no` (its line in its file), `doc` (town, list year and serial: the GL extract's document
 *  number), and `lat`/`lng` (the GL extract's `Location` point, null without one and in the 2022 extract, which has no
 *  such column). */
export const CT_ROWS = `(
  with r as (select *, row_number() over (partition by filename) as line_no from ${CT_RATED}),
  c as (select "Town" as town, upper(trim("Address")) as a, strptime("Date Recorded", '%m/%d/%Y')::date as d, ${AMOUNT} as p,
          "Assessed Value" as av, ${TYPE} as type, case when filename like '%head9999%' then 'gl' else 'y2022' end as file, line_no,
          "Town" || ':' || coalesce(trim("List Year"), '') || ':' || trim("Serial Number") as doc,
          try_cast(regexp_extract("Location", 'POINT \\(([-0-9.]+) ([-0-9.]+)\\)', 2) as double) as lat,
          try_cast(regexp_extract("Location", 'POINT \\(([-0-9.]+) ([-0-9.]+)\\)', 1) as double) as lng,
          nullif(trim("Non Use Code"), '') as nuc, ratio_out,
          coalesce(trim("Non Use Code"), '') = '' and ${AMOUNT} >= 10000 and not ratio_out as clean
        from r where try_strptime("Date Recorded", '%m/%d/%Y') is not null and ${AMOUNT} >= 0 and ${TYPE} is not null),
  copies as (select *, row_number() over (partition by town, a, d, p order by clean desc, file = 'gl' desc, line_no desc) as k from c),
  near as (select *, max(case when k = 1 and clean then p end) over (partition by town, a, d, av, type) as mx from copies)
  select town, strftime(d, '%Y-%m') as month, d as day, p as price, type, file, a as address, line_no, doc, lat, lng,
         case when p < 10000 then 'nominal_price'
              when try_cast(regexp_extract(nuc, '^\\s*([0-9]+)', 1) as integer) in (1, 2, 3) then 'related_parties'
              when nuc is not null then 'non_use_code'
              when ratio_out then 'assessment_ratio'
              when k > 1 or (p < mx and mx - p <= 0.005 * mx) then 'duplicate' end as why
  from near)`;
/** The kept sales of CT_ROWS (`why` null). */
export const CT_SALES = `(select * exclude (why) from ${CT_ROWS} where why is null)`;
/** A subquery: the Connecticut sales the arm's-length rule keeps, as far as the raw files tell (market.md "Arm's-length
 *  rule"): $10,000 or more, no Non Use Code, not outside the ratio fences (CT_RATED), one copy of a sale recorded more
 *  than once (the same town, street line, day recorded and price, in either file, whatever the property type: the
 *  head-of-file GL extract's copy, else the later line of its file), and of two near copies (the same street line, day,
 *  assessment and type, prices within 0.5% of the higher) the higher price. Columns: town, month (YYYY-MM recorded), day
 *  (the date recorded), price, type (the adapters' types, `o_type`), file (`gl`: the GL extract; `y2022`: the 2022 extract, no Non Use Code column). */
export const CT_KEPT = `(select town, month, day, price, type, file from ${CT_SALES})`;

/** A town's kept sales of a type (CT_KEPT) by file and month recorded, in the months from `from` to `to` (YYYY-MM). */
export async function ctTownMonths(town: string, from: string, to: string, type?: string): Promise<{ file: 'gl' | 'y2022'; month: string; n: number }[]> {
  return rawQuery(`select file, month, count(*)::int as n from ${CT_KEPT}
    where town = '${town.replaceAll("'", "''")}' and month between '${from}' and '${to}'${type ? ` and type = '${type}'` : ''}
    group by all order by all`);
}

/** The whole state's kept sales of a type (CT_KEPT) recorded after `after` up to `to` (YYYY-MM-DD): count and median
 *  price (DuckDB's median: the mean of the middle two of an even count, as the build's windows). */
export async function ctStateWindow(type: string, after: string, to: string): Promise<{ n: number; median: number }> {
  const [r] = await rawQuery<{ n: number; median: number }>(`select count(*)::int as n, median(price)::double as median from ${CT_KEPT}
    where type = '${type}' and day > '${after}'::date and day <= '${to}'::date`);
  return r!;
}
