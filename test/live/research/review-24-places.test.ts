// Review 24's place readings (live/research/compare-sides.ts sidesMissed, namesake-read.ts, places.ts): a comparison
// whose sides all lack the figure answered the first side alone; a misspelt "Washington" was read as the state unsaid.
// Over the shared real build on the suite's pinned clock. The sales files of ../shared/data are of King County WA,
// Connecticut, Denver, New York City, Philadelphia and Sacramento (their SOURCE.md), none of Idaho, Oklahoma, Nebraska
// or Kansas: each side's "no sales" is the raw data's.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

describe('a comparison none of whose sides has the figure says every side', () => {
  it('Tulsa\'s zips are in the raw Redfin snapshots (so its reason is Boise\'s: snapshots held, used for days on market only)', async () => {
    const [r] = await rawQuery<{ n: number }>(`select count(distinct zip_code)::int as n from read_csv('${dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)
      where state = 'Oklahoma' and city = 'Tulsa'`);
    expect(r!.n).toBeGreaterThan(0);
  });

  it('"compare Boise and Tulsa": Boise\'s reason in full, then Tulsa, never Boise alone', async () => {
    const a = await ask('compare Boise and Tulsa');
    const boise = await ask('median price in Boise');
    expect(boise).toMatch(/^We have no single-family sales for a median sale price in Boise, ID; /);
    expect(a).toBe(`${boise} We have no single-family sales for a median sale price in Tulsa, OK either, for the same reason.`);
    expect(await ask('Boise vs Tulsa median price')).toBe(a);
  });

  it('three and four sides: every one named, in at most three sentences', async () => {
    const three = await ask('compare Boise, Tulsa and Omaha median price');
    expect(three).toContain('in Tulsa, OK or Omaha, NE either, for the same reason.');
    const four = await ask('compare Boise, Tulsa, Omaha and Wichita median price');
    expect(four).toContain('in Tulsa, OK, Omaha, NE or Wichita, KS either, for the same reason.');
  });

  it('"Boise vs Tulsa investor activity": one sentence naming both', async () => {
    expect(await ask('Boise vs Tulsa investor activity')).toBe('We have no investor activity data for Boise, ID or Tulsa, OK.');
  });
});
