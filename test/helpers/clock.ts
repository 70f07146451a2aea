// A server whose clock the test holds: per-minute windows, the failed-key window, monthly quotas,
// X-RateLimit-Reset and Retry-After read the injected clock (startServer's `now`), so a limit test can
// never straddle a window boundary, and the window's end can be checked exactly and then crossed at will.
import { startTestServer, type TestServer } from './server.ts';

/** The one pinned "now" of the suite: the shared build's clock (as_of 2026-11-21), given rows' build time, log times. */
export const PINNED_NOW = new Date('2026-11-21T06:00:00Z');
/** Its date: the shared build's data date (manifest as_of), the `today` of the answers that tell a figure's age. */
export const PINNED_TODAY = PINNED_NOW.toISOString().slice(0, 10);

export interface ManualClock {
  now(): number;
  set(t: number): void;
  advance(ms: number): void;
}

/** A clock that stands still until the test moves it. */
export function manualClock(start: number | string): ManualClock {
  let t = typeof start === 'number' ? start : Date.parse(start);
  if (!Number.isFinite(t)) throw new Error(`bad clock start ${String(start)}`);
  return { now: () => t, set: (x) => { t = x; }, advance: (ms) => { t += ms; } };
}

/** startTestServer (test/helpers/server.ts) over a memory key store, on a clock the test holds. */
export function startClockedServer(artifacts: string, clock: ManualClock, opts: { state?: string; anonymous?: { requestsPerMinute: number; failedAuthPer10Min: number }; trustedProxies?: string } = {}): Promise<TestServer> {
  return startTestServer(artifacts, { ...opts, now: () => clock.now() });
}
