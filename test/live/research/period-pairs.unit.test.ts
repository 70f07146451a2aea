// Periods compared with their year written once (live/research/period-pairs.ts) and a follow-up's period beside the
// context's (live/research/context-period.ts, context.period), read by years.ts (pure): "march and june 2022" is March
// and June 2022 (it was all of 2022), "Q1 vs Q2 2022" Q1 and Q2 (it was Q2 alone), a range stays a range; "compare to
// 2021" after 2022 is both (it was 2021 alone).
import { describe, expect, test } from 'vitest';
import { parseYears, type Years } from '../../../live/research/years.ts';
import { contextPeriods } from '../../../live/research/context-period.ts';
import type { Target } from '../../../live/research/places.ts';

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
    ['brooklyn prices march/june 2023', ['2023-03', '2023-06']],
    ['brooklyn prices march v june 2023', ['2023-03', '2023-06']],
    ['brooklyn prices in march and in june 2023', ['2023-03', '2023-06']],
    ['seattle 3rd and 4th quarter 2014', ['2014-07..2014-09', '2014-10..2014-12']],
    ['first and second half of 2014 seattle', ['2014-01..2014-06', '2014-07..2014-12']],
  ])('%s -> %j', (q, periods) => {
    expect(read(q)).toEqual(periods);
  });
  test.each([
    ['sales in queens between march and june 2022', ['2022-03..2022-06']],
    ['queens home prices from march to june 2022', ['2022-03..2022-06']],
    ['queens median price march-june 2022', ['2022-03..2022-06']],
    ['brooklyn march-to-june 2023', ['2023-03..2023-06']],
    ['how did brooklyn prices change between march and june 2023', ['2023-03..2023-06']],
    ['prices in march 2022 and may have risen', ['2022-03']],
    ['queens prices 2022', ['2022..2022']],
  ])('a range or one period stays one: %s', (q, periods) => {
    expect(read(q)).toEqual(periods);
  });
});

describe("a follow-up's period beside the context's (context.period)", () => {
  const queens: Target[] = [{ state: 'NY', city: 'Queens', from: 'context' }];
  const follow = (q: string, period?: string, targets = queens): { periods: string[]; said: string[] } => {
    const said: string[] = [];
    const y = contextPeriods(parseYears(q), period ? { city: 'Queens', state: 'NY', period } : { city: 'Queens', state: 'NY' }, q.toLowerCase(), said, targets);
    return { periods: y ? [y, ...y.also ?? []].map(key) : [], said };
  };
  test.each([
    ['compare to 2021', '2022', ['2022..2022', '2021..2021']],
    ['how about vs 2021', '2022', ['2022..2022', '2021..2021']],
    ['and compared with last year', '2022', ['2022..2022', '2021..2021']],
    ['how does it compare to the year before?', '2022', ['2022..2022', '2021..2021']],
    ['and vs a year earlier', 'March 2023', ['2023-03', '2022-03']],
    ['compared with june 2023?', 'March 2023', ['2023-03', '2023-06']],
    ['compare to q1 2021', 'Q1 2022', ['2022-01..2022-03', '2021-01..2021-03']],
    ['cmopare to 2021', '2022', ['2022..2022', '2021..2021']],
    ['how did it change since 2021', '2022', ['2022..2022', '2021..2021']],
    ['is that higher than 2021?', '2022', ['2022..2022', '2021..2021']],
    ['and the year before?', '2022', ['2022..2022', '2021..2021']],
  ])('"%s" {period %s}: both, the context\'s first', (q, period, periods) => {
    const r = follow(q, period);
    expect(r.periods).toEqual(periods);
    expect(r.said[0]).toMatch(/\(the context's period\) compared with/);
  });
  test('no comparison word, no period sent, a period not read, a place named: the question\'s own period, said why', () => {
    expect(follow('what about 2021?', '2022').periods).toEqual(['2021..2021']);
    const none = follow('compare to 2021');
    expect(none.periods).toEqual(['2021..2021']);
    expect(none.said).toEqual(['the follow-up as 2021 alone: no period of the earlier answer came with the question (context.period, e.g. "2022"), so no comparison with it is given']);
    expect(follow('compare to 2021', 'spring of 22').said[0]).toContain('context.period "spring of 22" is not one period we read');
    expect(follow('compare queens to 2021', '2022', [{ state: 'NY', city: 'Queens', from: 'query' }]).periods).toEqual(['2021..2021']);
    // "compared with last year" and no period sent: the 12-month change of year-ago.ts, no period here
    expect(follow('and compared with last year').periods).toEqual([]);
  });
});
