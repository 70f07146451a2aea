// Review 15 #1: a Redis-mode server exited about 7 s after Redis became unreachable, even idle. A look at the
// outbox asked for while another ran (delivery.ts deliverDue: "look again") was started inside the first look's
// .finally with `void`, so its failure (ioredis: MaxRetriesPerRequestError) was an unhandled rejection, which
// ends a Node process. Here the real Redis webhook store over a real redis-server that is then killed: the second
// look must fail into the log, not into process 'unhandledRejection'. No timing: the test waits until both looks
// have settled (the delivery holds no look any more) and a macrotask has passed, when Node reports rejections. Then a
// real `reii serve` with the default tick: the old code died within its first 20 failed looks (exit 1, MaxRetriesPerRequestError).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { Delivery } from '../../api/webhooks/delivery.ts';
import { RedisWebhookStore } from '../../api/webhooks/redis-store.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { REPO } from '../helpers/paths.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

let redis: TestRedis;
beforeAll(async () => { redis = await startRedis(); });
afterAll(async () => { await redis.stop(); removeTmpDirs(); });

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

test('a Redis-mode `reii serve`, idle, outlives Redis going away: 20 failed outbox looks later it still answers, degraded', async () => {
  const artifacts = tmp('reii-whdown-art-');
  publish(artifacts, fakeBuild(artifacts, 'b1', 1));
  const child = spawn('node', ['--import', 'tsx', 'bin/cli.ts', 'serve', '--port', '0', '--artifacts', artifacts, '--state', tmp('reii-whdown-state-')], {
    cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REII_REDIS_URL: redis.url },
  });
  let stderr = '';
  let exited: number | string | null = null;
  child.on('exit', (code, signal) => { exited = code ?? signal; });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); const m = /serving (http:\/\/\S+)/.exec(stderr); if (m) resolve(m[1]!); });
      child.on('exit', (code) => reject(new Error(`instance exited ${code}`)));
    });
    await redis.stop();
    // Each failed look is logged; the old code's unhandled rejection ended the process after a few of them (~7 s).
    await waitFor(() => exited !== null || (stderr.match(/webhooks: delivery tick failed/g) ?? []).length >= 20, { what: '20 failed outbox looks', deadlineMs: 60_000 });
    expect(exited, stderr.slice(-2000)).toBeNull();
    const health = (await (await fetch(`${url}/v1/health`)).json()) as { limits: { status: string } };
    expect(health.limits.status).toBe('degraded');
  } finally {
    if (exited === null) child.kill('SIGKILL');
    await redis.start();
  }
}, 120_000);
