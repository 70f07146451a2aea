// Periods besides calendar years (live/research/periods.ts, read by years.ts, pure): meteorological seasons, half
// years, a season counted back from the data's end, further periods of a comparison, and a month after its year.
import { describe, expect, test } from 'vitest';
import { parseMonths, parseYears } from '../../../live/research/years.ts';
import { resolveLast } from '../../../live/research/periods.ts';

describe('seasons and half years', () => {
  test.each([
    ['Kirkland home prices summer 2014', ['2014-06', '2014-08']],
    ['average sale price in 98118 winter 2014', ['2013-12', '2014-02']],
    ['median price in spring of 2022', ['2022-03', '2022-05']],
    ['seattle prices autumn 2014', ['2014-09', '2014-11']],
    ['denver median price H1 2019', ['2019-01', '2019-06']],
    ['denver median price first half of 2019', ['2019-01', '2019-06']],
    ['denver 2018 h2', ['2018-07', '2018-12']],
    ['bridgeport sales fall of 2022', ['2022-09', '2022-11']],
    ['denver prices summer in 2019', ['2019-06', '2019-08']],
  ])('%s -> %j', (q, months) => {
    expect(parseYears(q)?.months).toEqual(months);
  });
  test('"fall in <year>" is the verb: the year asked, no season (review r24: "Did Denver prices fall in 2019?" was read as fall 2019)', () => {
    for (const q of ['Did Denver prices fall in 2019?', 'did home prices in Bridgeport fall in 2022']) {
      const y = parseYears(q)!;
      expect(y.months).toBeUndefined();
      expect(y.label).toBe(q.includes('2019') ? '2019' : '2022');
    }
  });
  test('"last summer" is the last summer that ends by the data\'s last month', () => {
    const y = parseYears('brooklyn median price last summer')!;
    expect(y.last).toBe('summer');
    expect(resolveLast(y, '2024-02').months).toEqual(['2023-06', '2023-08']);
    expect(resolveLast(y, '2015-08').months).toEqual(['2015-06', '2015-08']);
    expect(resolveLast(parseYears('seattle last winter')!, '2015-05').months).toEqual(['2014-12', '2015-02']);
  });
});

describe('periods compared, and a month after its year', () => {
  test.each([
    ['How did Seattle prices in April 2015 compare to April 2014?', '2015-04', ['2014-04']],
    ['Sacramento home prices May 2008 vs April 2008', '2008-05', ['2008-04']],
    ['brooklyn median price Q1 2022 vs Q1 2023', '2022-01..2022-03', ['2023-01..2023-03']],
    ['seattle q2 2014 vs q2 2015', '2014-04..2014-06', ['2015-04..2015-06']],
  ])('%s', (q, first, more) => {
    const y = parseYears(q)!;
    const key = (p: { month?: string; months?: [string, string] }): string => p.month ?? p.months!.join('..');
    expect(key(y)).toBe(first);
    expect((y.also ?? []).map(key)).toEqual(more);
  });
  test('a span of months is no comparison; "2015 april" is April 2015; "2015 may have" is no month', () => {
    expect(parseYears('sales in queens between march and june 2022')).toEqual({ from: 2022, to: 2022, label: 'March to June 2022', months: ['2022-03', '2022-06'] });
    expect(parseYears('seattle, wa 98103 median price 2015 april')?.month).toBe('2015-04');
    expect(parseYears('prices in 2015 may have risen')?.month).toBeUndefined();
  });
});

describe('"last year" and "last yr"', () => {
  test('12 months to the data\'s latest sale, said for a market question only; "compared to last year" is no window said', () => {
    const said: string[] = [];
    expect(parseMonths('whats the avg sale in philly last yr', said).months).toBe(12);
    expect(said).toEqual(['"last yr" as the 12 months to the latest sale of each place\'s data, not the calendar year before today (the sources end years before it)']);
    const legal: string[] = [];
    parseMonths('did oregon rent control change last year', legal);
    const compared: string[] = [];
    parseMonths('denver median price compared to last year', compared);
    expect([...legal, ...compared]).toEqual([]);
  });
});

describe('a window of days', () => {
  test('read in whole months and said; under the shortest window kept, none (review r24: "last 90 days" was the default 6 months)', () => {
    const said: string[] = [];
    expect(parseMonths('37216 rehab permits in the last 90 days', said).months).toBe(3);
    expect(parseMonths('median price in brooklyn over the past 365 days', said).months).toBe(12);
    expect(said).toEqual(['"last 90 days" as the last 3 months (windows are kept in whole months)', '"past 365 days" as the last 12 months (windows are kept in whole months)']);
    const short: string[] = [];
    expect(parseMonths('comps 98103 last 45 days', short).months).toBeNull();
    expect(short[0]).toMatch(/^"last 45 days" without its window: .*kept for windows of 3 to 24 months/);
    const legal: string[] = [];
    expect(parseMonths('how many days notice to evict in texas', legal)).toEqual({ months: null, span: null, text: null });
    expect(legal).toEqual([]);
  });
});
