// Review 27's period phrases (period-windows.ts), over the shared real build on the suite's pinned day. (1) "the six
// months ending September 2024" counted September alone ("0 ... in September 2024"): now April to September 2024, the
// named month included, and "the year before June 2016" July 2015 to June 2016. (2) "the last half year" was not read
// as 6 months. (3) "from late 2014 to spring 2015" gave spring alone: now October to December 2014 against spring 2015.
// Permit counts re-counted from the raw Nashville file by the adapter's keep rules (oracle-raw-permits.ts); the sales
// window from the research oracle (oracle-research-market.ts), never the code's output.
import { describe, expect, it } from 'vitest';
import { writeWindows } from '../../../live/research/period-windows.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { NASHVILLE, NASHVILLE_KIND, permitCounts } from '../../helpers/oracle-raw-permits.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;

describe('review 27 #1: a window ending with a named month', () => {
  it('"rehab permits in 37204 in the six months ending September 2024": April to September 2024 counted, not September alone', async () => {
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, "zip = '37204' and strftime(d, '%Y-%m') between '2024-04' and '2024-09'");
    const n = c.of('renovation') + c.of('addition') + c.of('repair');
    expect(n).toBeGreaterThan(2);
    const a = await ask('residential rehab permits in 37204 in the six months ending September 2024');
    expect(a).toContain('"the six months ending September 2024" as April 2024 to September 2024 (the 6 months ending with September 2024, that month included)');
    expect(a).toContain(`permits were applied for from April to September 2024, of ${n} renovation/alteration, addition or repair permits of every use`);
    expect(a).not.toContain('in September 2024,');
    // the reviewer's words: "remodel" is the renovation/alteration kind (Nashville's "Rehab" applications)
    const remodel = await ask('residential remodel permits in 37204 in the six months ending September 2024');
    expect(remodel).toContain(`In zip 37204 (Nashville, TN), ${c.of('renovation')} residential renovation/alteration permit${c.of('renovation') === 1 ? ' was' : 's were'} applied for from April to September 2024`);
  });

  it('the other ways of saying it are read as the same months', () => {
    const read = (q: string): string => writeWindows(q, []);
    expect(read('permits in 37204 the 6 months to September 2024')).toBe('permits in 37204 from April 2024 to September 2024');
    expect(read('sales in 98103 12 months ending March 2015')).toBe('sales in 98103 from April 2014 to March 2015');
    expect(read('prices in Seattle the year before June 2016')).toBe('prices in Seattle from July 2015 to June 2016');
    expect(read('prices in Seattle from March to June 2016')).toBe('prices in Seattle from March to June 2016');
  });
});

describe('review 27 #2: a half year is 6 months', () => {
  it('"sales in South Ozone Park 11420 over the last half year": the 6-month window (and "sales" with a window alone is a sales question)', async () => {
    const w = await windowSalesOracle({ zip: '11420' }, 'sfr', 6);
    for (const q of ['sales in South Ozone Park 11420 over the last half year', 'home sales in South Ozone Park 11420 over the last half year']) {
      const a = await ask(q);
      expect(a).toContain('"last half year" as the last 6 months');
      expect(a).toContain(`the median of the ${w.n} arm's-length single-family sales in the 6 months to ${w.asOf} was $${w.median!.toLocaleString('en-US')}`);
    }
    expect(await ask('sales in 11420 over the last 6 months')).toContain(`the median of the ${w.n} arm's-length single-family sales in the 6 months to ${w.asOf}`);
    for (const q of ['sales over the past half-year', 'sales over half a year']) expect(writeWindows(q, [])).toMatch(/ 6 months$/);
  });
});

describe('review 27 #3: from one part of a year to another', () => {
  it('"did prices in Bellevue rise from late 2014 to spring 2015": both periods, their months said, and the change', async () => {
    const late = await salesOf({ st: 'WA', city: 'Bellevue' }, 'sfr', '2014-10', '2014-12');
    const spring = await salesOf({ st: 'WA', city: 'Bellevue' }, 'sfr', '2015-03', '2015-05');
    const a = await ask('did prices in Bellevue rise from late 2014 to spring 2015');
    expect(a).toContain('"late 2014" as October to December 2014');
    expect(a).toContain(`In Bellevue, WA, from October to December 2014 there were ${late.n} arm's-length single-family sales (2014-10 to 2014-12)`);
    expect(a).toContain(`In Bellevue, WA, in spring 2015 (March to May 2015) there were ${spring.n} arm's-length single-family sales (2015-03 to 2015-05)`);
    // the change of the sales; of the median, each period's last month recorded whole (review-27-words.test.ts)
    expect(a).toContain(`From October to December 2014 to spring 2015 (March to May 2015), arm's-length sales went from ${late.n} to ${spring.n}`);
    expect(a).toContain('a median over several months together is not kept, so each period\'s median is its last month recorded whole with one');
    expect(writeWindows('prices early 2015', [])).toBe('prices 2015-01..2015-03');
  });
});
