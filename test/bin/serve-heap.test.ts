// The V8 flags `npm start` and `npm run serve` give node (package.json, read as the bench reads them:
// scripts/bench/serve.ts serveArgs) bound the old generation's growth: a process holding ~130 MB of live objects while
// it keeps promoting garbage (what loading a build's live files and answering valuation requests do) commits at most
// about twice that. V8's own growth factor (up to 4x on a small heap) let the same process reach ~577 MB; the server
// measured 331 MB of RSS after valuing every market (bench valuation part, goal < 300 MB) with ~90 MB live after a gc.
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { serveArgs } from '../../scripts/bench/serve.ts';
import { REPO } from '../helpers/paths.ts';

// ~90 MB live in one array; a ring of 300,000 objects replaced one by one, so each lives through several scavenges
// and is promoted before it dies; heapTotal sampled as it goes; the live size measured at the end after full gcs.
const CHURN = `
const live = []; for (let i = 0; i < 600000; i++) live.push({ a: i, b: 'x' + i, c: [i, i + 1] });
let maxTotal = 0; const N = 300000; const ring = new Array(N);
for (let k = 0; k < 4000000; k++) {
  ring[k % N] = { k, s: 'y' + k, arr: [k, k + 1, k + 2] };
  if (k % 10000 === 0) maxTotal = Math.max(maxTotal, process.memoryUsage().heapTotal);
}
gc(); gc();
process.stdout.write(JSON.stringify({ live: process.memoryUsage().heapUsed, maxTotal, n: live.length + ring.length }));
`;

/** One run of CHURN under the given V8 flags: the most heap V8 committed over the live size left after full gcs. */
function churn(v8Flags: string[]): number {
  const run = spawnSync(process.execPath, [...v8Flags, '--expose-gc', '-e', CHURN], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  const { live, maxTotal, n } = JSON.parse(run.stdout) as { live: number; maxTotal: number; n: number };
  expect(n).toBe(900_000);
  expect(live / 2 ** 20).toBeGreaterThan(100);
  return maxTotal / live;
}

// Compared with V8's defaults in the same test (CI's load delays concurrent marking, which moves both runs: under a
// load of 12 on 2 cores the flagged run reached 2.34x live where an idle machine reads under 2.2x; the defaults 3.8-5.5x).
test('the serve script\'s node flags keep the heap within about twice its live size under promoted garbage', () => {
  const args = serveArgs(REPO);
  const v8Flags = args.slice(0, args.indexOf('--import'));
  expect(v8Flags).toContain('--max-semi-space-size=16');
  expect(v8Flags).toContain('--heap-growing-percent=50');
  const flagged = churn(v8Flags);
  const defaults = churn([]);
  expect(flagged).toBeLessThan(2.6);
  expect(flagged).toBeLessThan(0.8 * defaults);
}, 240_000);
