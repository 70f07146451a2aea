// A home's size asked with its value (live/research/size-value.ts): the zip's median price per sqft times the size,
// recomputed here from the raw sales files (oracle-raw-comps.ts rawComps: market.md's comps rules without the build);
// the size never read as a year ("2000 sqft"), never applied where no zip's price per sqft is given (a city, a count).
// Before (review 30), "value of a 1800 sqft home in 98103" answered the zip's median sale price, the size dropped.
// Over the shared real build on the pinned clock.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { rawComps } from '../../helpers/oracle-raw-comps.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const dollars = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

describe('a home size asked its value: the zip\'s price per sqft times the size', () => {
  it('in the two zips of King County and Philadelphia with the most comparable sales: the raw files\' median per sqft times 1,800 sqft', async () => {
    const raw = await rawComps();
    const best = (prefix: string): [string, { n: number; median: number }] => [...raw].filter(([k]) => k.startsWith(prefix) && k.endsWith('|sfr|6'))
      .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))[0]!;
    for (const [key, c] of [best('98'), best('191')]) {
      const zip = key.split('|')[0]!;
      expect(c.n, key).toBeGreaterThanOrEqual(20);
      for (const q of [`value of a 1800 sqft home in ${zip}`, `how much is a 1,800 sq ft house in ${zip} worth?`, `what would an 1800 square foot house in ${zip} sell for`]) {
        const a = await ask(q);
        expect(a, q).toMatch(/^Reading "1,?800 (sqft|sq ft|square foot)" as the size to price: the zip's median price per sqft of single-family sales times 1,800 sqft/);
        expect(a, q).toContain(`${c.n} single-family sales in the 6 months to`);
        expect(a, q).toContain(`had a median ${dollars(c.median)} per sqft`);
        expect(a, q).toContain(`at that median, 1,800 sqft comes to about ${dollars(Math.round((c.median * 1800) / 1000) * 1000)}`);
        expect(a, q).not.toMatch(/\bin 1800\b|outside the data/);
      }
      // the zip's price per sqft answer itself is the same figure
      expect(await ask(`price per sqft in ${zip}`)).toContain(`had a median ${dollars(c.median)} per sqft`);
    }
  });

  it('"2000 sqft" is never the year 2000; a count asked with a size says sizes are not kept and answers the zip\'s count', async () => {
    const a = await ask('how many 2000 sqft homes sold in 98103');
    expect(a).not.toMatch(/\bin 2000\b|outside the data/);
    const lead = 'Reading "2000 sqft": the figures are not kept by home size (only a value is priced by size: a zip\'s median price per sqft times it), so the size is not applied: ';
    expect(a.startsWith(lead), a).toBe(true);
    expect(a.slice(lead.length)).toBe(await ask('how many homes sold in 98103'));
  });

  it('a city asked (no zip): the size said as not applied, the city\'s own answer given, no priced figure', async () => {
    const a = await ask('how much is a 2000 sqft house in Seattle worth');
    expect(a).toMatch(/^Reading "2000 sqft" as the size to price: a size is priced with a zip's median price per sqft and no zip is asked, so the size is not applied \(name a zip code\)/);
    expect(a).not.toMatch(/comes to about|\bin 2000\b/);
  });
});
