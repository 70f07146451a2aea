// A research question's context city goes through the build's place resolver (live/places), so the names only the
// place table holds (the Census consolidated and CDP names: "Urban Honolulu", "Nashville-Davidson",
// "Louisville/Jefferson County") mean the same city as its usual name. Oracle: the Census name is read from the raw
// Gazetteer file here, and each answer must equal the one for the usual name (an answer about a zip of the city).
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine, type ResearchBody } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let engine: ResearchEngine;
let gazetteer: { state: string; name: string }[];
beforeAll(() => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  const text = zlib.gunzipSync(fs.readFileSync(path.join(SHARED_DATA, 'census-gazetteer-2025/2025_Gaz_place_national.txt.gz'))).toString('utf8');
  gazetteer = text.split('\n').slice(1).filter(Boolean).map((l) => { const f = l.split('|'); return { state: f[0]!, name: f[4]! }; });
});

const facts = (b: ResearchBody): unknown => ({ answer: b.answer, sources: b.sources, confidence: b.confidence });

/** The Census place name of a city, without its legal descriptor, as the Gazetteer spells it. */
function censusName(state: string, re: RegExp): string {
  const hit = gazetteer.find((p) => p.state === state && re.test(p.name));
  if (!hit) throw new Error(`no Gazetteer place matching ${re} in ${state}`);
  return hit.name.replace(/ (CDP|city|metropolitan government \(balance\)|metro government \(balance\)|urban county)$/, '');
}

describe('context cities by their Census names', () => {
  const cases: [state: string, usual: string, census: RegExp][] = [
    ['HI', 'Honolulu', /^Urban Honolulu/],
    ['TN', 'Nashville', /^Nashville-Davidson/],
    ['KY', 'Louisville', /^Louisville\/Jefferson County/],
  ];
  for (const [state, usual, re] of cases) {
    it(`${usual}, ${state}`, async () => {
      const alias = censusName(state, re);
      expect(alias).not.toBe(usual);
      const query = 'What is the flood risk?'; // answered over the zips of the context city, from the location shards
      const right = await engine.answer({ query, context: { city: usual, state } });
      expect(right.answer).toMatch(new RegExp(`^(?:Zip \\d{5} |Of \\d+ zips of ${usual}, ${state}[ ,])`));
      expect(right.sources.length).toBeGreaterThan(0);
      expect(facts(await engine.answer({ query, context: { city: alias, state } }))).toEqual(facts(right));
    });
  }
});
