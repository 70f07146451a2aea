// The fifteenth research review's "answered something else" findings (r15b #11, #12, #9, #13), over the shared real
// build on the suite's pinned clock: a figure kept per city asked of zips is said to be the city's (no tie between
// zips). Expected figures are our own SQL over the raw files in ../shared/data and the canonical tables.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { investorOracle } from '../../helpers/oracle-research-market.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { LOUISVILLE_FILE } from '../../helpers/oracle-distress.ts';

const ask = askWithSalesOracle();

describe('a city-wide figure asked of zips', () => {
  it('"Compare investor activity in 19125, 19134 and 19146": Philadelphia\'s share, said city-wide, never "tied"', async () => {
    const rate = await investorOracle('PA', 'Philadelphia', 12);
    for (const q of ['Compare investor activity in 19125, 19134 and 19146', 'Compare 19125, 19134 and 19146']) {
      const r = await ask(q);
      for (const z of ['19125', '19134', '19146']) expect(r.answer, q).toContain(`zip ${z} (Philadelphia, PA) ${rate}% investor purchases (Philadelphia, PA as a whole)`);
      expect(r.answer, q).not.toMatch(/tied/);
    }
    expect((await ask('investor activity in 19125')).answer).toContain(`so zip 19125's figure is Philadelphia, PA's as a whole: in Philadelphia, PA, investors bought ${rate}% of the homes sold`);
  });
  it('"How many foreclosures in Louisville 40211?": the city\'s count, said to be the city\'s, not the zip\'s', async () => {
    // raw: 40211 has filings of its own (the reviewer: 98), which no figure of the build keeps apart
    const [z] = await rawQuery<{ n: number }>(`select count(distinct "Civil Case Number")::int as n from read_csv('${LOUISVILLE_FILE}', all_varchar = true) where "ZIP" like '40211%'`);
    expect(Number(z!.n)).toBeGreaterThan(0);
    const r = await ask('How many foreclosures in Louisville 40211?');
    expect(r.answer).toContain("kept per city, not per zip, so zip 40211's figure is Louisville, KY's as a whole: in Louisville, KY,");
  });
});
