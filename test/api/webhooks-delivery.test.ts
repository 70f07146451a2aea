// Issue 21 defects 3 and 4: a slow-drip receiver held a delivery worker for ever (per-read timeouts only), and
// a storm of test events from one key took every worker, so other keys' deliveries waited behind it. The
// webhook service (api/webhooks/service.ts) over a real state folder, real receivers on 127.0.0.1. No timing:
// each test waits for a state that the old code never reached (the deadline of waitFor is only a bound), but
// the retry-delay test, which compares a 600 ms wait with the old rule's one tick (20 ms).
import http from 'node:http';
import type net from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { WebhookService } from '../../api/webhooks/service.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { waitFor } from '../helpers/wait.ts';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTmpDirs();
});

/** A receiver on 127.0.0.1: `handler` answers each POST; it records the webhook-ids it was sent. */
async function receiver(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; got: string[]; open: Set<net.Socket> }> {
  const got: string[] = [];
  const open = new Set<net.Socket>();
  const server = http.createServer((req, res) => { got.push(String(req.headers['webhook-id'])); req.resume(); handler(req, res); });
  server.on('connection', (s) => { open.add(s); s.on('close', () => open.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`, got, open };
}

async function service(opts: { timeoutMs: number; concurrency: number; schedule?: number[] }): Promise<WebhookService> {
  const svc = await WebhookService.open({ state: tmp('reii-wh-delivery-'), allowPrivate: true, tickMs: 20, jitter: 0, schedule: [3_600_000], ...opts });
  svc.start();
  closers.push(() => svc.stop());
  return svc;
}

describe('webhook delivery', () => {
  test('a receiver that answers 200 and then drips its body a byte at a time is cut off at the attempt deadline: the worker is free again', async () => {
    const drips: NodeJS.Timeout[] = [];
    closers.push(async () => { for (const d of drips) clearInterval(d); });
    const rx = await receiver((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      drips.push(setInterval(() => { if (!res.destroyed) res.write('.'); }, 100)); // every read arrives well inside any per-read timeout
    });
    const svc = await service({ timeoutMs: 1500, concurrency: 1 });
    const made = (await svc.create('key-a', rx.url, ['build.published'], null))!;
    const first = await svc.sendTest(made.endpoint);
    // The attempt ends (last_delivery recorded, message settled) while the receiver would go on dripping for ever.
    const done = await waitFor(async () => (await svc.endpointsOf('key-a'))[0]!.last_delivery, { what: 'the first attempt to end', deadlineMs: 20_000 });
    expect(done.event_id).toBe(first.id);
    await waitFor(() => rx.open.size === 0, { what: 'the delivery connection closed by the sender' });
    // With one worker, a second event can only be sent if the first attempt let go of it.
    const second = await svc.sendTest(made.endpoint);
    await waitFor(() => rx.got.includes(second.id), { what: 'the second event sent by the only worker', deadlineMs: 20_000 });
  });

  test('a storm of test events from one key whose receiver hangs leaves workers for another key: its event is delivered while the storm still holds its share', async () => {
    const hanging = await receiver(() => { /* never answers */ });
    const quick = await receiver((_req, res) => { res.writeHead(204); res.end(); });
    const svc = await service({ timeoutMs: 120_000, concurrency: 4 });
    const storm = (await svc.create('key-storm', hanging.url, ['build.published'], null))!;
    const other = (await svc.create('key-other', quick.url, ['build.published'], null))!;
    for (let i = 0; i < 20; i++) await svc.sendTest(storm.endpoint);
    await waitFor(() => hanging.got.length >= 2, { what: 'the storm holding workers' });
    const ev = await svc.sendTest(other.endpoint);
    await waitFor(() => quick.got.includes(ev.id), { what: "the other key's event delivered during the storm", deadlineMs: 20_000 });
    await waitFor(async () => (await svc.endpointsOf('key-other'))[0]!.pending_messages === 0, { what: "the other key's outbox empty" });
    // The storm never had more than its share: it still hangs on at most concurrency - 1 attempts, the rest wait.
    expect(hanging.got.length).toBeLessThan(4);
    expect((await svc.endpointsOf('key-storm'))[0]!.pending_messages).toBe(20);
  });

  test('an attempt that times out is retried the schedule\'s delay after its failure, not at once: the wait is not eaten by the deadline', async () => {
    // The delay (600 ms) is shorter than the deadline (1 s): counted from the attempt's start, the retry was
    // already due when the timeout was known and went out at the next tick.
    const arrived: number[] = [];
    const cut: number[] = [];
    const hanging = await receiver((req) => { arrived.push(Date.now()); req.socket.on('close', () => cut.push(Date.now())); });
    const svc = await service({ timeoutMs: 1000, concurrency: 1, schedule: [600] });
    const made = (await svc.create('key-a', hanging.url, ['build.published'], null))!;
    await svc.sendTest(made.endpoint);
    await waitFor(() => arrived.length >= 2, { what: 'the retry', deadlineMs: 20_000 });
    expect(cut.length).toBeGreaterThanOrEqual(1);
    // The sender knows of the failure before the receiver sees its connection cut, so the retry can come no
    // sooner than 600 ms after the cut (less a few ms for the close to travel); the old rule sent it one tick
    // (20 ms) after.
    expect(arrived[1]! - cut[0]!).toBeGreaterThanOrEqual(550);
  });
});
