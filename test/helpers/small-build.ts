// A published build over one small real source (Louisville's lien file, 396 rows, linked from ../shared/data), for
// the tests of what a later build does to the build that is served (test/pipelines/build.test.ts, faults.test.ts,
// canonical-geography.test.ts). Each of them needs a fresh artifacts folder with such a build published, but what
// they test is the build after it, so the build is made once per test run (./once-per-run.ts) and each caller gets a
// copy of its artifacts folder: `current` is a relative link, so a copy is a published build like the original.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBuild } from '../../pipelines/build.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { PINNED_NOW } from './clock.ts';
import { oncePerRun } from './once-per-run.ts';
import { SHARED_DATA } from './paths.ts';

export const SMALL_SOURCE = 'louisville-metro-lien-foreclosures';

/** A new sources folder holding a link to Louisville's lien file only. */
export function smallSources(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-src-'));
  fs.symlinkSync(path.join(SHARED_DATA, SMALL_SOURCE), path.join(dir, SMALL_SOURCE));
  return dir;
}

/** The run's published small build: made by the first test file that asks for it (./once-per-run.ts). */
const original = (): Promise<string> => oncePerRun('reii-small-build', async (artifacts) => {
  await runBuild({ settings: loadSettings({ artifacts, sources: smallSources() }), log: silentLogger, now: PINNED_NOW });
});

/** A new artifacts folder (under `into`, else the temporary folder) with the small build published in it. */
export async function publishedSmallBuild(into?: string): Promise<{ artifacts: string; dir: string }> {
  const from = await original();
  const artifacts = into ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reii-art-'));
  fs.cpSync(from, artifacts, { recursive: true, verbatimSymlinks: true });
  return { artifacts, dir: currentBuildDir(artifacts)! };
}
