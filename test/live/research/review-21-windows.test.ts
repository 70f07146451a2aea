// The twenty-first research review: a comps answer named the window "the 6 months to <its last comp's date>" while its
// figures run over the zip's window (to its last sale of any type: the comps shard's coverage.window_end; facts.ts
// windowEnd), and a neighbourhood or zip with 1-4 single-family sales answered only "too few" beside hundreds of
// condo sales (hood-types.ts). Over the shared real build on the suite's pinned clock; every figure recomputed here
// from the raw files (oracle_arms: the arm's-length rule re-derived over the canonical tables, oracle-research-market.ts;
// NYC's neighbourhood from the raw rolling-sales CSV by file and line).
import { describe, expect, it } from 'vitest';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The arm's-length sales of one zip, or of the NYC neighbourhood names given (the raw file's NEIGHBORHOOD). */
function salesOf(where: { zip: string } | { hoods: readonly string[] }): string {
  if ('zip' in where) return `(select * from oracle_arms where zip = '${where.zip}')`;
  const files = ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz'];
  const raw = files.map((f) => `select '${dataFile(`nyc-rolling-sales/${f}`)}' as file, row_number() over () + 1 as line, trim("NEIGHBORHOOD") as hood from read_csv('${dataFile(`nyc-rolling-sales/${f}`)}', all_varchar = true)`).join(' union all ');
  return `(select s.* from oracle_arms s join (${raw}) r on r.file = s.file and r.line = s.line where s.source = 'nyc' and r.hood in (${where.hoods.map((h) => `'${h}'`).join(', ')}))`;
}

/** Per kind, the count and median price of a place's sales over the `months` to its last sale of any type. */
async function kindsOf(where: { zip: string } | { hoods: readonly string[] }, months: number): Promise<{ end: string; of: (t: string) => { n: number; m: number | null } }> {
  const rows = await sql<{ t: string; n: number; m: number | null; e: string }>(`with s as ${salesOf(where)}, e as (select max(sale_date) as e from s)
    select property_type as t, count(*)::int as n, quantile_cont(sale_price, 0.5) as m, e.e::varchar as e from s, e
    where sale_date > e.e - to_months(${months}) and sale_date <= e.e group by all`);
  const end = rows[0]!.e;
  return { end, of: (t) => { const r = rows.find((x) => x.t === t); return { n: r?.n ?? 0, m: r && r.n >= 5 ? Number(r.m) : null }; } };
}

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

describe('a place with too few single-family sales gives its other kinds, each apart with its count (review 21)', () => {
  const kindClause = (where: string, kind: string, k: { n: number; m: number | null }, end: string, first: boolean): RegExp =>
    new RegExp(`${first ? `in ${esc(where)}, ` : '; '}the median of the ${k.n.toLocaleString('en-US')} arm's-length ${esc(kind)} sales in the 12 months to ${end}[^;]* was ${esc(usd(k.m!))}`);

  it('"median price in Washington Heights", "median price 10023": the single-family count said, then each kind with 5+ sales, its median and count', async () => {
    for (const [q, place, where] of [
      ['median price in Washington Heights', { hoods: ['WASHINGTON HEIGHTS LOWER', 'WASHINGTON HEIGHTS UPPER'] }, 'Washington Heights (Manhattan, New York, NY)'],
      ['median price 10023', { zip: '10023' }, 'zip 10023 (New York, NY)'],
    ] as const) {
      const k = await kindsOf(place, 12);
      const [sfr, condo, multi] = [k.of('sfr'), k.of('condo'), k.of('multi')];
      expect(sfr.n, q).toBeLessThan(5);
      expect(condo.n, q).toBeGreaterThanOrEqual(5);
      const r = await ask(q);
      // (a count of 1-4 said "fewer than 5": warehouse/docs/market.md "Minimum cohort", review 30)
      expect(r, q).toMatch(new RegExp(`In ${esc(where)}, ${sfr.n === 0 ? 'no' : 'fewer than 5'} arm's-length single-family sales fell in the 12 months to ${k.end}[^;]*, too few for a median sale price \\(5 needed\\), so its condo${multi.m !== null ? ' and multi-family' : ''} sales are given`));
      expect(r, q).toMatch(kindClause(where, 'condo', condo, k.end, true));
      // a kind with 5 or more sales is given apart, never mixed into one median; one with fewer is not given
      if (multi.m !== null) expect(r, q).toMatch(kindClause(where, 'multi-family', multi, k.end, false));
      else expect(r, q).not.toMatch(/multi-family sales in the 12 months/);
    }
  });

  it('a place with 5+ single-family sales keeps its single-family answer; a type named keeps that type; Tribeca (none in 24 months) as before', async () => {
    const astoria = await kindsOf({ hoods: ['ASTORIA'] }, 12);
    expect(astoria.of('sfr').n).toBeGreaterThanOrEqual(5);
    const r = await ask('median price in Astoria');
    expect(r).toContain(`In Astoria (Queens, New York, NY), the median of the ${astoria.of('sfr').n} arm's-length single-family sales in the 12 months to ${astoria.end} was ${usd(astoria.of('sfr').m!)}`);
    expect(r).not.toMatch(/condo sales|too few/);
    expect(await ask('single-family median price in Washington Heights')).toMatch(/fewer than 5 arm's-length single-family sales[^;]*too few for a median sale price/);
    expect(await ask('single-family median price in Washington Heights')).not.toMatch(/condo/);
    // places compared keep their single-family figures: a condo median never ranks against another's single-family one
    expect(await ask('median price 10023 vs 11236')).not.toMatch(/condo sales are given/);
    const tribeca = await kindsOf({ hoods: ['TRIBECA'] }, 12);
    expect(await ask('Tribeca median price')).toContain(`so its condo sales are given: in Tribeca (Manhattan, New York, NY), the median of the ${tribeca.of('condo').n} arm's-length condo sales in the 12 months to ${tribeca.end} was ${usd(tribeca.of('condo').m!)}`);
  });
});
