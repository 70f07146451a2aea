// The eighth research review's findings (answers side), over the shared real build on the suite's pinned clock.
// Figures are read from the build's own endpoint shards or recomputed from its base tables, never hard-coded.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { readShard } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
const ask = (query: string, depth: 'quick' | 'deep' = 'quick') => engine.answer({ query, depth });

beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

describe('finding 2: distressed properties, foreclosures, tax delinquent: the distressed pipeline', () => {
  const pipeline = (city: string, months: number): number => readShard<{ distressed_pipeline_count: number }>(`market/investor/PA/${city}/${months}.json`).distressed_pipeline_count;
  it('answers a distress question of a city with its pipeline, never the investor ranking nor a sales count', async () => {
    const cases: [string, string, number][] = [
      ['distressed properties in Penn Hills, PA', 'penn-hills-township', 12],
      ['how many distressed properties in Penn Hills last 6 months', 'penn-hills-township', 6],
      ['foreclosures in Penn Hills, PA', 'penn-hills-township', 12],
      ['pre-foreclosures in Pittsburgh PA', 'pittsburgh', 12],
      ['tax delinquent properties in Pittsburgh', 'pittsburgh', 12],
      ['foreclosure filings in Pittsburgh', 'pittsburgh', 12],
    ];
    for (const [q, city, months] of cases) {
      const r = await ask(q);
      expect(r.answer, q).toContain(`${pipeline(city, months).toLocaleString('en-US')} distressed properties (pre-foreclosure, tax-delinquent or lien filings) are in the pipeline over the ${months} months`);
      expect(r.answer, q).not.toMatch(/Investor purchase rates|judicial|sales for|single-family/);
    }
  });
  it('never answers distress with no city by the investor purchase-rate ranking; the foreclosure law stays the law', async () => {
    const r = await ask('distressed properties');
    expect(r.answer).not.toMatch(/Investor purchase rates|%/);
    expect(r.answer).toMatch(/counted per city/);
    const law = await ask('how do foreclosures work in Texas');
    expect(law.answer).toMatch(/non-judicial/);
    expect(law.answer).not.toMatch(/distressed/);
  });
});
