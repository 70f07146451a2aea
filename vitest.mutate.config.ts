// The vitest configuration `npm run mutate` (StrykerJS, stryker.config.mjs) runs: the normal one, limited to the
// unit-level files (test/api/*.unit.test.ts, test/live/**/*.unit.test.ts). Stryker re-runs the tests that cover a
// mutant once per mutant; the integration suites start a full server with every live module (seconds each) or
// build warehouses, which would make a run take hours on two cores. So the score measures these files: a floor
// for what the whole suite catches.
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config.ts';

/** Files that start a server (app, routes) run last: with Stryker's bail, a mutant a pure unit test kills is
 *  killed before any server starts. */
class ServerFilesLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const heavy = (f: TestSpecification): number => (/\/(app|routes)\.unit\.test\.ts$/.test(f.moduleId) ? 1 : 0);
    return [...files].sort((a, b) => heavy(a) - heavy(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/api/*.unit.test.ts', 'test/live/**/*.unit.test.ts'],
    sequence: { sequencer: ServerFilesLast },
    // Stryker prints its own report; the suite's summary line would only repeat per mutant.
    reporters: ['default'],
  },
});
