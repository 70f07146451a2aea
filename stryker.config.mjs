// Mutation testing (issue 17): `npm run mutate`. Slow, not part of CI: run it like a benchmark.
//
//   1. build once with the suite's pinned clock (any folder the test suite's global setup accepts), e.g. leave
//      the folder of an earlier test run, or: REII_TEST_ARTIFACTS=<dir> reuses a build made by `reii build --artifacts <dir>`
//   2. REII_TEST_ARTIFACTS=<dir> npm run mutate              (everything; add -- --mutate api/params.ts for one file)
//
// Reports: reports/mutation/mutation.html and reports/mutation/mutation.json (mutation-testing-report-schema).
// Groups (the goals): request path = params, routes, app, rate-limit, limits, keys, usage (>= 80%);
// engines = valuation-model, research-intent, autocomplete-text (>= 70%).
import fs from 'node:fs';
import path from 'node:path';

const artifacts = process.env.REII_TEST_ARTIFACTS;
if (!artifacts || !fs.existsSync(path.join(artifacts, 'current'))) {
  throw new Error('npm run mutate needs REII_TEST_ARTIFACTS=<artifacts folder with a current build>: '
    + 'each test run inside Stryker would otherwise build the warehouse again. Build once (`npx reii build --artifacts <dir>`), then mutate.');
}

// Stryker runs the tests in a copy of the project under .stryker-tmp/sandbox-*/; the tests read ../shared
// (raw data, legal facts) relative to the project, so the copy needs that neighbour too.
const here = path.dirname(new URL(import.meta.url).pathname);
const tmp = path.join(here, '.stryker-tmp');
fs.mkdirSync(tmp, { recursive: true });
const link = path.join(tmp, 'shared');
if (!fs.existsSync(link)) fs.symlinkSync(path.resolve(here, '../shared'), link);

const REQUEST_PATH = ['api/params.ts', 'api/routes.ts', 'api/app.ts', 'api/request.ts', 'api/route-match.ts', 'api/auth.ts', 'api/limit-checks.ts', 'api/answer.ts', 'api/send.ts', 'api/rate-limit.ts', 'api/limits.ts', 'api/keys.ts', 'api/usage.ts'];
const ENGINES = ['live/valuation/estimate.ts', 'live/valuation/comps.ts', 'live/valuation/fit.ts', 'live/valuation/interval.ts', 'live/valuation/helpers.ts', 'live/research/intent.ts', 'live/research/places.ts', 'live/autocomplete/text.ts', 'live/location/rules.ts', 'live/places/names.ts', 'live/places/resolver.ts', 'live/places/question.ts'];

// REII_MUTATE_GROUP=request or =engines mutates one group (its own reports and incremental file); unset: both.
const group = process.env.REII_MUTATE_GROUP ?? 'all';
const FILES = { request: REQUEST_PATH, engines: ENGINES, all: [...REQUEST_PATH, ...ENGINES] }[group];
if (!FILES) throw new Error(`REII_MUTATE_GROUP must be request or engines (got ${group})`);
const suffix = group === 'all' ? '' : `-${group}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // related: false: perTest coverage already names the tests to run for each mutant; vitest need not trace imports too.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: FILES,
  coverageAnalysis: 'perTest',
  // Mutants in code that runs only at import time (route tables, word lists) would need every test file per
  // mutant; they are reported as ignored instead of run.
  ignoreStatic: true,
  concurrency: 1,
  // A mutant that hangs a request is cut off soon after the covering tests' normal time (and counted as detected).
  timeoutMS: 5_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/mutation${suffix}.html` },
  jsonReporter: { fileName: `reports/mutation/mutation${suffix}.json` },
  thresholds: { high: 80, low: 70, break: null },
  // Re-runs only the mutants whose code or covering tests changed since the last run (delete the file for a clean run).
  incremental: true,
  incrementalFile: `reports/mutation/stryker-incremental${suffix}.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
