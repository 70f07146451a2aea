// A follow-up and the earlier answer's period (context.period, warehouse/docs/research.md "Years"): a follow-up naming
// a place and no period of its own ("and in 98103?", "what about Brooklyn") is that place's sale prices of the
// context's period, said (before: its latest month, the period dropped); a follow-up that only names a period
// ("compare to 2021") is that period's sale prices alone (before: an investor-activity sentence nobody asked for, as if
// "compare ..." opened a market overview). Over the shared real build on the suite's pinned clock; expected figures
// are our own SQL over the canonical tables and raw files (oracle-research-periods.ts: a borough by the raw BOROUGH).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';

askWithSalesOracle(); // opens the oracle for the file
const followUp = (query: string, context: Record<string, string>) => new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick', context });
const count = (n: number): string => n.toLocaleString('en-US');
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

describe("a follow-up with no period of its own takes the context's period", () => {
  it('"what about Brooklyn", "Brooklyn?" {Queens, 2022}: Brooklyn\'s 2022 sales, said (was its latest month, 2024-02)', async () => {
    const y = await salesOf({ borough: 3 }, 'sfr', '2022-01', '2022-12');
    expect(y.n).toBeGreaterThan(0);
    for (const q of ['what about Brooklyn', 'Brooklyn?', 'and in brooklyn?']) {
      const r = (await followUp(q, { city: 'Queens', state: 'NY', period: '2022' })).answer;
      expect(r, q).toContain('the follow-up as the sale prices of Brooklyn (New York, NY) for 2022, as in your previous question');
      expect(r, q).toContain(`In Brooklyn, NY, in 2022 there were ${count(y.n)} arm's-length single-family sales`);
      expect(r, q).not.toMatch(/investor/i);
    }
  });
  it('"and in 98103?", "what about 98103" {98117, March 2015}: 98103\'s March 2015 count and median (was "I don\'t have data")', async () => {
    const m = await salesOf({ zip: '98103' }, 'sfr', '2015-03', '2015-03');
    for (const q of ['and in 98103?', 'what about 98103', 'and the median price in 98103?']) {
      const r = (await followUp(q, { zip: '98117', state: 'WA', period: 'March 2015' })).answer;
      expect(r, q).toContain('the follow-up as the sale prices of zip 98103 for March 2015, as in your previous question');
      expect(r, q).toContain(`In zip 98103 (Seattle, WA), in March 2015 there were ${m.n} arm's-length single-family sales, at a median sale price of ${usd(m.median!)}`);
    }
  });
  it('a question of its own is not a follow-up: "median price in Brooklyn", rehab, price per sqft keep their latest figures', async () => {
    for (const q of ['median price in Brooklyn', 'what about rehab in Brooklyn', 'and price per sqft in 98103?', 'and in 98103 over the last 6 months?', 'tell me about Brooklyn']) {
      const r = (await followUp(q, { city: 'Queens', state: 'NY', period: '2022' })).answer;
      expect(r, q).not.toContain('as in your previous question');
      expect(r, q).not.toMatch(/\bin 2022 there were\b/);
    }
  });
});

describe('a follow-up naming a period answers only the sale prices asked', () => {
  it('"compare to 2021", "how about vs 2021", "what about 2021?" {Queens, 2022}: no investor-activity sentence', async () => {
    const y21 = await salesOf({ borough: 4 }, 'sfr', '2021-01', '2021-12');
    for (const q of ['compare to 2021', 'how about vs 2021', 'what about 2021?']) {
      const r = await followUp(q, { city: 'Queens', state: 'NY', period: '2022' });
      expect(r.answer, q).toContain(`In Queens, NY, in 2021 there were ${count(y21.n)} arm's-length single-family sales`);
      expect(r.answer, q).not.toMatch(/investor/i);
      expect(r.sources.map((s) => s.type), q).not.toContain('investor');
    }
  });
});

describe('"last year" named alone is the context\'s period a year back (review 19: "I don\'t have data")', () => {
  it('"and last year?", "what about last year?" {Brooklyn, 2023}: Brooklyn\'s 2022 sales alone, said; "compare to last year" still compares', async () => {
    const y22 = await salesOf({ borough: 3 }, 'sfr', '2022-01', '2022-12');
    expect(y22.n).toBeGreaterThan(0);
    for (const q of ['and last year?', 'what about last year?']) {
      const r = (await followUp(q, { city: 'Brooklyn', state: 'NY', period: '2023' })).answer;
      expect(r, q).toMatch(/^Reading "last year" as 2022 \(a year before the context's period, 2023\)/);
      expect(r, q).toContain(`In Brooklyn, NY, in 2022 there were ${count(y22.n)} arm's-length single-family sales`);
      expect(r, q).not.toMatch(/in 2023 there were/);
    }
    const both = (await followUp('compare to last year', { city: 'Brooklyn', state: 'NY', period: '2023' })).answer;
    expect(both).toContain('2023 (the context\'s period) compared with 2022');
  });
});
