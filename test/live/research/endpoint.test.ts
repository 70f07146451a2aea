// The research endpoint (live/research/endpoint.ts) over the shared real build's research index: honest answers
// (unanswerable questions, uncertain facts, places and topics outside coverage, county ordinances, comparisons),
// full-text retrieval of rules outside the named intents, and the live module and POST /v1/research/query over HTTP.
// The question set gate: questions.test.ts; the rules: warehouse/docs/research.md.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import research, { ResearchEngine, type ResearchBody, type ResearchInput } from '../../../live/research/endpoint.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { DONT_HAVE, researchData } from '../../helpers/research.ts';
import { SET } from '../../helpers/research-questions.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let data: ResearchData;
let engine: ResearchEngine;
const ask = (q: ResearchInput): Promise<ResearchBody> => engine.answer(q);

beforeAll(() => {
  data = researchData();
  engine = new ResearchEngine(data, null, PINNED_TODAY);
});

describe('honesty', () => {
  it('unanswerable questions get confidence low and a plain "don\'t have"', async () => {
    for (const u of SET.unanswerable) {
      for (const depth of ['quick', 'deep'] as const) {
        const r = await ask({ query: u.query, context: u.context, depth });
        expect(r.confidence, `${u.query}: ${r.answer}`).toBe('low');
        expect(r.answer, u.query).toMatch(DONT_HAVE);
        expect(r.answer, u.query).not.toMatch(/\d+ days|\d+%|\$\d/);
        expect(schemaErrors('ResearchAnswer', r)).toEqual([]);
      }
    }
  });

  it('uncertain facts lower confidence to medium and say so', async () => {
    const unc = data.docs.find((d) => d.level === 'state' && d.category === 'eviction' && d.subcategory === 'nonpayment_notice' && d.status === 'active' && d.uncertain.includes('notice_days'));
    if (!unc) return;
    const r = await ask({ query: `eviction notice for nonpayment in ${data.stateNames.get(unc.state)}`, depth: 'quick' });
    expect(r.confidence).toBe('medium');
    expect(r.answer).toMatch(/unverified|conflicting/);
  });

  it('says what it cannot answer inside an answerable question (mortgage redemption), at medium', async () => {
    const r = await ask({ query: 'How long do I have to redeem my house after foreclosure in Michigan?' });
    expect(r.answer).toMatch(/tax sales only/);
    expect(r.answer).toMatch(/non-judicial/);
    expect(r.confidence).toBe('medium');
  });

  it('a question with a topic but no place asks for one, naming the closest topic', async () => {
    const r = await ask({ query: 'lead paint disclosure' });
    expect(r.confidence).toBe('low');
    expect(r.answer).toMatch(/name a state/);
    expect(r.sources).toEqual([]);
  });

  it('a place we do not cover is named in quick and deep answers too, never dropped, and caps confidence at medium', async () => {
    for (const depth of ['quick', 'deep'] as const) {
      const r = await ask({ query: 'tax lien interest rate in Puerto Rico and Texas?', depth });
      expect(r.answer, depth).toMatch(/no data for Puerto Rico/i);
      expect(r.answer, depth).toContain('Texas');
      expect(r.confidence, depth).toBe('medium');
    }
  });

  it('a county ordinance "may apply" in a city of the county, at medium (as the legal endpoints say it)', async () => {
    const county = data.docs.find((d) => d.level === 'county' && d.subcategory === 'local_overlay' && d.category === 'rent_control' && d.status === 'active');
    if (!county) throw new Error('the build has no county rent control overlay');
    // a city of that county without its own overlay
    const city = [...data.citiesByName.values()].flat().find((c) => c.state === county.state && c.county_fips === county.county_fips
      && !data.docs.some((d) => d.level === 'city' && d.state === c.state && d.city === c.name)
      && !(county.data['unincorporated_only'] === true && c.incorporated === true));
    if (!city) throw new Error(`no city in county ${county.county_fips}`);
    const r = await ask({ query: `Does ${city.name}, ${county.state} have rent control?` });
    expect(r.answer).toMatch(new RegExp(`A county ordinance may apply in ${city.name}`));
    expect(r.answer).not.toMatch(/The county has local rent control/);
    expect(r.confidence).toBe('medium');
    expect(r.sources.map((s) => s.citation)).toContain(county.citation);
  });

  it('a county ordinance of unincorporated areas only is never said to apply in an incorporated city (Pasadena)', async () => {
    const la = data.docs.find((d) => d.id === 'ca-county-los-angeles-rent-stabilization')!;
    expect(la.data['unincorporated_only']).toBe(true);
    expect(data.cityInState('Pasadena', 'CA')?.incorporated).toBe(true);
    const r = await ask({ query: 'Does Pasadena, CA have rent control?' });
    expect(r.answer).not.toMatch(/county ordinance may apply/i);
    expect(r.sources.map((s) => s.citation)).not.toContain(la.citation);
    const east = await ask({ query: 'Does East Los Angeles, CA have rent control?' });
    expect(east.answer).toMatch(/A county ordinance may apply in East Los Angeles/);
  });

  it('a structured fact of the asked state is high confidence', async () => {
    const r = await ask({ query: 'Is Texas a judicial or non-judicial foreclosure state?' });
    expect(r.confidence).toBe('high');
  });

  it('comparisons put both places side by side', async () => {
    const r = await ask({ query: 'Compare eviction notice periods in Texas and California' });
    expect(r.answer).toMatch(/Texas 3 days; California 3 business days/);
    expect(r.sources.map((s) => s.citation)).toEqual(expect.arrayContaining(['Tex. Prop. Code 24.005']));
    expect(r.sources.length).toBe(2);
  });
});

describe('retrieval', () => {

  it('full-text search finds rules outside the named intents', async () => {
    const r = await ask({ query: 'Garn-St Germain due-on-sale clause in Ohio', depth: 'quick' });
    expect(r.sources[0]).toMatchObject({ type: 'regulation', category: 'creative_finance' });
    expect(r.confidence).toBe('medium');
  });
});

describe('the live module and HTTP', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
  afterAll(async () => { await srv.close(); });

  it('load() answers 404 for a build without the research index', async () => {
    const inst = await research.load({ dir: path.join(buildDir(), 'no-such-dir'), buildId: 'x', asOf: '2026-01-01', settings: loadSettings() });
    const a = await inst.handle({ query: 'eviction notice in Texas' });
    expect(a).toMatchObject({ ok: false, code: 'no_data' });
  });

  it('POST /v1/research/query answers with the schema', async () => {
    const key = srv.key('pro');
    const res = await srv.post('/v1/research/query', { query: 'Compare eviction notice periods in Texas and California', depth: 'deep' }, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ResearchBody;
    expect(schemaErrors('ResearchAnswer', body)).toEqual([]);
    expect(body.depth).toBe('deep');
    expect(body.answer).toContain('Tex. Prop. Code 24.005');
    const ctx = await srv.post('/v1/research/query', { query: 'Is there a flood risk here?', context: { zip: '98103' } }, key);
    expect(ctx.status).toBe(200);
  });

  it('400 empty query, 422 depth forever, 422 context zip abc; a long query is cut, not refused', async () => {
    const key = srv.key('pro');
    expect((await srv.post('/v1/research/query', { query: '' }, key)).status).toBe(400);
    expect((await srv.post('/v1/research/query', {}, key)).status).toBe(400);
    expect((await srv.post('/v1/research/query', { query: 'eviction notice in Texas', depth: 'forever' }, key)).status).toBe(422);
    expect((await srv.post('/v1/research/query', { query: 'eviction notice in Texas', context: { zip: 'abc' } }, key)).status).toBe(422);
    // a wrong type is a 400, as the README says of every body ("a zip sent as a number"); it was a 422 here
    const typed = await srv.post('/v1/research/query', { query: 'eviction notice in Texas', context: { zip: 98103 } }, key);
    expect(typed.status).toBe(400);
    expect(((await typed.json()) as { errors: { field: string; code: string }[] }).errors).toEqual([expect.objectContaining({ field: 'context.zip', code: 'type' })]);
    const long = await srv.post('/v1/research/query', { query: `eviction notice in Texas ${'please '.repeat(800)}` }, key);
    expect(long.status).toBe(200);
    expect(((await long.json()) as ResearchBody).answer).toMatch(/3 days/);
  });
});
