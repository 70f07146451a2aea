// The cooperative deadline of the time-boxed live answers (warehouse/live.ts): an injected clock, never the wall clock.
import { describe, expect, test } from 'vitest';
import { deadlineIn, LiveTimeout, NO_DEADLINE, timeBoxed } from '../../warehouse/live.ts';

describe('deadlineIn', () => {
  test('check() passes before the budget is spent and throws LiveTimeout from then on', () => {
    let t = 100;
    const d = deadlineIn(5, () => t);
    d.check();
    t = 104.9;
    d.check();
    t = 105;
    expect(() => d.check()).toThrow(LiveTimeout);
  });

  test('a budget of 0 throws at the first check; NO_DEADLINE never throws', () => {
    expect(() => deadlineIn(0, () => 7).check()).toThrow(LiveTimeout);
    expect(() => NO_DEADLINE.check()).not.toThrow();
  });

  test('timeBoxed: a LiveTimeout is the upstream_timeout answer, and no stage after the throwing check runs', async () => {
    const ran: string[] = [];
    const answer = await timeBoxed(0, (d) => { ran.push('read'); d.check(); ran.push('retrieve'); return { ok: true, body: 1 }; });
    expect(answer).toMatchObject({ ok: false, code: 'upstream_timeout' });
    expect((answer as { message: string }).message).toContain('retry with a different set of query parameters');
    expect(ran).toEqual(['read']);
  });

  test('timeBoxed: any other failure is rethrown (a defect, answered 500)', async () => {
    await expect(timeBoxed(1000, () => { throw new TypeError('boom'); })).rejects.toThrow(TypeError);
  });
});
