// What several research test files share: the shared real build's research index (live/research/build.ts) and how an
// honest "don't have" answer reads.
import { ResearchData } from '../../live/research/data.ts';
import { buildDir } from './build.ts';

export const DONT_HAVE = /don't have|do not have|we have no|not part of this build|no data for/i;

/** The research index of the shared real build; a build without it fails the test file. */
export function researchData(): ResearchData {
  const d = ResearchData.fromBuild(buildDir());
  if (!d) throw new Error('the shared build has no live/research index (live/research/build.ts)');
  return d;
}
