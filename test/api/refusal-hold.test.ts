// A caller that keeps calling after its 429 gets its later 429s held back (api/refusals.ts, README "Limits"), so
// a client looping on refusals (the webhook test-event storm of issue 21) cannot crowd out other keys. Real
// server on loopback, real build; the hold is set to a minute so "held" cannot be mistaken for "slow", and the
// held answers are released by closing the server. No timing is measured here (that is the storm bench's).
import { afterEach, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { manualClock, PINNED_NOW } from '../helpers/clock.ts';

const SEATTLE = '/v1/geo/lookup?city=Seattle&state=WA';
let srv: TestServer | null = null;
afterEach(async () => { await srv?.close(); srv = null; });

/** 'answered' when the request's answer has arrived, 'held' while it has not. */
const settled = (p: Promise<unknown>): Promise<'answered' | 'held'> => Promise.race([p.then(() => 'answered' as const), new Promise<'held'>((r) => setImmediate(() => r('held')))]);

describe('repeated refusals are held', () => {
  test('a key refused again before its Retry-After ran out waits; other keys (and a first refusal) are answered meanwhile; the held 429 is the same answer', async () => {
    const clock = manualClock(PINNED_NOW.getTime() + 5_000); // one minute window for the whole test
    srv = await startTestServer(artifactsDir(), { refusalHoldMs: 60_000, now: () => clock.now() });
    const looping = srv.key('pro', 1); // one call a minute: the second is refused
    const other = srv.key('pro');
    const firstRefusedLater = srv.key('builder', 1);

    expect((await srv.get(SEATTLE, looping)).status).toBe(200);
    const first = await srv.get(SEATTLE, looping); // the first refusal: at once
    expect(first.status).toBe(429);
    const firstBody = await first.json();
    const again = srv.get(SEATTLE, looping); // refused again within its Retry-After: held

    for (let i = 0; i < 3; i++) {
      const r = await srv.get(SEATTLE, other);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
    expect((await srv.get(SEATTLE, firstRefusedLater)).status).toBe(200);
    const otherFirst = await srv.get(SEATTLE, firstRefusedLater); // another caller's first refusal is not held
    expect(otherFirst.status).toBe(429);
    expect(await settled(again)).toBe('held');
    expect(srv.logs.filter((l) => l['status'] === 429).map((l) => l['key_id'])).toEqual([looping.split('_')[2], firstRefusedLater.split('_')[2]]);

    const closing = srv.close(); // stopping releases what is held
    const held = await again;
    await closing;
    expect(held.status).toBe(429);
    expect(await held.json()).toEqual(firstBody);
    expect([...held.headers.keys()].sort()).toEqual([...first.headers.keys()].sort());
    expect(held.headers.get('retry-after')).toBe(first.headers.get('retry-after'));
    expect(held.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(srv.logs.filter((l) => l['status'] === 429)).toHaveLength(3);
  });

  test('with REII_REFUSAL_HOLD_MS=0 every refusal is answered at once', async () => {
    const clock = manualClock(PINNED_NOW.getTime() + 5_000);
    srv = await startTestServer(artifactsDir(), { refusalHoldMs: 0, now: () => clock.now() });
    const looping = srv.key('pro', 1);
    expect((await srv.get(SEATTLE, looping)).status).toBe(200);
    expect((await srv.get(SEATTLE, looping)).status).toBe(429);
    const again = srv.get(SEATTLE, looping);
    for (let i = 0; i < 3; i++) await (await srv.get(SEATTLE, srv.key('pro'))).arrayBuffer();
    expect(await settled(again)).toBe('answered');
    expect((await again).status).toBe(429);
  });
});
