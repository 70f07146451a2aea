// Two answer faults a stranger's market showed (h75unseen, Sacramento, whose one file spans a week of 2008-05): a count
// of 1-4 sales with a living area was said as its number ("only 4 of them have a living area"), against the minimum
// cohort, and a market whose months are all held in part only read "the source files cover none of the 60 months",
// denying the sales just counted. Figures from the research oracle's arm's-length sales (oracle_arms).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { sql } from '../../helpers/oracle-research.ts';

const ask = askWithSalesOracle();

describe('an unseen market: minimum cohort and partial months in the words', () => {
  it('a zip whose 6-month sales have 1-4 living areas says "fewer than 5", never the count', async () => {
    // every Sacramento zip whose 6-month single-family window holds 5+ sales, 1-4 of them with an area
    const zips = await sql<{ zip: string }>(`select distinct zip from oracle_arms where state_code = 'CA' and zip is not null order by zip`);
    const thin: { zip: string; a: number }[] = [];
    for (const { zip } of zips) {
      const w = await windowSalesOracle({ zip }, 'sfr', 6);
      if (w.n >= 5 && w.withArea >= 1 && w.withArea <= 4) thin.push({ zip, a: w.withArea });
    }
    expect(thin.length).toBeGreaterThan(0);
    for (const { zip, a } of thin) {
      const answer = (await ask(`${zip} price per square foot`)).answer;
      expect(answer, zip).toContain('but fewer than 5 of them have a living area in the source, so there is no price per sqft');
      expect(answer, zip).not.toContain(`only ${a} of them`);
    }
  });

  it('a market held in part only says its files cover no month whole, not none', async () => {
    const answer = (await ask('95693 price per square foot')).answer;
    expect(answer).toContain('the source files cover none of the 60 months to 2008-05 whole');
    expect(answer).not.toMatch(/cover none of the 60 months to 2008-05\)/);
  });
});
