// Connecticut's raw sales with market.md's sale-to-assessment ratio test written out again (warehouse/docs/market.md
// "Arm's-length rule", `assessment_ratio`), for the tests that recompute a Connecticut town's arm's-length sales from
// the two raw files: every raw column (all VARCHAR) and `filename`, plus `ratio_out`, true for a row whose Assessed
// Value / Sale Amount lies outside Q1 - 3 IQR .. Q3 + 3 IQR of its file and property type (the adapters' types: the
// 2022 file's "Residential" is single-family), the quartiles over the rows of $10,000 or more with an assessment and
// no Non Use Code, 30 or more. The build's own flags are never read.
import { dataFile } from './oracle-raw-comps.ts';

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
