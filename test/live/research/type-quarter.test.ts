// The thirteenth research review's property type and quarter findings, over the shared real build on the suite's
// pinned clock: townhouses and rowhouses are single-family sales in these records (said), "two-family" and "2 to 4
// family" homes are the multi-family type, a quarter is its three months, and a year's low and high leave out a month
// not recorded whole. Expected figures are our own SQL over the raw files in ../shared/data and the canonical tables
// (oracle_arms: the arm's-length rule re-derived, oracle-research-market.ts).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const ask = askWithSalesOracle();
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const NYC_2023 = 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz';
const DENVER = 'denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz';

/** Arm's-length sales (oracle_arms) of one type from `from` to `to` (YYYY-MM, inclusive): a city's, a zip's, or a New
 *  York City borough's (its raw 2023-03..2024-02 file's BOROUGH: 4 Queens), with their median. */
async function salesOf(m: { st?: string; city?: string; zip?: string; borough?: number }, type: string, from: string, to: string): Promise<{ n: number; median: number | null }> {
  const raw = m.borough ? `, raw as (select row_number() over () + 1 as line, "BOROUGH" as b from read_csv('${dataFile(NYC_2023)}', all_varchar = true))` : '';
  const where = m.borough ? `s.source = 'nyc' and s.file like '%2023-03_2024-02%' and raw.b = '${m.borough}'` : m.zip ? `s.zip = '${m.zip}'` : `s.state_code = '${m.st}' and lower(s.city) = lower('${m.city}')`;
  const [r] = await sql<{ n: number; median: number | null }>(`with x as (select 1)${raw} select count(*)::int as n, quantile_cont(s.sale_price, 0.5) as median
    from oracle_arms s ${m.borough ? 'join raw on s.line = raw.line' : ''} where ${where} and s.property_type = $type and strftime(s.sale_date, '%Y-%m') between $from and $to`, { type, from, to });
  return { n: r!.n, median: r!.n >= 5 ? Number(r!.median) : null };
}

describe('property type words the sources do not keep apart', () => {
  it('"townhouse prices in denver" is single-family (Denver\'s CLASS H rowhouses are in it), said so, never condo', async () => {
    const [h] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile(DENVER)}', all_varchar = true) where "CLASS" = 'H'`);
    expect(Number(h!.n)).toBeGreaterThan(100);
    const may = await salesOf({ st: 'CO', city: 'Denver' }, 'sfr', '2019-05', '2019-05');
    for (const q of ['townhouse prices in denver', 'rowhouse prices denver']) {
      const r = await ask(q);
      expect(r.answer, q).toContain('townhouses are counted among single-family sales in these records');
      expect(r.answer, q).toContain(`the median single-family sale price was ${usd(may.median!)} in 2019-05 (${may.n.toLocaleString('en-US')} sales)`);
      expect(r.answer, q).not.toMatch(/condo/);
    }
  });
  it('"two family homes in queens", "2 to 4 family", "two-family house prices": the multi-family type, said', async () => {
    // raw: Queens' two- and three-family classes (02, 03) of 2024-02 are among its multi-family sales
    const [two] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile(NYC_2023)}', all_varchar = true)
      where "BOROUGH" = '4' and substr("BUILDING CLASS CATEGORY", 1, 2) in ('02', '03') and cast("SALE DATE" as date) >= date '2024-02-01'`);
    const multi = await salesOf({ borough: 4 }, 'multi', '2024-02', '2024-02');
    expect(Number(two!.n)).toBeGreaterThan(100);
    for (const q of ['two family homes in queens', '2 to 4 family homes in queens', '2-4 family home prices queens', 'three-family house prices in queens']) {
      const r = await ask(q);
      expect(r.answer, q).toContain(`the median multi-family sale price was ${usd(multi.median!)} in 2024-02 (${multi.n.toLocaleString('en-US')} sales)`);
      expect(r.answer, q).toMatch(/as multi-family: 2 to 4 family homes are counted with the other multi-family sales/);
    }
    expect((await ask('two-family house prices brooklyn')).answer).toMatch(/median multi-family sale price/);
  });
});

describe('a quarter is its three months', () => {
  it('Queens Q4 2023 (raw: 2023-10..2023-12), "fourth quarter of 2023", and 98103 in Q1 2015', async () => {
    const q4 = await salesOf({ borough: 4 }, 'sfr', '2023-10', '2023-12');
    expect(q4.n).toBeGreaterThan(1000);
    for (const q of ['median price in queens Q4 2023', 'median price in queens in the fourth quarter of 2023', 'queens home prices 2023 q4']) {
      const r = await ask(q);
      expect(r.answer, q).toContain(`in Q4 2023 there were ${q4.n.toLocaleString('en-US')} arm's-length single-family sales (2023-10 to 2023-12)`);
      expect(r.answer, q).not.toMatch(/in 2023 there were/);
    }
    const z = await salesOf({ zip: '98103' }, 'sfr', '2015-01', '2015-03');
    expect((await ask('98103 in Q1 2015')).answer).toContain(`in Q1 2015 there were ${z.n} arm's-length single-family sales (2015-01 to 2015-03)`);
  });
});

describe("a year's low and high leave out a month not recorded whole", () => {
  it('Denver 2019: its raw file ends 2019-07-09, so 2019-07 is no high; it is said to be partial', async () => {
    const [end] = await rawQuery<{ d: string }>(`select max(strptime("RECEPTION_DATE", '%Y%m%d'))::date::varchar as d from read_csv('${dataFile(DENVER)}', all_varchar = true)`);
    expect(end!.d.slice(0, 7)).toBe('2019-07');
    const r = await ask('median price denver co 2019');
    const hi = /to (\$[\d,]+) \((2019-\d\d)\)/.exec(r.answer);
    expect(hi, r.answer).not.toBeNull();
    expect(hi![2]).not.toBe('2019-07');
    const month = await salesOf({ st: 'CO', city: 'Denver' }, 'sfr', hi![2]!, hi![2]!);
    expect(hi![1]).toBe(usd(month.median!));
    const jul = await salesOf({ st: 'CO', city: 'Denver' }, 'sfr', '2019-07', '2019-07');
    // review 17: a month the file covers in part only has its count and no median (market.md "A month covered in part")
    expect(r.answer).toContain(`2019-07 (${jul.n} sales) is recorded in part only (a source file starts or ends inside the month, or holds a sliver of its sales): counted, with no median`);
  });
});
