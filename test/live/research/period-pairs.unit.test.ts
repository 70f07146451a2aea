// Periods compared with their year written once (live/research/period-pairs.ts), read by years.ts (pure): "march and
// june 2022" is March and June 2022 (it was all of 2022), "Q1 vs Q2 2022" Q1 and Q2 (it was Q2 alone), a range stays a
// range.
import { describe, expect, test } from 'vitest';
import { parseYears, type Years } from '../../../live/research/years.ts';

const key = (p: Years): string => p.month ?? p.months?.join('..') ?? `${p.from}..${p.to ?? ''}`;
const read = (q: string): string[] => { const y = parseYears(q); return y ? [y, ...y.also ?? []].map(key) : []; };

describe('periods compared with their year written once', () => {
  test.each([
    ['queens prices march and june 2022', ['2022-03', '2022-06']],
    ['brooklyn median sale price in march vs june 2023', ['2023-03', '2023-06']],
    ['98103 sales in jan and feb 2015', ['2015-01', '2015-02']],
    ['queens mar & jun 2022 prices', ['2022-03', '2022-06']],
    ['queens prices march, june 2022', ['2022-03', '2022-06']],
    ['queens prices march versus june, 2022', ['2022-03', '2022-06']],
    ['queens prices march compared to june of 2022', ['2022-03', '2022-06']],
    ['Q1 vs Q2 2022 queens prices', ['2022-01..2022-03', '2022-04..2022-06']],
    ['queens prices april vs may 2022', ['2022-04', '2022-05']],
    ['seattle home prices 2015 march and april', ['2015-03', '2015-04']],
    ['seattle median price march 2015 vs april', ['2015-03', '2015-04']],
    ['seattle prices jan, feb and mar 2015', ['2015-01', '2015-02', '2015-03']],
    ['queens median price febuary vs marhc 2022', ['2022-02', '2022-03']],
    ["seattle prices march & april '15", ['2015-03', '2015-04']],
    ['kirkland prices summer and fall 2014', ['2014-06..2014-08', '2014-09..2014-11']],
  ])('%s -> %j', (q, periods) => {
    expect(read(q)).toEqual(periods);
  });
  test.each([
    ['sales in queens between march and june 2022', ['2022-03..2022-06']],
    ['queens home prices from march to june 2022', ['2022-03..2022-06']],
    ['queens median price march-june 2022', ['2022-03..2022-06']],
    ['prices in march 2022 and may have risen', ['2022-03']],
    ['queens prices 2022', ['2022..2022']],
  ])('a range or one period stays one: %s', (q, periods) => {
    expect(read(q)).toEqual(periods);
  });
});
