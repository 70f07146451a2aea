// Two counties named with one "County" word ("King vs Pierce County"): the first is read as its county, as when the
// word is written for both (live/research/county-pair.ts). Before (review 31), "King vs Pierce County median price"
// answered Pierce County alone, and "Allegheny vs Jefferson counties foreclosures" read Jefferson, GA and "allegheny" as
// no place. Over the shared real build on the pinned clock; the counties are the build's own (its Census county list).
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { countyPair } from '../../../live/research/county-pair.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

describe('two counties with one "County" word', () => {
  it('answers as the question that writes the word for both: the first county leads, never dropped', async () => {
    for (const [short, full, lead, second] of [
      ['King vs Pierce County median price', 'King County vs Pierce County median price', 'King County, WA', 'Pierce County, WA'],
      ['king vs pierce county median price', 'King County vs Pierce County median price', 'King County, WA', 'Pierce County, WA'],
      ['Allegheny vs Jefferson counties foreclosures', 'Allegheny County vs Jefferson County foreclosures', 'Allegheny County, PA', 'Jefferson County, KY'],
      ['foreclosures in Allegheny and Jefferson County', 'foreclosures in Allegheny County and Jefferson County', 'Allegheny County, PA', 'Jefferson County, KY'],
    ]) {
      const a = await ask(short!);
      expect(a, short).toBe(await ask(full!));
      // both counties, side by side, the first first (findCounties: before, the first answered and the second said)
      expect(a.indexOf(lead!), a).toBeGreaterThanOrEqual(0);
      expect(a.indexOf(second!), a).toBeGreaterThan(a.indexOf(lead!));
      expect(a).not.toContain('one county is answered per question');
      expect(a, short).not.toMatch(/could not find a place|Jefferson, GA/);
    }
  });

  it('rewrites only names that are counties of the build, the longest first; a city beside a county stays a city', () => {
    const data = researchData();
    expect(countyPair('median price in King vs Pierce County', data)).toBe('median price in King County vs Pierce County');
    expect(countyPair('Orleans or Jefferson Parish flood risk', data)).toBe('Orleans Parish or Jefferson Parish flood risk');
    expect(countyPair('Seattle vs Pierce County', data)).toBe('Seattle vs Pierce County');
    expect(countyPair('King County vs Pierce County', data)).toBe('King County vs Pierce County');
    expect(countyPair('King vs Atlantis County', data)).toBe('King vs Atlantis County');
  });
});
