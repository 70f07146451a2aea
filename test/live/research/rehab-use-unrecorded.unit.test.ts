// A rehab answer over canonical permits whose building use permits.csv does not record (review 22): the rehab shard's
// note says commercial work may be counted (pipelines/marts/30_mart_rehab.sql), and the research answer says it too,
// in its detail; a score whose permits record their use reads as before.
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
  it("says the note's clause in its detail", async () => {
    const f = await rehabFact(data(`Nashville-like records; ${CLAUSE}`), u, t, '37206', true);
    expect(f.detail).toContain(`Building use: ${CLAUSE}.`);
  });
  it('a note without it: the detail as before', async () => {
    const f = await rehabFact(data(null), u, t, '37206', true);
    expect(f.detail).toEqual(['Rehab score confidence: medium (by the count of the rehab permits and sales it is computed from).']);
  });
});
