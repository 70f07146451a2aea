// Arm's-length sales of a period of months, for the research period tests (periods.test.ts, period-pairs.test.ts):
// our own SQL over the canonical tables (oracle_arms: the arm's-length rule re-derived, oracle-research-market.ts), a
// New York City borough read from the raw rolling-sales files' BOROUGH column (1 Manhattan, 3 Brooklyn, 4 Queens).
import { sql } from './oracle-research.ts';
import { dataFile } from './oracle-raw-comps.ts';

const NYC = (f: string): string => `nyc-rolling-sales/nyc_rolling_sales_${f}.csv.gz`;

/** Arm's-length sales (oracle_arms) of one type from `from` to `to` (YYYY-MM, inclusive), with their median (5 or
 *  more), the most of any one month and the months with 5 or more (the months a monthly series keeps a count of): a
 *  city's, a zip's, or a New York City borough's. */
export async function salesOf(m: { st?: string; city?: string; zip?: string; borough?: number }, type: string, from: string, to: string): Promise<{ n: number; median: number | null; most: number; months5: number; n5: number }> {
  const raw = m.borough ? `, raw as (select '${NYC('2021-04_2022-03')}' as f, row_number() over () + 1 as line, "BOROUGH" as b from read_csv('${dataFile(NYC('2021-04_2022-03'))}', all_varchar = true)
    union all select '${NYC('2023-03_2024-02')}', row_number() over () + 1, "BOROUGH" from read_csv('${dataFile(NYC('2023-03_2024-02'))}', all_varchar = true))` : '';
  const where = m.borough ? `s.source = 'nyc' and raw.b = '${m.borough}'` : m.zip ? `s.zip = '${m.zip}'` : `s.state_code = '${m.st}' and lower(s.city) = lower('${m.city}')`;
  const join = m.borough ? `join raw on s.line = raw.line and s.file like '%' || raw.f || '%'` : '';
  const [r] = await sql<{ n: number; median: number | null; most: number | null; months5: number; n5: number | null }>(`with x as (select 1)${raw}, s as (select s.* from oracle_arms s ${join}
    where ${where} and s.property_type = $type and strftime(s.sale_date, '%Y-%m') between $from and $to),
    k as (select count(*) as k from s group by strftime(sale_date, '%Y-%m'))
    select (select count(*) from s)::int as n, (select quantile_cont(sale_price, 0.5) from s) as median,
      (select max(k) from k)::int as most, (select count(*) from k where k >= 5)::int as months5, (select sum(k) from k where k >= 5)::int as n5`, { type, from, to });
  return { n: r!.n, median: r!.n >= 5 ? Number(r!.median) : null, most: r!.most ?? 0, months5: r!.months5, n5: r!.n5 ?? 0 };
}
