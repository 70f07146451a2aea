// Review 28 #4: "How reliable are your automated valuations in Philadelphia?" answered "I don't have data". Now the
// build's valuation scorecard (the body of GET /v1/valuation/scorecard, live/valuation/scorecard.ts) answers for the
// source that values the place: its recorded subjects' n, MdAPE, PPE10, PPE20 and 80% coverage, and the test window,
// whose last day is the source's last arm's-length sale re-derived from the raw file (oracle_arms), never the code's.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookupsOf, ResearchEngine } from '../../../live/research/endpoint.ts';
import type { Scorecard } from '../../../live/valuation/scorecard.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { askWithSalesOracle, DONT_HAVE, researchData } from '../../helpers/research.ts';

askWithSalesOracle(); // opens the research oracle (oracle_arms) for this file
let engine: ResearchEngine | undefined;
const answer = async (query: string) => {
  engine ??= new ResearchEngine(researchData(), null, PINNED_TODAY, lookupsOf(buildDir()));
  return engine.answer({ query, depth: 'quick' });
};
const card = (): Scorecard => JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'valuation', 'scorecard.json'), 'utf8')) as Scorecard;
const p1 = (x: number): string => `${Number(x.toFixed(1))}%`;

describe('review 28 #4: how reliable the automated valuations are', () => {
  it('"How reliable are your automated valuations in Philadelphia?": Philadelphia\'s test slice from the scorecard', async () => {
    const c = card();
    const src = c.sources.find((s) => s.source === 'philadelphia')!;
    const all = c.accuracy.find((r) => r.source === 'philadelphia' && r.subject === 'record' && r.confidence === 'all')!;
    expect(all.n).toBe(src.test_sales);
    const [{ last }] = await sql<{ last: string }>("select max(sale_date)::varchar as last from oracle_arms where source = 'philadelphia'") as [{ last: string }];
    const r = await answer('How reliable are your automated valuations in Philadelphia?');
    expect(r.answer).not.toMatch(DONT_HAVE);
    expect(r.answer).toContain('for Philadelphia, PA, from the valuation scorecard: Philadelphia OPA property assessments');
    expect(r.answer).toContain(`its sales from ${src.test_start} to ${last} (the last 20% by date, each valued only from earlier sales), ${all.n} sales valued as recorded properties had a median absolute error (MdAPE) of ${p1(all.mdape)}; ${p1(all.ppe10)} were valued within 10% of the sale price (PPE10) and ${p1(all.ppe20)} within 20%; the 80% range held the sale price for ${p1(all.coverage_80!)} of them`);
    expect(r.answer).not.toContain('King County');
    expect(r.sources[0]!.citation).toContain('GET /v1/valuation/scorecard');
  });

  it('a zip is answered by its own source; a place no source values says why', async () => {
    const kc = card().accuracy.find((r) => r.source === 'king_county' && r.subject === 'record' && r.confidence === 'all')!;
    const a = (await answer('how accurate is the AVM in 98103')).answer;
    expect(a).toContain(`${kc.n.toLocaleString('en-US')} sales valued as recorded properties had a median absolute error (MdAPE) of ${p1(kc.mdape)}`);
    const d = (await answer('how reliable are your automated valuations in Denver')).answer;
    expect(d).toContain('We value no properties in Denver, CO');
    expect(d).toContain("has a zip code, and a comparable sale needs one");
  });
});
