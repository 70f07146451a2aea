// One real build over ../shared/data per test run, shared by every test file through inject('artifacts').
// REII_TEST_ARTIFACTS=<dir> reuses an existing artifacts folder (with a current build) while developing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PINNED_NOW } from './clock.ts';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';


export { PINNED_NOW }; // until every test imports it from ./clock.ts

declare module 'vitest' {
  export interface ProvidedContext {
    artifacts: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const reuse = process.env['REII_TEST_ARTIFACTS'];
  if (reuse && currentBuildDir(path.resolve(reuse))) {
    project.provide('artifacts', path.resolve(reuse));
    return () => {};
  }
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-test-artifacts-'));
  const settings = loadSettings({ artifacts });
  await runBuild({ settings, log: silentLogger, now: PINNED_NOW });
  project.provide('artifacts', artifacts);
  return () => fs.rmSync(artifacts, { recursive: true, force: true });
}
