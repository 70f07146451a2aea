// Review 15 #1: a Redis-mode server exited about 7 s after Redis became unreachable, even idle. A look at the
// outbox asked for while another ran (delivery.ts deliverDue: "look again") was started inside the first look's
// .finally with `void`, so its failure (ioredis: MaxRetriesPerRequestError) was an unhandled rejection, which
// ends a Node process. Here the real Redis webhook store over a real redis-server that is then killed: the second
// look must fail into the log, not into process 'unhandledRejection'. No timing: the test waits until both looks
// have settled (the delivery holds no look any more) and a macrotask has passed, when Node reports rejections.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Delivery } from '../../api/webhooks/delivery.ts';
import { RedisWebhookStore } from '../../api/webhooks/redis-store.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';

let redis: TestRedis;
beforeAll(async () => { redis = await startRedis(); });
afterAll(async () => { await redis.stop(); });

test('with Redis gone, the look asked for during a failing look is logged, not an unhandled rejection', async () => {
  const store = new RedisWebhookStore(redis.url);
  const logged: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => { unhandled.push(reason); };
  process.on('unhandledRejection', onUnhandled);
  try {
    const delivery = new Delivery(store, { schedule: [1000], jitter: 0, timeoutMs: 1000, concurrency: 4, allowPrivate: true, instance: 'test', now: Date.now, log: (msg) => logged.push(msg) });
    await delivery.deliverDue(); // Redis up: an empty outbox
    await redis.stop();
    const first = delivery.deliverDue(); // the tick's look: its caller takes its failure
    const again = delivery.deliverDue(); // a second tick meanwhile: one more look is asked for after it
    await expect(first).rejects.toThrow();
    await expect(again).rejects.toThrow();
    const state = delivery as unknown as { looking: Promise<void> | null };
    await waitFor(() => state.looking === null, { what: 'the look asked for after the failed one to settle', deadlineMs: 30_000 });
    await new Promise((r) => setTimeout(r, 0)); // Node reports unhandled rejections after the microtasks of a turn
    expect(unhandled.map((e) => (e as Error).message)).toEqual([]);
    expect(logged).toContain('webhooks: delivery tick failed');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await redis.start();
    await store.close();
  }
}, 60_000);
