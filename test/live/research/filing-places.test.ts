// The filing municipalities (live/research/filing-places.ts, warehouse/docs/research.md "Cities") come from the research
// build's places.json (`filings`, live/research/build.ts), not from the investor shards on disk at load time: the
// research files alone, copied without the build's shards, give the same municipalities as the investor shards name
// (those whose 12-month distressed_pipeline_count is not null), and the same answers.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResearchData } from '../../../live/research/data.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { fileShards } from '../../../warehouse/live.ts';
import { buildDir, readShard } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';
import { removeTmpDirs, tmp } from '../../helpers/tmp.ts';

afterAll(removeTmpDirs);

/** The research files of the shared build alone: <tmp>/live/research, no shards folder. */
function researchOnly(): string {
  const dir = tmp('reii-research-only-');
  fs.cpSync(path.join(buildDir(), 'live', 'research'), path.join(dir, 'live', 'research'), { recursive: true });
  return dir;
}

describe('filing municipalities: from the research build, not the investor shards', () => {
  it('the research files alone name every city whose 12-month investor shard has a distressed pipeline, with that count', () => {
    const root = path.join(buildDir(), 'shards', 'market', 'investor');
    const want: string[] = [];
    for (const state of fs.readdirSync(root)) {
      for (const slug of fs.readdirSync(path.join(root, state))) {
        const r = readShard<{ city: string; distressed_pipeline_count: number | null }>(`market/investor/${state}/${slug}/12.json`);
        if (r.distressed_pipeline_count !== null) want.push(`${state}|${r.city}|${r.distressed_pipeline_count}`);
      }
    }
    const alone = ResearchData.fromBuild(researchOnly(), fileShards(path.join(buildDir(), 'shards')));
    expect(alone).not.toBeNull();
    expect(alone!.filingPlaces.map((p) => `${p.state}|${p.name}|${p.pipeline12}`).sort()).toEqual(want.sort());
    expect(want.length, 'the real build has Allegheny County and Louisville filings').toBeGreaterThan(100);
    expect([...alone!.filingByKey.keys()]).toEqual(expect.arrayContaining(['penn hills', 'mt lebanon']));
    expect(alone!.filingPlaces).toEqual(researchData().filingPlaces);
  });

  it('answers the filing questions the same with the research files alone (shards read only at request time)', async () => {
    const full = new ResearchEngine(researchData(), null, PINNED_TODAY);
    const alone = new ResearchEngine(ResearchData.fromBuild(researchOnly(), fileShards(path.join(buildDir(), 'shards')))!, null, PINNED_TODAY);
    for (const query of ['Mt. Lebanon foreclosures', 'distressed properties in penn hills', 'foreclosure filings in Allegheny County, PA']) {
      const a = await alone.answer({ query, depth: 'quick' });
      expect(a.answer, query).toMatch(/distressed properties/);
      expect(a.answer, query).toBe((await full.answer({ query, depth: 'quick' })).answer);
    }
  });
});
