// A valuation stopped by its deadline (warehouse/live.ts, REII_LIVE_TIMEOUT_MS) leaves no cache half-filled: an
// engine whose first requests time out at each check in turn then answers exactly as a fresh engine does.
// The deadline throws at its n-th check (no clock involved).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValuationEngine } from '../../../live/valuation/endpoint.ts';
import { LiveTimeout, type Deadline } from '../../../warehouse/live.ts';
import { buildDir } from '../../helpers/build.ts';

/** A deadline that passes n - 1 checks and throws at the n-th; `checks` counts the calls. */
function throwingAt(n: number): Deadline & { checks: number } {
  const d = { checks: 0, check() { if (++d.checks >= n) throw new LiveTimeout(0); } };
  return d;
}

describe('valuation under a deadline', () => {
  it('times out at each of its checks, runs no check after the throwing one, and leaves the engine as a fresh one', () => {
    const dir = path.join(buildDir(), 'live', 'valuation');
    const input = { zip: '98103', address: '4012 Stone Way N', condition: 'good' as const };
    const stopped = ValuationEngine.fromDir(dir);
    let checks = 0;
    for (let n = 1; ; n++) {
      const d = throwingAt(n);
      let threw = false;
      try { stopped.answer(input, true, d); } catch (e) { expect(e).toBeInstanceOf(LiveTimeout); threw = true; }
      if (!threw) { checks = d.checks; break; }
      expect(d.checks).toBe(n); // nothing ran a check past the one that threw
    }
    expect(checks).toBeGreaterThanOrEqual(3); // market loaded, subject resolved, estimate made
    const fresh = ValuationEngine.fromDir(dir);
    expect(stopped.answer(input)).toEqual(fresh.answer(input));
  });
});
