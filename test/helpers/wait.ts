// Waiting for an event in a test: poll a condition until it holds, and fail only when a deadline well above
// any promised latency has passed. Never a fixed sleep followed by an assertion: a sleep is either too short
// on a loaded machine (a flake) or longer than needed (a slow suite), and it cannot prove that something
// did NOT happen. To show that, wait for a later marker event ordered after it, or for a quiescent state.

export interface WaitOptions {
  /** What is awaited, for the failure message ("the revocation on instance 2"). */
  what: string;
  /** Fail after this long (default 15 s): far above any bound the product promises. */
  deadlineMs?: number;
  /** Time between checks (default 50 ms). */
  intervalMs?: number;
}

/** Resolves with the condition's first truthy value; rejects with `what` once the deadline has passed.
 *  The condition is checked once more after the deadline, so a slow last interval never fails a test
 *  whose event did happen. Errors thrown by the condition fail the wait at once. */
export async function waitFor<T>(condition: () => T | Promise<T>, opts: WaitOptions): Promise<NonNullable<T>> {
  const deadlineMs = opts.deadlineMs ?? 15_000;
  const intervalMs = opts.intervalMs ?? 50;
  const end = Date.now() + deadlineMs;
  let last: T;
  for (;;) {
    last = await condition();
    if (last) return last as NonNullable<T>;
    if (Date.now() >= end) break;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  last = await condition();
  if (last) return last as NonNullable<T>;
  throw new Error(`timed out after ${deadlineMs} ms waiting for ${opts.what} (last check: ${describe(last)})`);
}

function describe(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 200 ? `${s.slice(0, 200)}...` : s;
  } catch {
    return String(v);
  }
}
