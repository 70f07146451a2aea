// Review 27's wording leftovers, over the shared real build on the suite's pinned day: (3) "mid 2014", "mid-2014",
// "the middle of 2015" were not read as a period (the whole year answered): now May to August of the year, said.
// Sales counted by the research oracle's arm's-length rule over the canonical tables (oracle-research-periods.ts),
// never the code's output.
import { describe, expect, it } from 'vitest';
import { writeWindows } from '../../../live/research/period-windows.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;

describe('review 27 #3: the middle of a year', () => {
  it('"home prices in 98103 mid 2014" (and "mid-2014", "the middle of 2014"): May to August 2014, said, counted as the raw sales', async () => {
    const s = await salesOf({ zip: '98103' }, 'sfr', '2014-05', '2014-08');
    for (const [q, said] of [['home prices in 98103 mid 2014', 'mid 2014'], ['median price 98103 mid-2014', 'mid-2014'], ['sales in 98103 in the middle of 2014', 'the middle of 2014']] as const) {
      const a = await ask(q);
      expect(a, q).toContain(`Reading "${said}" as May to August 2014`);
      expect(a, q).toContain(`In zip 98103 (Seattle, WA), from May to August 2014 there were ${s.n} arm's-length single-family sales (2014-05 to 2014-08)`);
    }
    expect(writeWindows('prices middle of 2015', [])).toBe('prices 2015-05..2015-08');
    expect(writeWindows('prices from mid 2014 to mid-2015', [])).toBe('prices from 2014-05..2014-08 to 2015-05..2015-08');
  });
});
