// One real build over ../shared/data per test run, shared by every test file that imports ./build.ts. It runs in a
// child process (./shared-build.ts) while the test files that do not need it run (./sequencer.ts orders them
// first); ./build.ts waits for it. REII_TEST_ARTIFACTS=<dir> reuses an existing artifacts folder (with a current
// build) while developing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PINNED_NOW } from './clock.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { SHARED_BUILD_EXIT, SHARED_BUILD_LOG } from './build-status.ts';

export { PINNED_NOW }; // until every test imports it from ./clock.ts

declare module 'vitest' {
  export interface ProvidedContext {
    artifacts: string;
    /** The folder of the shared build's exit status and log (./build-status.ts). */
    sharedBuild: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reuse = process.env['REII_TEST_ARTIFACTS'];
  // Every temporary folder of the run (test servers' state folders, builds, receivers' files) is made under one
  // folder of its own, removed at teardown: the workers inherit TMPDIR, so os.tmpdir() is this folder in each.
  const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-test-run-'));
  const outerTmp = process.env['TMPDIR'];
  process.env['TMPDIR'] = runTmp;
  const root = fs.mkdtempSync(path.join(runTmp, 'reii-test-artifacts-'));
  const done = (code: number | null, signal: string | null): void => {
    if (fs.existsSync(path.join(root, SHARED_BUILD_EXIT))) return; // 'error' and 'exit' may both report one failure
    const tmp = path.join(root, `${SHARED_BUILD_EXIT}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify({ code, signal }));
    fs.renameSync(tmp, path.join(root, SHARED_BUILD_EXIT));
  };
  let child: ChildProcess | null = null;
  if (reuse && currentBuildDir(path.resolve(reuse))) {
    project.provide('artifacts', path.resolve(reuse));
    done(0, null);
  } else {
    const artifacts = path.join(root, 'artifacts');
    fs.mkdirSync(artifacts);
    project.provide('artifacts', artifacts);
    const logFile = path.join(root, SHARED_BUILD_LOG);
    const log = fs.openSync(logFile, 'w');
    child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'shared-build.ts'), artifacts], { stdio: ['ignore', log, log] });
    fs.closeSync(log); // the child holds its own copy
    child.on('error', (err) => { fs.appendFileSync(logFile, `could not start the shared build: ${err.message}\n`); done(null, 'not started'); });
    child.on('exit', (code, signal) => done(code, signal));
  }
  project.provide('sharedBuild', root);
  return async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (outerTmp === undefined) delete process.env['TMPDIR']; else process.env['TMPDIR'] = outerTmp;
    fs.rmSync(runTmp, { recursive: true, force: true });
  };
}
