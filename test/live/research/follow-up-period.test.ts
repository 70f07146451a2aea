// A follow-up and the earlier answer's period (context.period, warehouse/docs/research.md "Years"): a follow-up that
// only names a period ("compare to 2021") is that period's sale prices alone (before: an investor-activity sentence
// nobody asked for, as if "compare ..." opened a market overview). Over the shared real build on the suite's pinned clock; expected figures
// are our own SQL over the canonical tables and raw files (oracle-research-periods.ts: a borough by the raw BOROUGH).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';

askWithSalesOracle(); // opens the oracle for the file
const followUp = (query: string, context: Record<string, string>) => new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick', context });
const count = (n: number): string => n.toLocaleString('en-US');

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
