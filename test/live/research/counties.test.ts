// A price trend asked of a county (POST /v1/research/query): its zips' changes side by side, as a city's comps are; a
// New York City borough's county ("Kings County") is the borough. Over the shared real build: the zips named must be
// the county's (the Census ZCTA x county file the research index reads) and their figures must be what the same
// question asked of that zip answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let data: ResearchData;
let engine: ResearchEngine;
const ask = async (query: string) => (await engine.answer({ query, depth: 'quick' })).answer;

beforeAll(() => {
  data = researchData();
  engine = new ResearchEngine(data, null, PINNED_TODAY);
});

describe('a price trend asked of a county', () => {
  it('King County: the changes of its zips, the highest zip\'s own figure as its own question answers it', async () => {
    const a = await ask('home price trend in King County');
    const m = /^Across (\d+) zips of King County, WA with a single-family price change over the (\d+) months to (?:each zip's own end \(its latest data, \d{4}-\d{2} to )?(\d{4}-\d{2})\)?, the changes run from ([+-][\d.]+%) \(zip (\d{5})\) to ([+-][\d.]+%) \(zip (\d{5})\)/.exec(a);
    expect(m, a).not.toBeNull();
    const [, n, months, , low, lowZip, high, highZip] = m!;
    const county = new Set(data.zipsOfCounty('53033'));
    expect(county.has(lowZip!) && county.has(highZip!)).toBe(true);
    // a 13-month source: most zips have no 12-month change, so the 3-month one is the window said
    expect(Number(n)).toBeGreaterThanOrEqual(10);
    for (const [zip, fig] of [[highZip!, high!], [lowZip!, low!]]) {
      expect(await ask(`how have home prices changed in ${zip} over the last ${months} months`)).toContain(`changed ${fig} over the ${months} months`);
    }
  });

  it('a median price asked of a county: its zips\' latest solid months, the highest zip named', async () => {
    const a = await ask('median home price in King County WA');
    expect(a).toMatch(/^In King County, WA, \d+ zips had a complete month of 20 or more single-family sales; their latest such months' median sale prices run from \$[\d,]+ \(zip 98\d{3}\) to \$[\d,]+ \(zip 98\d{3}\)/);
  });

  it('Kings County, NY is Brooklyn: the same answer as the borough asked by name', async () => {
    const byCounty = await ask('how are prices changing in Kings County NY');
    expect(byCounty).toMatch(/^In Brooklyn, NY, /);
    expect(byCounty).toBe(await ask('how are prices changing in Brooklyn NY'));
  });
});
