// The twentieth research review's wrong answers, over the shared real build on the suite's pinned clock (2026-11-21):
// a future year asked of prices read as a forecast (forecast.ts); expected figures are our own SQL over the raw files
// in ../shared/data (warehouse/docs/market.md: King County's file is arm's-length sales, a row listed twice once).
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { NO_FORECAST } from '../../../live/research/forecast.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string, context?: Record<string, string>): Promise<string> => (await engine.answer({ query, depth: 'quick', ...(context ? { context } : {}) })).answer;

describe('a year after today asked of prices is a forecast asked', () => {
  it('"how much will Denver prices rise in 2027", "median price in Seattle in 2028": no forecast, then the past trend, never "outside the data"', async () => {
    for (const [q, trend] of [['how much will Denver prices rise in 2027', 'price trend in Denver'], ['median price in Seattle in 2028', 'price trend in Seattle']] as const) {
      const r = await ask(q);
      expect(r, q).toMatch(new RegExp(`^${NO_FORECAST.replace(/[.]/g, '\\.')} `));
      expect(r.slice(NO_FORECAST.length + 1), q).toBe(await ask(trend));
      expect(r, q).not.toMatch(/outside the data/);
    }
    // a past year stays that year's answer
    expect(await ask('median price in Seattle in 2015')).toMatch(/^In Seattle, WA, in 2015 there were/);
  });
});
