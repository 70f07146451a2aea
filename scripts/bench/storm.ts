// Storm part (issue 21 defect 4): another client's p99 on a shard endpoint, quiet and while one key fires a
// storm of webhook test events (POST /v1/webhooks/{id}/test, 10 connections) at an endpoint whose receiver
// takes a second to answer. Same server, same run; goal: the storm p99 within 2x the quiet p99. A third run sends the
// same storm of requests at an id the key does not own (404: the same keyed path and lookup, no event queued), so
// the figure beside it separates what the webhook work adds from what the storm's request load alone costs on
// these 2 cores (the load generators share them with the server). The storm key's 429s after its first are held
// (api/refusals.ts), so its row of answers per second shows how far its connections were slowed; the 404s are not
// refusals and are never held.
import http from 'node:http';
import type net from 'node:net';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { KeyStore } from '../../api/keys.ts';
import { load, startReal } from './serve.ts';

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (!currentBuildDir(ctx.artifacts)) return [{ part: 'storm', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  // A slow receiver on loopback (private targets allowed for this server only).
  const rx = http.createServer((req, res) => { req.resume(); setTimeout(() => { res.writeHead(204); res.end(); }, 1000).unref(); });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  const real = await startReal(ctx.repo, ctx.artifacts, { REII_WEBHOOKS_ALLOW_PRIVATE: '1' });
  try {
    const store = new KeyStore(real.state);
    const stormKey = store.create({ plan: 'enterprise', name: 'storm', rpm: null }).key;
    store.close();
    const reg = await fetch(`${real.url}/v1/webhooks`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Key': stormKey },
      body: JSON.stringify({ url: `http://127.0.0.1:${(rx.address() as net.AddressInfo).port}/hook`, events: ['build.published'] }),
    });
    if (reg.status !== 201) throw new Error(`webhook registration answered ${reg.status}: ${await reg.text()}`);
    const { id } = (await reg.json()) as { id: string };
    const target = `${real.url}/v1/geo/lookup?city=Seattle&state=WA`;
    const other = { headers: { 'X-Service-Key': real.key }, connections: 10, duration: 8 };
    await load(target, { ...other, duration: 2 }); // warm-up
    const quiet = await load(target, other);
    const [stormed, storm] = await Promise.all([
      load(target, other),
      load(`${real.url}/v1/webhooks/${id}/test`, { method: 'POST', headers: { 'X-Service-Key': stormKey }, connections: 10, duration: 8 }),
    ]);
    const [matched, matchedLoad] = await Promise.all([
      load(target, other),
      load(`${real.url}/v1/webhooks/wh_000000000000/test`, { method: 'POST', headers: { 'X-Service-Key': stormKey }, connections: 10, duration: 8 }),
    ]);
    const ratio = stormed.p99 / Math.max(quiet.p99, 0.001);
    return [
      { part: 'storm', metric: 'test events queued by the storm key', value: storm.total - storm.non2xx, unit: 'events' },
      // After its first 429 the storm key's refusals are held (REII_REFUSAL_HOLD_MS): its 10 connections wait instead of asking again.
      { part: 'storm', metric: 'storm key answers (202s, then 429s held after the first)', value: storm.rps, unit: 'req/s', baseline: matchedLoad.rps, ratio: storm.rps / Math.max(matchedLoad.rps, 0.001) },
      { part: 'storm', metric: 'other client p99 during the storm', value: stormed.p99, unit: 'ms', baseline: quiet.p99, ratio, goal: '<= 2x quiet p99', pass: ratio <= 2 },
      { part: 'storm', metric: 'other client req/s during the storm', value: stormed.rps, unit: 'req/s', baseline: quiet.rps, ratio: stormed.rps / quiet.rps },
      { part: 'storm', metric: 'other client p99, storm vs the same request load queuing nothing (404)', value: stormed.p99, unit: 'ms', baseline: matched.p99, ratio: stormed.p99 / Math.max(matched.p99, 0.001) },
      { part: 'storm', metric: 'other client req/s, storm vs the same request load queuing nothing (404)', value: stormed.rps, unit: 'req/s', baseline: matched.rps, ratio: stormed.rps / matched.rps },
      // 404s are not refusals, so nothing holds them: what a flood of answered requests from one key costs on these 2 cores.
      { part: 'storm', metric: 'other client p99 under the 404 load vs quiet', value: matched.p99, unit: 'ms', baseline: quiet.p99, ratio: matched.p99 / Math.max(quiet.p99, 0.001) },
      { part: 'storm', metric: 'non-2xx / errors of the other client', value: stormed.non2xx + stormed.errors + quiet.non2xx + quiet.errors + matched.non2xx + matched.errors, unit: 'requests', goal: '0', pass: stormed.non2xx + stormed.errors + quiet.non2xx + quiet.errors + matched.non2xx + matched.errors === 0 },
    ];
  } finally {
    await real.stop();
    rx.closeAllConnections();
    rx.close();
  }
}
