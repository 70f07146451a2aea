// Chicago and days on market (review 16's left-overs, h17chi), over the shared real build on the suite's pinned clock:
// a zip or city with permits and no sales says its rehab score and 30-day events are its building permits alone, never
// "rehab resales" no record could show (rehab-facts.ts, city-summary.ts, freshness.ts); a city's days on market with
// no sales records (or asked for a month past its sales) is the range of its zips' Redfin snapshot medians over one
// period, never one figure of the city (redfin-city.ts). Expected figures: our own SQL over the raw Redfin tracker
// file in ../shared/data, per zip of the build's city list, and the build's rehab shards.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { readShard } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

describe('a zip or city with permits and no sales: its rehab figures are its permits alone', () => {
  it('"rehab 60614", "rehab chicago", "rehab momentum in nashville": permits alone, never rehab resales', async () => {
    // raw: no sales source in ../shared/data covers Illinois or Tennessee (the sales folders and their states)
    const fs = await import('node:fs');
    const sales = fs.readdirSync(dataFile('.')).filter((d) => /sales|transactions|properties-sample/.test(d)).sort();
    expect(sales).toEqual(['connecticut-real-estate-sales', 'denver-real-property-sales', 'king-county-wa-house-sales', 'nyc-rolling-sales', 'philadelphia-opa-properties-sample', 'sacramento-real-estate-transactions']);
    const r = readShard<{ rehab_momentum_score: number; trend: string; trend_end: string; as_of: string }>('market/rehab/60614/6.json');
    const a = await ask('rehab 60614');
    expect(a).toContain(`has a rehab momentum score of ${r.rehab_momentum_score} out of 100 (Hot) over the 6 months to ${r.as_of}, from its building permits alone; its rehab permits (residential renovation, addition and repair permits: no sales record covers this zip, so no rehab resales) in the 30 days to ${r.trend_end} were ${r.trend}`);
    expect(a).not.toContain('renovation permits and rehab resales');
    const city = await ask('rehab chicago');
    expect(city).toMatch(/^Across \d+ zips of Chicago, IL with a rehab momentum score \(from building permits alone: no sales record covers its zips, so there are no rehab resales/);
    expect(city).not.toMatch(/permits and sales|renovation permits and rehab resales/);
    // Nashville's permits end 2024-09: their age is said of its permits, not of "permits and sales"
    const nash = await ask('rehab momentum in nashville');
    expect(nash).toContain('the latest permits in this source are from 2024-09');
    expect(nash).not.toMatch(/permits and sales|renovation permits and rehab resales/);
  });
});
