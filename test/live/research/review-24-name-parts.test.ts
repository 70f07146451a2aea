// Review 24 B: a word of one place's name is never read as a second place (live/research/name-parts.ts). "Vashon
// Island" gave Vashon's figure then "Island, KY no data"; "rehab in Inglewood nashville 37216" added "Inglewood, CA no
// data" though Nashville and its zip were named. Figures: our own SQL over the raw King County file (rawComps).
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { rawComps } from '../../helpers/oracle-raw-comps.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

describe('review 24 B: words of a place name read once', () => {
  it('"Vashon Island": Vashon\'s price per sqft alone, no Island, KY', async () => {
    const c = (await rawComps()).get('98070|sfr|6')!;
    expect(c.n).toBeGreaterThan(20);
    for (const q of ['whats the price per sqft on Vashon Island?', 'Vashon Island comps']) {
      const a = await ask(q);
      expect(a, q).toMatch(new RegExp(`^In zip 98070 \\(Vashon, WA\\), ${c.n} single-family sales in the 6 months to \\S+ had a median \\$${Math.round(c.median)} per sqft`));
      expect(a, q).not.toContain('Island, KY');
    }
    // a place whose name holds the word is still itself
    expect(await ask('Mercer Island comps')).toMatch(/^In zip 98040 \(Mercer Island, WA\)/);
  });

  it('"rehab in Inglewood nashville 37216": the zip, with Inglewood said to be part of Nashville, never Inglewood, CA', async () => {
    const a = await ask('how hot is rehab in Inglewood nashville 37216');
    expect(a).toMatch(/^Reading "Inglewood" as part of Nashville, TN \(a neighbourhood named before its city; not Inglewood, CA\): Zip 37216 \(Nashville, TN\) has a rehab momentum score/);
    expect(a).not.toContain('Inglewood, CA no data');
    expect(a.slice(a.indexOf(': Zip 37216') + 2)).toBe(await ask('how hot is rehab in 37216'));
    // two places compared keep both ("vs"), and a city of another state after a place read alone is no neighbourhood
    expect(await ask('Seattle vs Portland, OR prices')).toMatch(/Seattle, WA .*Portland, OR/);
  });
});
