// The twenty-first research review: a comps answer named the window "the 6 months to <its last comp's date>" while its
// figures run over the zip's window (to its last sale of any type: the comps shard's coverage.window_end; facts.ts
// windowEnd), and a neighbourhood or zip with 1-4 single-family sales answered only "too few" beside hundreds of
// condo sales (hood-types.ts). Over the shared real build on the suite's pinned clock; every figure recomputed here
// from the raw files (oracle_arms: the arm's-length rule re-derived over the canonical tables, oracle-research-market.ts;
// NYC's neighbourhood from the raw rolling-sales CSV by file and line).
import { describe, expect, it } from 'vitest';
import { sql } from '../../helpers/oracle-research.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
describe('a comps answer names the window its figures are computed over, not its last comp\'s date (review 21 #6)', () => {
  it('"Which zips in Staten Island, NY are the cheapest per square foot?": the count said equals the raw count over the months to the date said, the zip\'s last sale', async () => {
    for (const q of ['Which zips in Staten Island, NY are the cheapest per square foot?', 'Which zips in Seattle, WA are the cheapest per square foot?']) {
      const r = await ask(q);
      const m = /In zip (\d{5}) \([^)]*\), (\d+) single-family sales in the (\d+) months to (\d{4}-\d{2}-\d{2}) had a median \$([\d,]+) per sqft/.exec(r);
      expect(m, `${q}: ${r}`).not.toBeNull();
      const [, zip, n, months, end, median] = m!;
      const [w] = await sql<{ e: string; n: number; m: number; last: string }>(`with e as (select max(sale_date) as e from oracle_arms where zip = '${zip}')
        select e.e::varchar as e, count(*)::int as n, quantile_cont(sale_price / sqft, 0.5) as m, max(sale_date)::varchar as last
        from oracle_arms s, e where s.zip = '${zip}' and s.property_type = 'sfr' and s.sqft > 0 and s.sale_date > e.e - to_months(${months}) and s.sale_date <= e.e group by e.e`);
      // the window ends at the zip's last sale of any type, which the answer names (not the last comp's date)
      expect(end, q).toBe(w!.e);
      expect([Number(n), median], q).toEqual([w!.n, Math.round(w!.m).toLocaleString('en-US')]);
      // and over the months to the date said, the raw count is the count said (before: 10309's 75 sales said "to 2024-02-05")
      const [again] = await sql<{ n: number }>(`select count(*)::int as n from oracle_arms where zip = '${zip}' and property_type = 'sfr' and sqft > 0
        and sale_date > '${end}'::date - to_months(${months}) and sale_date <= '${end}'::date`);
      expect(again!.n, q).toBe(Number(n));
    }
  });
});
