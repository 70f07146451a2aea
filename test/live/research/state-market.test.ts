// A state asked alone for its sale price or sales count (F4, session 63): Connecticut, whose two OPM files cover every
// town, is answered from the state's own market (every arm's-length sale of the state, the towns' one rule), its
// count and median re-counted here from the raw files (oracle-ct.ts, the build's flags never read); a state whose
// sales are one market's (Washington: King County's) gets no state figure, that market named. Before, both were asked
// to name a zip or city. Over the shared real build on the suite's pinned day.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ctStateWindow } from '../../helpers/oracle-ct.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const money = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

describe('a whole state\'s sale price', () => {
  it('"median sale price in Connecticut": the state\'s 12 months of single-family sales, as the raw files count them', async () => {
    const a = await ask('median sale price in Connecticut');
    const m = /In Connecticut, the median of the ([\d,]+) arm's-length single-family sales in the 12 months to (\d{4}-\d{2}-\d{2})/.exec(a);
    expect(m, a).not.toBeNull();
    const to = m![2]!, after = `${Number(to.slice(0, 4)) - 1}${to.slice(4)}`;
    const raw = await ctStateWindow('sfr', after, to);
    expect(Number(m![1]!.replaceAll(',', ''))).toBe(raw.n);
    expect(a).toContain(`was ${money(raw.median)}`);
    // the latest months are a partial extract: said with the figure
    expect(a).toMatch(/in part only/);
  });

  it('"how many condos sold in CT": the condo window, counted as the raw files count it', async () => {
    const a = await ask('how many condos sold in CT in the last 12 months');
    const m = /the median of the ([\d,]+) arm's-length condo sales in the 12 months to (\d{4}-\d{2}-\d{2})/.exec(a);
    expect(m, a).not.toBeNull();
    const to = m![2]!;
    expect(Number(m![1]!.replaceAll(',', ''))).toBe((await ctStateWindow('condo', `${Number(to.slice(0, 4)) - 1}${to.slice(4)}`, to)).n);
  });

  it('a state whose sales are one county\'s is no state figure: "median home price in Washington state" names King County\'s sales', async () => {
    const a = await ask('median home price in Washington state');
    const m = /We have no statewide figure for Washington: its sales in this build are those of King County WA house sales 2014-2015 only, in (\d+) of its (\d+) counties/.exec(a);
    expect(m, a).not.toBeNull();
    // King County's zips lie in King County (and at most a neighbour or two), of Washington's 39
    expect(Number(m![1])).toBeLessThanOrEqual(3);
    expect(Number(m![2])).toBe(39);
    expect(a).not.toMatch(/In Washington, the median/);
  });
});
