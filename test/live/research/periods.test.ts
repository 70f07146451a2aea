// Review r16b's period findings (B5-B9, A1), over the shared real build on the suite's pinned clock: the data's range is
// its source's months (months of 1-4 sales are said as such, never "outside the data"), seasons and half years are their
// months (meteorological seasons, said), months and quarters compared are each answered, and a month named after its
// year is that month. Expected figures are our own SQL over the raw files in ../shared/data and the canonical tables
// (oracle_arms: the arm's-length rule re-derived, oracle-research-market.ts).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const ask = askWithSalesOracle();
const count = (n: number): string => n.toLocaleString('en-US');
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

describe("the data's range is its source's months", () => {
  it('11215 in 2023: the raw 2023-03..2024-02 file has its sales, 1-4 a month, said as months under 5, not "outside the data"', async () => {
    const z = await salesOf({ zip: '11215' }, 'sfr', '2023-01', '2023-12');
    expect(z.n).toBeGreaterThan(0);
    expect(z.most).toBeLessThan(5);
    for (const q of ['median sale price 11215 in 2023', 'median price 11215 2023']) {
      const r = await ask(q);
      expect(r.answer, q).not.toMatch(/outside the data|run from 2021/);
      expect(r.answer, q).toContain("in 2023: the data holds its months 2023-03 to 2023-12, but each had fewer than 5 arm's-length single-family sales, and months with fewer than 5 sales are left out");
      // the months the trends say the two files cover whole (coverage.ts: the trends' own flags and words)
      expect(r.answer, q).toContain('the source files cover 2021-04 to 2022-03 and 2023-03 to 2024-02 of the 60 months to 2024-02');
    }
    const june = await salesOf({ zip: '11215' }, 'sfr', '2023-06', '2023-06');
    expect(june.n).toBeLessThan(5);
    const r = await ask('median price 11215 june 2023');
    expect(r.answer).toContain('in June 2023: the month had fewer than 5 arm');
    expect(r.answer).not.toMatch(/outside the data/);
  });
});

describe('seasons and half years are their months', () => {
  it('Kirkland summer 2014 is 2014-06..08; Denver H1 2019 and "first half of 2019" are 2019-01..06', async () => {
    const k = await salesOf({ st: 'WA', city: 'Kirkland' }, 'sfr', '2014-06', '2014-08');
    expect((await ask('Kirkland home prices summer 2014')).answer).toContain(`in summer 2014 (June to August 2014) there were ${count(k.n)} arm's-length single-family sales (2014-06 to 2014-08)`);
    const d = await salesOf({ st: 'CO', city: 'Denver' }, 'sfr', '2019-01', '2019-06');
    for (const q of ['denver median price H1 2019', 'denver median price first half of 2019']) {
      expect((await ask(q)).answer, q).toContain(`in the first half of 2019 (January to June) there were ${count(d.n)} arm's-length single-family sales (2019-01 to 2019-06)`);
    }
  });
  it('winter 2014 is December 2013 to February 2014, before the King County file (said); spring 2022 in Philadelphia its months', async () => {
    const w = await salesOf({ zip: '98118' }, 'sfr', '2013-12', '2014-02');
    expect(w.n).toBe(0);
    const r = await ask('average sale price in 98118 winter 2014');
    // the months the King County file covers whole, as the trends say them: its last sale is 2015-05-27, so 2015-05 is
    // covered in part only (before, the vintage "2014-05..2015-05" was said)
    const [kc] = await rawQuery<{ first: string; last: string }>(`select min(strptime(left(date, 8), '%Y%m%d'))::date::varchar as first, max(strptime(left(date, 8), '%Y%m%d'))::date::varchar as last
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    expect([kc!.first, kc!.last]).toEqual(['2014-05-02', '2015-05-27']);
    expect(r.answer).toContain('in winter 2014 (December 2013 to February 2014): the source files cover 2014-05 to 2015-04 of the 60 months to 2015-05; 2015-05 in part only, so winter 2014 (December 2013 to February 2014) is outside the data');
    const p = await ask('philadelphia median price in spring 2022');
    expect(p.answer).toContain('in spring 2022 (March to May 2022) there were');
    expect(p.answer).toContain('2022-03 to 2022-04 here');
  });
  it('"last summer" of Brooklyn is summer 2023, the last before its data ends (2024-02); Seattle\'s "last spring" spring 2015', async () => {
    const b = await salesOf({ borough: 3 }, 'sfr', '2023-06', '2023-08');
    expect(b.n).toBeGreaterThan(100);
    expect((await ask('brooklyn median price last summer')).answer).toContain(`in summer 2023 (June to August 2023: "last summer" read as the last summer before the data of the place ends, in 2024-02) there were ${count(b.n)} arm's-length single-family sales`);
    const s = await salesOf({ st: 'WA', city: 'Seattle' }, 'sfr', '2015-03', '2015-05');
    // a county's zips: the last spring before the latest sale of the King County file (raw, oracle_arms)
    const [kc] = await sql<{ end: string }>(`select strftime(max(sale_date), '%Y-%m') as end from oracle_arms where state_code = 'WA' and zip like '98%'`);
    const county = (await ask('king county median price last spring')).answer;
    expect(county).toContain(`had arm's-length single-family sales in spring ${kc!.end.slice(0, 4)} (March to May ${kc!.end.slice(0, 4)}: "last spring" read as the last spring before the data of the place ends, in ${kc!.end})`);
    expect(county).not.toMatch(/outside the data/);
    expect((await ask('seattle median price last spring')).answer).toContain(`in spring 2015 (March to May 2015: "last spring" read as the last spring before the data of the place ends, in 2015-05) there were ${count(s.n)} arm's-length`);
  });
});

describe('months and quarters compared are each answered', () => {
  it('Sacramento May 2008 vs April 2008: May\'s count (one week of it: no median, review 17), and April before the file, said', async () => {
    const may = await salesOf({ st: 'CA', city: 'Sacramento' }, 'sfr', '2008-05', '2008-05');
    const apr = await salesOf({ st: 'CA', city: 'Sacramento' }, 'sfr', '2008-04', '2008-04');
    expect(apr.n).toBe(0);
    const r = await ask('Sacramento home prices May 2008 vs April 2008');
    // the oracle keeps one copy of a duplicate pair of 2008-05 whose both copies the build flags is_duplicate (401 / 400)
    // the file holds one week of May 2008: a month recorded in part only has its count and no median (market.md "A month covered in part")
    const said = /May 2008 is a partial month in this data: (\d+) arm's-length single-family sales recorded in it \(the month is recorded in part only/.exec(r.answer);
    expect(said, r.answer).not.toBeNull();
    expect(Number(said![1])).toBeGreaterThanOrEqual(may.n - 1);
    expect(Number(said![1])).toBeLessThanOrEqual(may.n);
    expect(r.answer).not.toMatch(/May 2008 there were \d+ arm's-length single-family sales, at a median/);
    expect(r.answer).toContain('in April 2008: no file of the source covers that month');
  });
  it('Seattle April 2015 vs April 2014, 98103 May 2014 vs May 2015, Brooklyn Q1 2022 vs Q1 2023', async () => {
    const a15 = await salesOf({ st: 'WA', city: 'Seattle' }, 'sfr', '2015-04', '2015-04');
    const r = await ask('How did Seattle prices in April 2015 compare to April 2014?');
    expect(r.answer).toContain(`in April 2015 there were ${a15.n} arm's-length`);
    expect(r.answer).toContain('in April 2014: no file of the source covers that month');
    const m14 = await salesOf({ zip: '98103' }, 'sfr', '2014-05', '2014-05'), m15 = await salesOf({ zip: '98103' }, 'sfr', '2015-05', '2015-05');
    const z = (await ask('how many sales in 98103 in may 2014 vs may 2015')).answer;
    expect(z).toContain(`in May 2014 there were ${m14.n} arm's-length`);
    expect(z).toContain(`May 2015 is a partial month in this data: ${m15.n} arm's-length`); // the file ends 2015-05-27
    const q22 = await salesOf({ borough: 3 }, 'sfr', '2022-01', '2022-03'), q23 = await salesOf({ borough: 3 }, 'sfr', '2023-01', '2023-03');
    const b = (await ask('brooklyn median price Q1 2022 vs Q1 2023')).answer;
    expect(b).toContain(`in Q1 2022 there were ${q22.n} arm's-length single-family sales (2022-01 to 2022-03)`);
    expect(b).toContain(`in Q1 2023 there were ${q23.n} arm's-length single-family sales (the data holds 1 month of Q1 2023, 2023-03)`);
  });
});

describe('a month named after its year', () => {
  it('"seattle, wa 98103 median price 2015 april" is April 2015, not all of 2015', async () => {
    const a = await salesOf({ zip: '98103' }, 'sfr', '2015-04', '2015-04');
    const r = await ask('seattle, wa 98103 median price 2015 april');
    expect(r.answer).toContain(`in April 2015 there were ${a.n} arm's-length single-family sales, at a median sale price of ${usd(a.median!)}`);
  });
});
