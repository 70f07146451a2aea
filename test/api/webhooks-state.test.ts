// Issue 21 defect 2: the per-key webhook cap raced (19 registrations where the cap is 10), because the count
// and the write were separate steps with a DNS check between them. Now both are one SQLite transaction
// (api/webhooks/store.ts addEndpoint). Two real servers over one state folder (two processes' worth of
// connections), 30 registrations at once from one pro key, the registrations read back with node:sqlite.
import { afterAll, describe, expect, test } from 'vitest';
import { MAX_ENDPOINTS_PER_KEY, TEST_EVENTS_PER_MINUTE, WebhookService } from '../../api/webhooks/service.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { withStateDb } from '../helpers/state-db.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  removeTmpDirs();
});

describe('webhook cap under concurrent registrations', () => {
  test('30 registrations at once, split over two servers on one state folder: exactly 10 kept (201), 20 refused 422 limit', async () => {
    const state = tmp('reii-wh-cap-');
    // A loopback target needs private targets allowed; the setting is read when a server starts.
    const before = process.env['REII_WEBHOOKS_ALLOW_PRIVATE'];
    process.env['REII_WEBHOOKS_ALLOW_PRIVATE'] = '1';
    try {
      servers.push(await startTestServer(artifactsDir(), { state }), await startTestServer(artifactsDir(), { state }));
    } finally {
      if (before === undefined) delete process.env['REII_WEBHOOKS_ALLOW_PRIVATE']; else process.env['REII_WEBHOOKS_ALLOW_PRIVATE'] = before;
    }
    const [a, b] = servers as [TestServer, TestServer];
    const key = a.key('pro');
    const answers = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
      const res = await (i % 2 ? b : a).post('/v1/webhooks', { url: `http://127.0.0.1:9/hook-${i}`, events: ['build.published'] }, key);
      return { status: res.status, body: (await res.json()) as { errors?: { code: string }[] } };
    }));
    expect(answers.filter((x) => x.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_KEY);
    const refused = answers.filter((x) => x.status !== 201);
    expect(refused).toHaveLength(30 - MAX_ENDPOINTS_PER_KEY);
    for (const r of refused) expect(r).toMatchObject({ status: 422, body: { errors: [{ code: 'limit' }] } });
    const keyId = key.split('_')[2]!;
    const stored = withStateDb(state, (db) => db.prepare('SELECT count(*) AS n FROM webhook_endpoints WHERE key_id = ?').get(keyId)) as { n: number };
    expect(Number(stored.n)).toBe(MAX_ENDPOINTS_PER_KEY);
    // Both servers list the same ten.
    const listA = (await (await a.get('/v1/webhooks', key)).json()) as { count: number };
    const listB = (await (await b.get('/v1/webhooks', key)).json()) as { count: number };
    expect([listA.count, listB.count]).toEqual([MAX_ENDPOINTS_PER_KEY, MAX_ENDPOINTS_PER_KEY]);
  });

  test(`a storm of test events from one key is refused past ${TEST_EVENTS_PER_MINUTE} a minute (429 with Retry-After), the outbox holds no more`, async () => {
    const [a] = servers as [TestServer];
    const key = a.key('enterprise');
    const made = await a.post('/v1/webhooks', { url: 'http://127.0.0.1:9/storm', events: ['build.published'] }, key);
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const answers = await Promise.all(Array.from({ length: 2 * TEST_EVENTS_PER_MINUTE + 10 }, async () => {
      const r = await a.post(`/v1/webhooks/${id}/test`, '', key);
      return { status: r.status, retry: r.headers.get('retry-after') };
    }));
    const queued = answers.filter((x) => x.status === 202).length;
    // One fixed minute window, or two if a minute ended during the calls: never more.
    expect(queued).toBeGreaterThanOrEqual(TEST_EVENTS_PER_MINUTE);
    expect(queued).toBeLessThanOrEqual(2 * TEST_EVENTS_PER_MINUTE);
    const refused = answers.filter((x) => x.status !== 202);
    expect(refused.length).toBe(answers.length - queued);
    for (const r of refused) { expect(r.status).toBe(429); expect(Number(r.retry)).toBeGreaterThanOrEqual(1); }
    const pending = withStateDb(a.state, (db) => db.prepare('SELECT count(*) AS n FROM webhook_outbox WHERE endpoint_id = ?').get(id)) as { n: number };
    expect(Number(pending.n)).toBeLessThanOrEqual(queued);
  });
});

describe('one build cursor for every process over the store', () => {
  test('a process still serving the older build raises nothing once another has emitted the newer one', async () => {
    const state = tmp('reii-wh-cursor-');
    const artifacts = tmp('reii-wh-cursor-art-');
    const dirs = { b1: fakeBuild(artifacts, 'b1', 1), b2: fakeBuild(artifacts, 'b2', 2) };
    const serving = (id: 'b1' | 'b2') => ({ get: () => ({ dir: dirs[id], buildId: id }) });
    let current: 'b1' | 'b2' = 'b1';
    const ahead = await WebhookService.open({ state, allowPrivate: true, holder: { get: () => serving(current).get() } });
    const behind = await WebhookService.open({ state, allowPrivate: true, holder: serving('b1') });
    try {
      await ahead.checkBuild(); // first start: b1 is the baseline
      const made = (await ahead.create('key-c', 'http://127.0.0.1:9/c', ['build.published'], null))!;
      current = 'b2';
      await ahead.checkBuild();
      const queued = async (): Promise<string[]> => (await ahead.store.messagesOf(made.endpoint.id)).map((m) => m.event_id);
      expect(await queued()).toEqual(['evt_b2_build_published']);
      expect(await ahead.store.cursor()).toMatchObject({ build_id: 'b2', seen: ['b1'] });
      // The lagging process (its build poll has not seen b2 yet) must not emit "b2 -> b1".
      await behind.checkBuild();
      expect(await queued()).toEqual(['evt_b2_build_published']);
      expect(await behind.store.cursor()).toMatchObject({ build_id: 'b2' });
    } finally {
      await ahead.stop();
      await behind.stop();
    }
  });
});
