// "permits in chicago", "chicago permits": a city's building permits are read as its zips' rehab momentum, the reading
// a zip's permits get ("permits in 60614"), summarised over the city's zips as research.md "Answers" documents for
// cities (how many zips, the lowest and highest with their scores, the middle zip); before, "I don't have data that
// answers this question". A rental permit stays a licensing question. Over the shared real build on the suite's
// pinned clock; the zips' scores are recomputed from the permits and raw ACS and HUD files (rehabOracle).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { rehabOracle } from '../../helpers/oracle-research-market.ts';

const ask = askWithSalesOracle();

describe("a city's permits are its zips' rehab momentum", () => {
  it('"permits in chicago", "chicago permits": the zips\' scores from building permits alone, lowest and highest as recomputed; not "rental permits"', async () => {
    for (const q of ['permits in chicago', 'chicago permits', 'building permits in Chicago']) {
      const r = (await ask(q)).answer;
      const m = /^Across (\d+) zips of Chicago, IL with a rehab momentum score \(from building permits alone[^)]*\), scores run from ([\d.]+) \(zip (\d{5})\) to ([\d.]+) \(zip (\d{5})\) \(out of 100\) over the 6 months to (\d{4}-\d{2}-\d{2})/.exec(r);
      expect(m, `${q}: ${r}`).not.toBeNull();
      expect(Number(m![1]), q).toBeGreaterThan(1);
      expect(Number(m![2]), q).toBe(await rehabOracle(m![3]!, 6));
      expect(Number(m![4]), q).toBe(await rehabOracle(m![5]!, 6));
    }
    expect((await ask('permits in nashville')).answer).toMatch(/^Across \d+ zips of Nashville, TN with a rehab momentum score \(from building permits alone/);
    // a rental permit is no building permit: no rehab figure
    expect((await ask('rental permits in chicago')).answer).not.toMatch(/rehab momentum score|Across \d+ zips/);
  });
});
