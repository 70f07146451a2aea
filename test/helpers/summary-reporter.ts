// Prints the plain closing line CI reads: "N passed, N failed" (", N skipped" when any were skipped).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let failedTests = 0;
      for (const t of mod.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedTests++;
        else skipped++;
      }
      // a file that failed to load, or whose beforeAll / afterAll failed (its tests then read as skipped), is a failure
      failed += mod.state() === 'failed' ? Math.max(1, failedTests) : failedTests;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
