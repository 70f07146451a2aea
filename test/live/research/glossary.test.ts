// A question that only asks what a term means ("what is a superfund site?") is answered from the glossary
// (live/research/glossary.ts), with its source; a question about a place, or asked with a place in its context, is not.
// The flood-zone definitions must say what the location answers of the real build say of the same zone.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let engine: ResearchEngine;
const ask = (query: string, opts: { depth?: 'quick' | 'deep'; context?: { zip?: string; city?: string; state?: string } } = {}) => engine.answer({ query, depth: opts.depth ?? 'quick', context: opts.context });

beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

describe('definitions', () => {
  it('answers what a term means, with the regulation or method page it comes from, at high confidence', async () => {
    const cases: [string, RegExp, string][] = [
      ['what is a superfund site', /National Priorities List/, '42 U.S.C. 9605'],
      ["What's the NPL?", /National Priorities List/, '42 U.S.C. 9605'],
      ['What does flood zone AE mean?', /^Zone AE: 1% annual chance \(100-year\) floodplain with base flood elevations determined/, '44 CFR 64.3'],
      ['what is an AE zone', /^Zone AE:/, '44 CFR 64.3'],
      ['what is zone X?', /Zone X \(shaded\).*Zone X \(unshaded\)/, '44 CFR 64.3'],
      ['define SFHA', /Special Flood Hazard Area \(SFHA\) is land with a 1% or greater chance/, '44 CFR 59.1'],
      ['what is a flood zone', /^A flood zone is FEMA's label/, '44 CFR 64.3'],
      ['what is a floodway', /regulatory floodway/, '44 CFR 59.1'],
      ['how is the rehab score calculated', /rehab momentum score \(0-100\)/, 'warehouse/docs/market.md'],
      ['what are comps', /Comparable sales \(comps\)/, 'warehouse/docs/market.md'],
      ['what is a flip?', /investor flip is/, 'warehouse/docs/market.md'],
      ['what is the environmental risk score', /flood zone 45%, Superfund sites within a mile 30%/, 'warehouse/docs/location.md'],
      ['explain the landlord friendliness score', /weighted mean/, 'warehouse/docs/legal.md'],
      ["what is an arm's length sale", /between unrelated parties/, 'warehouse/docs/market.md'],
    ];
    for (const [q, text, citation] of cases) {
      const r = await ask(q);
      expect(r.answer, q).toMatch(text);
      expect(r.confidence, q).toBe('high');
      expect(r.sources.map((s) => s.citation).join(' | '), q).toContain(citation);
      expect(r.answer, q).not.toMatch(/I don't have/);
    }
  });

  it('a deep answer adds the detail and a Sources line', async () => {
    const r = await ask('what is a superfund site', { depth: 'deep' });
    expect(r.answer).toMatch(/Hazard Ranking System/);
    expect(r.answer).toMatch(/\nSources: CERCLA/);
  });

  it('a question about a place, a figure, or with a place in its context is no definition', async () => {
    for (const q of ['what is the flood zone in 02139', 'what is the legal risk score for Seattle', 'what is the median price in Denver', 'what is rehab']) {
      const r = await ask(q);
      expect(r.sources.every((s) => s.type !== 'definition' && s.category !== 'definition'), q).toBe(true);
    }
    const r = await ask('what is the legal risk score', { context: { city: 'Seattle', state: 'WA' } });
    expect(r.answer).toMatch(/Seattle/);
    expect(r.sources.every((s) => s.category !== 'definition')).toBe(true);
  });

  it('each zone a location answer of the build reports is defined as that answer describes it, with its label', async () => {
    const dir = path.join(buildDir(), 'shards', 'location', 'zip');
    const seen = new Map<string, { label: string; first: string }>();
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) { // not the .gz and .br siblings of a long answer
      const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { flood_zone: string; flood_risk_label: string; flood_risk_notes: string };
      if (s.flood_risk_notes.startsWith('Zone D (undetermined)')) continue; // no map loaded: not the zone FEMA maps as D
      const first = /^(.*?\.)(?: [A-Z]|$)/.exec(s.flood_risk_notes)![1]!;
      seen.set(`${s.flood_zone}|${first}`, { label: s.flood_risk_label, first });
    }
    expect(seen.size).toBeGreaterThan(1);
    for (const [key, { label, first }] of seen) {
      const zone = key.split('|')[0]!;
      const r = await ask(`what is flood zone ${zone}?`);
      expect(r.answer, zone).toContain(first);
      expect(r.answer, zone).toMatch(new RegExp(`Zone ${zone} ${label} \\(`));
    }
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(artifactsDir()); });
  afterAll(async () => { await server.close(); });

  it('POST /v1/research/query answers a definition with a typed source', async () => {
    const res = await server.post('/v1/research/query', { query: 'What is a Superfund site?' }, server.key('enterprise'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { answer: string; sources: { type: string; category: string; citation: string }[]; confidence: string; depth: string };
    expect(body.answer).toMatch(/^A Superfund site is a hazardous-waste site on \(or proposed for\) EPA's National Priorities List/);
    expect(body.sources).toEqual([{ type: 'definition', category: 'superfund', citation: expect.stringContaining('CERCLA') }]);
    expect(body.confidence).toBe('high');
    expect(body.depth).toBe('quick');
  });
});
