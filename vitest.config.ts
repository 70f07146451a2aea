import os from 'node:os';
import { defineConfig } from 'vitest/config';
import SharedBuildLast from './test/helpers/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Builds over the real sources take tens of seconds on two cores.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on the two-core CI machine. Most test time is
    // waiting on servers, child processes and DuckDB, so a worker per core (at least two) runs the suite in less time.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // The shared build runs in the background (test/helpers/global-setup.ts): the files that do not read it go first.
    sequence: { sequencer: SharedBuildLast },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    env: { TZ: 'UTC' },
  },
});
