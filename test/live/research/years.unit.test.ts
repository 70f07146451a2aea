// The time a research question asks (live/research/years.ts, pure): a named month, a range starting at a month, and
// the window of months asked against the windows kept (3-24) and the monthly series (60). Rules: warehouse/docs/research.md.
import { describe, expect, test } from 'vitest';
import { parseMonths, parseYears } from '../../../live/research/years.ts';

describe('a named month with its year', () => {
  test.each([
    ['median sale price in seattle in march 2015', '2015-03', 'March 2015'],
    ['how many sales in queens in Mar. 2022', '2022-03', 'March 2022'],
    ['queens sales 2022-03', '2022-03', 'March 2022'],
    ['prices in september of 2023 in 06830', '2023-09', 'September 2023'],
  ])('%s -> %s', (q, month, label) => {
    expect(parseYears(q)).toEqual({ from: Number(month.slice(0, 4)), to: Number(month.slice(0, 4)), label, month });
  });
  test('a range from a month is the months since it, not one month; a date is its month, said', () => {
    expect(parseYears('price trend since March 2020 in denver')).toEqual({ from: 2020, to: null, label: 'since March 2020', since: '2020-03' });
    expect(parseYears('price trend since 2020 in denver')).toEqual({ from: 2020, to: null, label: 'since 2020' });
    expect(parseYears('from 2019-2021')).toEqual({ from: 2019, to: 2021, label: '2019 to 2021' });
    // a date with its day is its month, said (sales are counted by month); a day the month lacks is said so
    expect(parseYears('sold on 2022-03-15 in queens')).toMatchObject({ month: '2022-03', said: '"2022-03-15" as March 2022: sales are counted by month, not by day' });
    expect(parseYears('sold on february 30 2015')).toMatchObject({ month: '2015-02', said: '"february 30 2015" as February 2015: February 2015 has no day 30 (it has 28 days), so the date is no date; sales are counted by month' });
  });
});

describe('a span of named months with its year', () => {
  test.each([
    ['median sale price in Queens from March to June 2022', ['2022-03', '2022-06'], 'March to June 2022', 2022],
    ['median sale price in Queens March-June 2022', ['2022-03', '2022-06'], 'March to June 2022', 2022],
    ['sales in queens between march and june 2022', ['2022-03', '2022-06'], 'March to June 2022', 2022],
    ['seattle prices from nov 2014 to feb 2015', ['2014-11', '2015-02'], 'November 2014 to February 2015', 2014],
    ['seattle prices from november to february 2015', ['2014-11', '2015-02'], 'November 2014 to February 2015', 2014],
  ])('%s', (q, months, label, from) => {
    expect(parseYears(q)).toEqual({ from, to: Number(months[1]!.slice(0, 4)), label, months });
  });
  test('two months joined by "and" without "between" are no span; a month range keeps its month', () => {
    expect(parseYears('queens prices march and june 2022')?.months).toBeUndefined();
    expect(parseYears('in March 2022')).toMatchObject({ month: '2022-03' });
  });
});

describe('the window of months asked', () => {
  test('3-24 months are windows kept; 25-60 a span of the monthly series; beyond, said', () => {
    expect(parseMonths('median price in denver over 2 years')).toMatchObject({ months: 24, span: null });
    expect(parseMonths('prices in the past two years')).toMatchObject({ months: 24, span: null });
    expect(parseMonths('median price over the last 36 months')).toMatchObject({ months: null, span: 36 });
    expect(parseMonths('prices over 3 years')).toMatchObject({ months: null, span: 36 });
    const readAs: string[] = [];
    expect(parseMonths('prices over the last 10 years', readAs)).toMatchObject({ months: null, span: null });
    expect(readAs).toEqual(['"over the last 10 years" without its window: sale counts, medians over a window, price per sqft, rehab and investor figures are kept for windows of 3 to 24 months, the monthly price series (its index change) for 60, and each figure below names its own']);
  });
});
