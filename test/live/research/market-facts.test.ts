// Market facts of research answers (live/research/market-facts.ts) from shards shaped like the spec, written here
// beside the shared real build's research index: comps, rehab and investor figures stated with their windows and
// as-of dates and cited; thin cohorts, unknown investor shares and city questions answered honestly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { ResearchData } from '../../../live/research/data.ts';
import { shardPath, type FamilyName } from '../../../warehouse/layout.ts';
import { fileShards } from '../../../warehouse/live.ts';
import { researchData } from '../../helpers/research.ts';

let data: ResearchData;
beforeAll(() => {
  data = researchData();
});

describe('market facts from shards shaped like the spec (a build where the market shards exist)', () => {
  it('states comps, rehab and investor figures with their windows and as-of dates, and cites them', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-research-market-'));
    try {
      fs.symlinkSync(path.join(buildDir(), 'live'), path.join(tmp, 'live'));
      const put = (family: FamilyName, keys: Record<string, string>, body: unknown): void => {
        const p = shardPath(family, keys);
        if (!p.ok) throw new Error(p.reason);
        fs.mkdirSync(path.dirname(path.join(tmp, 'shards', p.path)), { recursive: true });
        fs.writeFileSync(path.join(tmp, 'shards', p.path), JSON.stringify(body));
      };
      put('comps', { zip: '98103', property_type: 'sfr', months: '6' }, { zip_code: '98103', city: 'Seattle', state: 'WA', property_type: 'sfr', sample_count: 41,
        price_per_sqft: { p25: 450.4, median: 512.3, p75: 580 }, days_on_market: { median: 9 }, list_to_sale_ratio: 1.021, confidence: 'medium', as_of: '2015-05-14' });
      put('comps', { zip: '98103', property_type: 'condo', months: '12' }, { zip_code: '98103', city: 'Seattle', state: 'WA', property_type: 'condo', sample_count: null,
        price_per_sqft: { p25: null, median: null, p75: null }, days_on_market: { median: null }, list_to_sale_ratio: null, confidence: 'low', as_of: '2015-05-14' });
      put('rehab', { zip: '37206', months: '6' }, { zip_code: '37206', city: 'Nashville', state: 'TN', rehab_momentum_score: 78, label: 'Hot', trend: 'up', trend_pct: 12.5, confidence: 'high', as_of: '2017-03-01' });
      put('investor', { state: 'CO', city: 'Denver', months: '12' }, { city: 'Denver', state: 'CO', investor_purchase_rate_pct: 17.4, flip_velocity_days: 143, gross_flip_margin_pct: 21.2,
        distressed_pipeline_count: 0, platform_active_deals: 0, market_tier: 'primary', confidence: 'high', as_of: '2024-12-31' });
      const e = new ResearchEngine(new ResearchData(data.docs, data.bm25.data, [...data.stateLegal.values()], { states: [], cities: [['Denver', 'CO', 715000, '80202', '08031'], ['Seattle', 'WA', 750000, '98103', '53033']], zips: [['98103', 'Seattle', 'WA'], ['37206', 'Nashville', 'TN']] }, fileShards(path.join(tmp, 'shards')), null), null,
        // the clock of the given shards' first as-of month: their figures' own confidence is checked here, not their age (review-6.test.ts)
        '2015-05-14');
      const comps = await e.answer({ query: 'What are comps for 98103?' });
      expect(comps.answer).toMatch(/41 single-family sales in the 6 months to 2015-05-14/);
      expect(comps.answer).toMatch(/\$512 per sqft/);
      expect(comps.sources).toEqual([{ type: 'comps', category: 'market', citation: 'reii warehouse: comps for 98103, sfr, 6 months, as of 2015-05-14' }]);
      expect(comps.confidence).toBe('medium');
      const thin = await e.answer({ query: 'condo comps in 98103 over 12 months' });
      expect(thin.answer).toMatch(/fewer than 5/);
      expect(thin.confidence).toBe('low');
      const rehab = await e.answer({ query: 'rehab momentum in 37206' });
      // the trend is its own 30 days (to trend_end, else as_of), not the score's window (review 8)
      expect(rehab.answer).toMatch(/78 out of 100 \(Hot\) over the 6 months to 2017-03-01; its rehab events \(renovation permits and rehab resales\) in the 30 days to 2017-03-01 were up \(\+12.5%\)/);
      expect(rehab.sources[0]).toMatchObject({ type: 'rehab', category: 'market' });
      const inv = await e.answer({ query: 'What share of homes are bought by investors in Denver?', depth: 'deep' });
      expect(inv.answer).toMatch(/17.4% of the homes sold in the 12 months to 2024-12-31/);
      expect(inv.answer).toContain('reii warehouse: investor overview for Denver, CO, 12 months, as of 2024-12-31');
      expect(inv.confidence).toBe('high');
      put('investor', { state: 'WA', city: 'Seattle', months: '12' }, { city: 'Seattle', state: 'WA', investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null,
        distressed_pipeline_count: 0, platform_active_deals: 0, market_tier: 'primary', confidence: 'high', as_of: '2015-05-27' });
      const unknownShare = await e.answer({ query: 'investor activity in Seattle' });
      expect(unknownShare.answer).toMatch(/investor share is unknown/);
      expect(unknownShare.confidence).toBe('medium'); // the main figure is missing: never high
      const both = await e.answer({ query: 'Compare investor activity in Denver and Seattle' });
      expect(both.answer).toMatch(/Denver, CO 17.4% investor purchases; Seattle, WA investor share unknown \(the sales records carry no buyer names\)/); // one measure side by side, and why it is missing (review r24)
      expect(both.answer).not.toMatch(/distressed/);
      const city = await e.answer({ query: 'home prices per sqft in Seattle' });
      expect(city.answer).toMatch(/98103/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a city asked for its cheapest zips by price per sqft details the lowest zip of the summary; the dearest, the highest (real build)', async () => {
    const e = new ResearchEngine(data, null);
    const edges = (a: string): [string, string] => {
      const m = a.match(/run from \$[\d,]+ \(zip (\d{5})\) to \$[\d,]+ \(zip (\d{5})\)/);
      expect(m, a).not.toBeNull();
      return [m![1]!, m![2]!];
    };
    const cheap = await e.answer({ query: 'cheapest zip codes by price per sqft in Seattle, WA' });
    const [lo, hi] = edges(cheap.answer);
    expect(lo).not.toBe(hi);
    expect(cheap.answer).toContain(`In zip ${lo} (Seattle, WA)`);
    expect(cheap.answer).not.toContain(`In zip ${hi} (Seattle, WA)`);
    const dear = await e.answer({ query: 'most expensive zip codes by price per sqft in Seattle, WA' });
    expect(edges(dear.answer)).toEqual([lo, hi]);
    expect(dear.answer).toContain(`In zip ${hi} (Seattle, WA)`);
  });
});
