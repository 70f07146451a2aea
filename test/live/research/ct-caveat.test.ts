// Connecticut's catalog caveat (pipelines/sources/registry.ts: its 2022 extract records no Non Use Code, so only the
// ratio test stands in for the codes) is about one file of the source: it is said of a town and months whose sales
// come from that file, never of a town with none (Hartford: the 2022 extract holds no Hartford sale), by the trends
// answer's data_note and by the research answer's partial-extract sentence alike (live/research/partial.ts
// caveatsApplying). Before, every Connecticut trends answer carried it and no research answer did. Which file holds a
// town's sales of which months is recomputed from the raw files (test/helpers/oracle-ct.ts); the caveat's words are
// the build's manifest's. A real server and the research engine over the shared real build on the pinned clock.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir, serveSharedBuild } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ctTownMonths } from '../../helpers/oracle-ct.ts';
import { researchData } from '../../helpers/research.ts';

const api = serveSharedBuild('builder', 100_000);
let engine: ResearchEngine;
let caveat: string;
beforeAll(() => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { sources: { id: string; title: string; caveat: string | null }[] };
  const ct = manifest.sources.find((s) => s.id === 'connecticut')!;
  caveat = `; of ${ct.title.replace(/\s*\(partial\)$/, '')}, ${ct.caveat!}`;
});
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const EXTRACT = /these sales come from a partial extract of their source \(Connecticut OPM real estate sales, [\d,]+ rows\)/;
/** Whether the raw files hold kept sales of the town from the 2022 extract in the months from..to. */
const from2022 = async (town: string, from: string, to: string): Promise<boolean> => (await ctTownMonths(town, from, to)).some((r) => r.file === 'y2022');

interface Trends { series: { month: string }[]; data_note: string | null }
const trends = async (q: string): Promise<Trends> => {
  const r = await api.get(`/v1/market/trends?${q}`);
  expect(r.status, q).toBe(200);
  return await r.json() as Trends;
};

describe('the trends data_note says the 2022 extract\'s caveat only of a town and window with sales from it', () => {
  it('Hartford (no sale in the 2022 extract): the partial extract said, the caveat not; Bridgeport over 24 months: said; over 6: not', async () => {
    for (const [q, town] of [['city=Hartford&state=CT&months=36', 'Hartford'], ['city=Bridgeport&state=CT&months=24', 'Bridgeport'], ['city=Bridgeport&state=CT&months=6', 'Bridgeport']] as const) {
      const t = await trends(q);
      expect(t.data_note, q).toMatch(/^These sales come from a partial extract of their source \(Connecticut OPM real estate sales, [\d,]+ rows\)/);
      const held = await from2022(town, t.series[0]!.month, t.series.at(-1)!.month);
      expect(t.data_note!.includes(caveat), q).toBe(held);
    }
    // the three cases are told apart by the raw files: Hartford has no sale of the 2022 extract at all, Bridgeport has
    // some in its 24 months to 2023-09 and none in its last 6
    expect(await from2022('Hartford', '2000-01', '2099-12')).toBe(false);
    expect(await from2022('Bridgeport', '2021-10', '2023-09')).toBe(true);
    expect(await from2022('Bridgeport', '2023-04', '2023-09')).toBe(false);
  });
});

describe('the research answer\'s partial-extract sentence carries the caveat where it applies', () => {
  it('"median price stamford ct 2022" (its 2022 sales from the 2022 extract): the caveat said once, after the partial extract', async () => {
    expect(await from2022('Stamford', '2022-01', '2022-12')).toBe(true);
    const r = await ask('median price stamford ct 2022');
    expect(r).toMatch(EXTRACT);
    expect(r).toContain(`not every recorded sale, so counts, medians and rankings describe that extract only${caveat}`);
    expect(r.split(caveat).length).toBe(2);
  });

  it('Hartford: the partial extract said, never the 2022 extract\'s caveat', async () => {
    expect(await from2022('Hartford', '2000-01', '2099-12')).toBe(false);
    for (const q of ['median price in Hartford, CT', 'how many homes sold in Hartford CT', 'how many homes sold in Hartford CT in 2022']) {
      const r = await ask(q);
      expect(r, q).toMatch(EXTRACT);
      expect(r, q).not.toContain('Non Use Code');
    }
  });
});
