// The shared test build's outcome, as the global setup (./global-setup.ts) records it for the test files: an exit
// file written once the build process ends, and its log.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const SHARED_BUILD_EXIT = 'build-exit.json';
export const SHARED_BUILD_LOG = 'build.log';

/** Resolves once the shared build is published; throws with the build's log when it failed. */
export async function waitForSharedBuild(root: string, timeoutMs = 30 * 60_000): Promise<void> {
  const exitFile = path.join(root, SHARED_BUILD_EXIT);
  const until = Date.now() + timeoutMs;
  while (!fs.existsSync(exitFile)) {
    if (Date.now() > until) throw new Error(`the shared test build did not finish within ${timeoutMs / 60_000} minutes (log: ${path.join(root, SHARED_BUILD_LOG)})`);
    await sleep(250);
  }
  const { code, signal } = JSON.parse(fs.readFileSync(exitFile, 'utf8')) as { code: number | null; signal: string | null };
  if (code === 0) return;
  const logFile = path.join(root, SHARED_BUILD_LOG);
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '(no log)';
  throw new Error(`the shared test build failed (${signal ?? `exit ${code}`}):\n${log}`);
}
