// The vitest configuration `npm run mutate` (StrykerJS, stryker.config.mjs) runs: the normal one, limited to the
// unit-level files (test/api/*.unit.test.ts, test/live/*.unit.test.ts). Stryker re-runs the tests that cover a
// mutant once per mutant; the integration suites start a full server with every live module (seconds each) or
// build warehouses, which would make a run take hours on two cores. So the score measures these files: a floor
// for what the whole suite catches.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/api/*.unit.test.ts', 'test/live/*.unit.test.ts'],
    // Stryker prints its own report; the suite's summary line would only repeat per mutant.
    reporters: ['default'],
  },
});
