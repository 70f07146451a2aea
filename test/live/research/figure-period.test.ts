// Session 26: a compared figure carries its period as data (Fact.period, live/research/figure-period.ts) from where it
// is made, and like-for-like.ts compares that, never the value's words (before, a regex read "(3 months to 2022-09)"
// back out of the value, so a value worded otherwise was ranked blind, and words that looked like a period were read
// as one). Real answers keep the review-25 and review-26 wording (review-25-ct.test.ts, review-26-periods.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResearchData } from '../../../live/research/data.ts';
import type { Fact } from '../../../live/research/facts.ts';
import { likeForLike } from '../../../live/research/like-for-like.ts';
import { changePeriod } from '../../../live/research/figure-period.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let data: ResearchData;
beforeAll(() => { data = researchData(); });

const A = { state: 'CT', city: 'Stamford', from: 'query' as const };
const B = { state: 'CT', city: 'Norwalk', from: 'query' as const };
const fact = (t: typeof A, value: string, period?: Fact['period']): Fact => ({ intent: 'trends', target: t, value, sentence: value, detail: [], source: null, confidence: 'medium', primary: true, uncertain: null, ...(period ? { period } : {}) });

describe('like for like reads the period a figure carries', () => {
  it('two changes over different months are not ranked, whatever their values say', () => {
    const r = likeForLike(data, [A, B], [fact(A, '-11.3%', changePeriod(3, '2022-09')), fact(B, '-6.4%', changePeriod(3, '2022-08'))]);
    expect(r.rank).toBe(false);
    expect(r.note).toContain('these figures are of different periods, the 3 months to 2022-09 and the 3 months to 2022-08');
  });
  it('a value that reads like a period but carries none is no period', () => {
    const r = likeForLike(data, [A, B], [fact(A, '+1% (3 months to 2022-09)'), fact(B, '+2% (12 months to 2022-08)')]);
    expect(r).toEqual({ rank: true, note: '' });
  });
  it('the figures of a real comparison carry their period and cover', async () => {
    const engine = new ResearchEngine(data, null, PINNED_TODAY);
    const { facts } = await engine.draft({ query: 'Hartford vs Bridgeport home prices over the last 6 months', depth: 'quick' });
    const periods = facts.filter((f) => f.primary && f.period).map((f) => f.period);
    expect(periods.length).toBe(2);
    for (const p of periods) expect(p).toMatchObject({ kind: 'window', months: 6, end: '2023-09', cover: 'part' });
  });
});
