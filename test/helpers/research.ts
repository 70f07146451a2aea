// What several research test files share: the shared real build's research index (live/research/build.ts), how an
// honest "don't have" answer reads, and a file's engine with the research oracle open (askWithSalesOracle).
import { afterAll, beforeAll, expect } from 'vitest';
import { ResearchData } from '../../live/research/data.ts';
import { ResearchEngine } from '../../live/research/endpoint.ts';
import { buildDir } from './build.ts';
import { PINNED_TODAY } from './clock.ts';
import { closeResearchOracle, openResearchOracle } from './oracle-research.ts';
import { windowSalesOracle } from './oracle-research-market.ts';

export const DONT_HAVE = /don't have|do not have|we have no|not part of this build|no data for/i;

/** The research index of the shared real build; a build without it fails the test file. */
export function researchData(): ResearchData {
  const d = ResearchData.fromBuild(buildDir());
  if (!d) throw new Error('the shared build has no live/research index (live/research/build.ts)');
  return d;
}

/** For the calling test file: an engine (quick answers unless deep is asked) over the shared build (the pinned day), and the research oracle
 *  open with its oracle_arms table made, before the file's tests; the oracle closed after them. */
export function askWithSalesOracle(): (query: string, depth?: 'quick' | 'deep') => ReturnType<ResearchEngine['answer']> {
  let engine: ResearchEngine | undefined;
  beforeAll(async () => {
    engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
    await openResearchOracle(buildDir());
    await windowSalesOracle({ state: 'WA', city: 'Seattle' }, 'sfr', 3); // makes the oracle_arms table
  }, 600_000);
  afterAll(() => closeResearchOracle());
  return (query, depth = 'quick') => engine!.answer({ query, depth });
}

/** An answer without its window coverage clauses (" (the source covers ...)": live/research/window-gaps.ts), for a test
 *  of a window's figure alone; the clauses have their own tests (month-coverage, review-23-periods). */
export const withoutCoverage = (answer: string): string => answer.replace(/ \(the source covers [^)]*\)/g, '');

/** An answer after its reading ("Reading "X" as Y (...): "), which must start it and match `lead`. */
export async function afterReading(ask: (query: string) => Promise<string>, query: string, lead: RegExp): Promise<string> {
  const a = await ask(query);
  const m = lead.exec(a);
  expect(m, `${query}: ${a}`).not.toBeNull();
  expect(m!.index, query).toBe(0);
  return a.slice(m![0].length);
}
