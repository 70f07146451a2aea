// Research comparisons of ranked scores (landlord friendliness, market legal risk) say which place ranks first, and
// the verdict follows the scores recomputed here from the warehouse's `regulations` records with the formulas of
// warehouse/docs/legal.md (test/helpers/oracle-research-legal.ts), never from the shards the answer reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { researchData } from '../../helpers/research.ts';
import { closeResearchOracle, openResearchOracle } from '../../helpers/oracle-research.ts';
import { friendlinessOf, legalRiskOf } from '../../helpers/oracle-research-legal.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let engine: ResearchEngine;
const ask = async (query: string, depth: 'quick' | 'deep' = 'quick') => (await engine.answer({ query, depth })).answer;
const one = (n: number): string => (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, '');

beforeAll(async () => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  await openResearchOracle(buildDir());
});
afterAll(() => closeResearchOracle());

/** The name of the highest-scoring entry (the scores of these cases are never tied). */
const best = (scores: Record<string, number>): string => Object.entries(scores).sort((a, b) => b[1] - a[1])[0]![0];

describe('a comparison names the place that ranks first', () => {
  it('landlord friendliness of two states, asked as "which is better": the higher score is named, each score "out of 100"', async () => {
    const s = { Ohio: friendlinessOf('OH'), Michigan: friendlinessOf('MI') };
    expect(s.Ohio).not.toBe(s.Michigan);
    for (const depth of ['quick', 'deep'] as const) {
      const a = await ask('which is better for landlords, ohio or michigan', depth);
      // quick: "Ohio 77.2 out of 100 (...)"; deep, side by side: "Ohio: 77.2 out of 100 (...)"
      expect(a).toMatch(new RegExp(`Ohio:? ${one(s.Ohio).replace('.', '\\.')} out of 100`));
      expect(a).toMatch(new RegExp(`Michigan:? ${one(s.Michigan).replace('.', '\\.')} out of 100`));
      expect(a).toContain(`so ${best(s)} is the more landlord-friendly`);
    }
  });

  it('three states (one misspelled): the most landlord-friendly of the three', async () => {
    const s = { Texas: friendlinessOf('TX'), California: friendlinessOf('CA'), Florida: friendlinessOf('FL') };
    const a = await ask('compare landlord friendliness of texas, califronia and florida');
    for (const [name, v] of Object.entries(s)) expect(a).toContain(`${name} ${one(v)} out of 100`);
    expect(a).toContain(`so ${best(s)} is the most landlord-friendly`);
  });

  it('market legal risk of two cities: the riskier one for a landlord is named', async () => {
    const s = { 'Seattle, WA': legalRiskOf('WA', 'Seattle'), 'Austin, TX': legalRiskOf('TX', 'Austin') };
    const a = await ask('legal risk Seattle WA vs Austin TX');
    for (const [name, v] of Object.entries(s)) expect(a).toContain(`${name} ${one(v)}`);
    expect(a).toContain(`so ${best(s)} carries the higher legal risk for a landlord`);
  });
});
