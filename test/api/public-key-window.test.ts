// Issue 21 (fuzzer finding): a valid key on a public endpoint was counted against its address's window, which
// anyone's failed keys from the same address also use up. Now a valid key counts in its own window there. A
// real server on a held clock (no window boundary can fall between the calls).
import { afterAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { manualClock, PINNED_NOW, startClockedServer } from '../helpers/clock.ts';
import type { TestServer } from '../helpers/server.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.close(); });

describe('public endpoints with a key', () => {
  test("failed keys fill the address's window: a keyless public call is refused, a valid key's public call is not (it counts in the key's window)", async () => {
    srv = await startClockedServer(artifactsDir(), manualClock(PINNED_NOW.getTime()), { anonymous: { requestsPerMinute: 3, failedAuthPer10Min: 100 } });
    const key = srv.key('starter'); // 10 per minute
    for (let i = 0; i < 3; i++) expect((await srv.get('/v1/geo/states', `ries_live_AAAAAAAA_${'B'.repeat(32)}`)).status).toBe(401);
    const keyless = await srv.get('/v1/coverage/summary');
    expect(keyless.status).toBe(429);
    const keyed = await srv.get('/v1/coverage/summary', key);
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('10');
    expect(keyed.headers.get('x-ratelimit-remaining')).toBe('9');
    // A failing key on a public call is just a keyless call: the address's window, still full.
    expect((await srv.get('/v1/coverage/summary', `ries_live_AAAAAAAA_${'C'.repeat(32)}`)).status).toBe(429);
    // The key's own window is used up by its public calls too.
    for (let i = 0; i < 9; i++) expect((await srv.get('/v1/health', key)).status).toBe(200);
    const over = await srv.get('/v1/coverage/summary', key);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { message: string }).message).toMatch(/Per-minute rate limit of 10/);
  });
});
