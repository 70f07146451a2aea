// The sixteenth research review's misreadings, over the shared real build on the suite's pinned clock: a month name
// next to a year is that month, never a place ("sales in may of 2014 in seattle", "2014 may median seattle" read the
// year, or no market topic, and "2014 May, Texas" read May, TX); a ranking of zips by a year's or a month's sales
// count or median (zip-years.ts). Expected figures are our own SQL over the canonical tables (oracle_arms: the
// arm's-length rule re-derived, oracle-research-market.ts).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';

const ask = askWithSalesOracle();
const usd = (v: number): string => `$${Math.round(v).toLocaleString('en-US')}`;

describe('a month name next to a year', () => {
  it('"sales in may of 2014 in seattle" and "2014 may median seattle" are Seattle\'s May 2014', async () => {
    const [m] = await sql<{ n: number; median: number }>(`select count(*)::int as n, quantile_cont(sale_price, 0.5) as median from oracle_arms
      where state_code = 'WA' and lower(city) = 'seattle' and property_type = 'sfr' and strftime(sale_date, '%Y-%m') = '2014-05'`);
    expect(m!.n).toBeGreaterThan(100);
    for (const q of ['sales in may of 2014 in seattle', '2014 may median seattle', 'Seattle 2014, May median price']) {
      const r = await ask(q);
      expect(r.answer, q).toContain(`In Seattle, WA, in May 2014 there were ${m!.n.toLocaleString('en-US')} arm's-length single-family sales, at a median sale price of ${usd(m!.median)}`);
      expect(r.answer, q).not.toMatch(/May, TX/);
    }
  });
  it('"sales 2014 May, Texas" reads no town of May', async () => {
    const r = await ask('home sales 2014 May, Texas');
    expect(r.answer).not.toMatch(/May, TX/);
  });
});

/** Per zip, the arm's-length sales of one type in the months `months` (YYYY-MM prefix match) kept as the trends keep
 *  them (5 or more sales in a month): the summed count and the middle of the months' medians, most sales first. */
async function zipMonths(where: string, type: string, monthLike: string): Promise<{ zip: string; n: number; mid: number }[]> {
  return sql<{ zip: string; n: number; mid: number }>(`
    with m as (select zip, strftime(sale_date, '%Y-%m') as month, count(*)::int as n, quantile_cont(sale_price, 0.5) as med
               from oracle_arms where ${where} and property_type = $type and zip is not null and strftime(sale_date, '%Y-%m') like $like group by all)
    select zip, sum(n)::int as n, median(med) as mid from m where n >= 5 group by zip order by n desc, zip`, { type, like: monthLike });
}

describe('zips ranked by a year\'s or a month\'s count or median', () => {
  it('"Which NYC zip had the most sales in 2023?": the zips by their 2023 single-family sales, the months the source covers said', async () => {
    const rows = await zipMonths("source = 'nyc'", 'sfr', '2023-%');
    const r = await ask('Which NYC zip had the most sales in 2023?');
    expect(r.answer).toContain('the data holds 10 months of 2023, 2023-03 to 2023-12');
    expect(r.answer).toContain('2023-01 to 2023-02 are not covered by the source');
    expect(r.answer).toContain(`1. zip ${rows[0]!.zip} (Staten Island) ${rows[0]!.n} sales; 2. zip ${rows[1]!.zip} (Staten Island) ${rows[1]!.n} sales`);
    expect(r.answer).toMatch(/zips of the \d+ \(none of those listed\) have months with fewer than 5 sales/);
  });
  it('"top 5 zips in Brooklyn by number of sales in 2022": Brooklyn\'s five, of 2022-01..03 (the file ends 2022-03)', async () => {
    const rows = await zipMonths("source = 'nyc' and split_part(parcel_id, '-', 1) = '3'", 'sfr', '2022-%');
    const r = await ask('top 5 zips in Brooklyn by number of sales in 2022');
    expect(r.answer).toContain('the data holds 3 months of 2022, 2022-01 to 2022-03');
    expect(r.answer).toContain(rows.slice(0, 5).map((x, i) => `${i + 1}. zip ${x.zip} ${x.n} sales`).join('; '));
  });
  it('"which Seattle zip had the highest median price in 2014" (and in June 2014): ranked by 2014\'s months, not the latest 12', async () => {
    const year = (await zipMonths("state_code = 'WA' and lower(city) = 'seattle'", 'sfr', '2014-%')).sort((a, b) => b.mid - a.mid);
    const r = await ask('which Seattle zip had the highest median price in 2014');
    expect(r.answer).toContain(`1. zip ${year[0]!.zip} ${usd(year[0]!.mid)} (${year[0]!.n} sales over 8 months)`);
    expect(r.answer).toContain('a median over a year\'s sales together is not kept');
    const june = (await zipMonths("state_code = 'WA' and lower(city) = 'seattle'", 'sfr', '2014-06')).sort((a, b) => b.mid - a.mid);
    const m = await ask('which Seattle zip had the highest median price in June 2014');
    expect(m.answer).toContain(`1. zip ${june[0]!.zip} ${usd(june[0]!.mid)} (${june[0]!.n} sales over 1 month)`);
  });
});
