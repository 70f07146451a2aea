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
