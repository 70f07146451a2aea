// The two answers of one typed address over a shared-build server: GET /v1/property (status and body) and
// POST /v1/valuation/estimate (asserted 200), for the tests of how an address is read (typo, left-out words); and a
// research question's answer over the same server (asserted 200), for the tests of an address asked in a question.
import { expect } from 'vitest';
import type { serveSharedBuild } from './build.ts';
import type { ValuationBody } from '../../live/valuation/endpoint.ts';

export function addressAnswers(api: ReturnType<typeof serveSharedBuild>): {
  property: (zip: string, address: string) => Promise<{ status: number; body: Record<string, unknown> }>;
  value: (zip: string, address: string) => Promise<ValuationBody>;
} {
  return {
    property: async (zip, address) => {
      const res = await api.get(`/v1/property?zip=${zip}&address=${encodeURIComponent(address)}`);
      return { status: res.status, body: await res.json() as Record<string, unknown> };
    },
    value: async (zip, address) => {
      const res = await api.post('/v1/valuation/estimate', { zip, address });
      expect(res.status, address).toBe(200);
      return await res.json() as ValuationBody;
    },
  };
}

export interface ResearchAnswer { answer: string; sources: { type: string; category: string; citation: string }[]; confidence: string }

/** POST /v1/research/query over a shared-build server, asserted 200. */
export function researchAsker(api: ReturnType<typeof serveSharedBuild>): (query: string, depth?: 'quick' | 'deep') => Promise<ResearchAnswer> {
  return async (query, depth = 'quick') => {
    const r = await api.post('/v1/research/query', { query, depth });
    expect(r.status, query).toBe(200);
    return await r.json() as ResearchAnswer;
  };
}
