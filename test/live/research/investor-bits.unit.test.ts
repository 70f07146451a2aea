// An investor answer's clauses (live/research/investor-bits.ts) over overview shards as pipelines/shards/investor.sql
// writes them: 1-4 known buyers or flips (the minimum cohort, warehouse/docs/market.md "mart_investor") are said as
// "fewer than 5", never as no buyer names or no flip; the figures themselves as before.
import { describe, expect, it } from 'vitest';
import { investorBits, type Investor } from '../../../live/research/investor-bits.ts';
import type { Understanding } from '../../../live/research/intent.ts';

const asking = (...asks: string[]): Understanding => ({ asks }) as unknown as Understanding;
const shard = (o: Partial<Investor>): Investor => ({ city: 'Testville', state: 'CO', investor_purchase_rate_pct: 20, flip_velocity_days: null, gross_flip_margin_pct: null,
  distressed_pipeline_count: null, market_tier: 'rural', confidence: 'low', as_of: '2019-07-09', note: null, ...o });
const FEW_FLIPS = 'fewer than 5 investor flips have their resale in the window: no flip velocity or margin (minimum cohort 5)';
const FEW_BUYERS = 'fewer than 5 sales for value in the window record a buyer name: no investor purchase rate (minimum cohort 5)';

describe('investor answer clauses', () => {
  it('1-4 flips: "fewer than 5 flips", not "no flip is recorded" nor "no flip margin"', () => {
    const text = investorBits(shard({ note: FEW_FLIPS }), asking('flips', 'flip_margin'), 12).join(', ');
    expect(text).toContain('fewer than 5 flips have their resale in the 12 months to 2019-07-09: too few for a median hold or margin');
    expect(text).not.toMatch(/no flip is recorded|no flip margin/);
  });

  it('1-4 known buyers: "fewer than 5 sales ... record a buyer name", not "no buyer names"', () => {
    const text = investorBits(shard({ investor_purchase_rate_pct: null, note: `${FEW_BUYERS}; ${FEW_FLIPS}` }), asking('flips'), 12).join(', ');
    expect(text).toMatch(/^fewer than 5 sales of the 12 months to 2019-07-09 record a buyer name, too few for an investor share/);
    expect(text).not.toMatch(/carry no buyer names|no flip can be told/);
  });

  it('figures and the other reasons read as before', () => {
    expect(investorBits(shard({ flip_velocity_days: 140, gross_flip_margin_pct: 32.8 }), asking(), 12)).toEqual([
      'investors bought 20% of the homes sold in the 12 months to 2019-07-09', 'flips resold after a median 140 days held (purchase deed to resale deed)', 'with a median gross margin of 32.8%']);
    expect(investorBits(shard({ investor_purchase_rate_pct: null }), asking('flips'), 12)[1]).toBe('and no flip can be told: without buyer names no investor purchase, and so no flip, is known');
    expect(investorBits(shard({}), asking('flip_margin'), 12)[1]).toMatch(/^and there is no flip margin: no investor purchase was resold/);
  });
});
