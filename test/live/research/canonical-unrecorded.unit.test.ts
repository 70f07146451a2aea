// A rehab answer over canonical permits whose building use permits.csv does not record (review 22): the rehab shard's
// note says commercial work may be counted (pipelines/marts/30_mart_rehab.sql), and the research answer says it too,
// in its sentence (a quick answer shows no detail); a score whose permits record their use reads as before.
import { describe, expect, it } from 'vitest';
import { rehabFact } from '../../../live/research/rehab-facts.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import type { Understanding } from '../../../live/research/intent.ts';
import type { Target } from '../../../live/research/places.ts';

const CLAUSE = "50 of the window's 50 residential rehab permits do not record the building's use (permits.csv gives no building_use): each is counted when its declared cost is $500,000 or less, so commercial work may be counted";
const shard = (note: string | null) => ({ zip_code: '37206', city: 'Nashville', state: 'TN', rehab_momentum_score: 61.2, label: 'Hot', trend: 'up', trend_pct: 12,
  confidence: 'medium', as_of: '2024-09-19', note });
const data = (note: string | null): ResearchData => ({ shard: async () => shard(note), hasFamily: async () => true, market: null }) as unknown as ResearchData;
const u = { months: 12, asks: [], ranking: null, targets: [] } as unknown as Understanding;
const t: Target = { state: 'TN', zip: '37206' } as Target;

describe('rehab answer: permits with no recorded building use', () => {
  it("says the note's clause in its sentence", async () => {
    const f = await rehabFact(data(`Nashville-like records; ${CLAUSE}`), u, t, '37206', true);
    expect(f.sentence).toMatch(new RegExp(`on the 30 days before; ${CLAUSE.replace(/[()$.]/g, '\\$&')}$`));
  });
  it('a note without it: the sentence as before', async () => {
    const f = await rehabFact(data(null), u, t, '37206', true);
    expect(f.sentence).toMatch(/on the 30 days before$/);
  });
});

// The same for a distress count over filings whose records give no case outcome (a distress.csv without closed_date):
// mart_investor's note says so (pipelines/marts/30_mart_investor.sql), and the investor answer's sentence repeats it.
describe('investor answer: filings with no recorded case outcome', () => {
  const OUTCOME = "98 of the window's 98 filings come from records that give no case outcome (distress.csv has no closed_date): a case closed, dismissed or redeemed since its filing is counted as open";
  const investor = (note: string) => ({ city: 'Louisville', state: 'KY', investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null,
    distressed_pipeline_count: 95, distressed_without_parcel: 0, market_tier: 'primary', confidence: 'low', as_of: '2016-06-03', distress_as_of: '2016-06-03', note });
  const ask = { months: 12, asks: [], ranking: null, targets: [], query: 'investor activity in Louisville, KY', readAs: [], notes: [] } as unknown as Understanding;
  const where = { state: 'KY', city: 'Louisville' } as Target;
  const facts = async (note: string) => {
    const { marketFacts } = await import('../../../live/research/market-facts.ts');
    return marketFacts({ shard: async () => investor(note), hasFamily: async () => true, market: null, redfin: { snapshots: () => [] } } as unknown as ResearchData, ask, 'investor', where);
  };
  it("says the note's clause after the pipeline count", async () => {
    const [f] = await facts(`distressed_pipeline_count counts the properties with an open filing filed in the last 12 months (to 2016-06-03), not every filing still open; ${OUTCOME}`);
    expect(f!.sentence).toContain(`95 distressed properties are in the pipeline; ${OUTCOME}`);
  });
  it('a note without it: no such words', async () => {
    const [f] = await facts('distressed_pipeline_count counts the properties with an open filing filed in the last 12 months (to 2016-06-03), not every filing still open');
    expect(f!.sentence).toContain('95 distressed properties are in the pipeline');
    expect(f!.sentence).not.toContain('no case outcome');
  });
});
