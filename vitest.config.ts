import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Builds over the real sources take tens of seconds on two cores.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    env: { TZ: 'UTC' },
  },
});
