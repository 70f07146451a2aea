// The parts of one export file a key gets in a UTC day count toward its month once (README "Limits"), across
// every instance on one Redis: a download whose parts are spread over two instances (a load balancer, a
// resume that lands elsewhere) counts once, as it does on one instance. Before, each instance kept its own
// record of the files sent, so each instance counted the file again.
// Two real instances (separate processes: an in-process pair would share one module's memory) over the
// shared test build, on one real redis-server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisKeys } from '../../api/redis-keys.ts';
import { artifactsDir } from '../helpers/build.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { sharedCount, startInstance, stopInstance, type Instance } from '../helpers/instance.ts';

let redis: TestRedis;
beforeAll(async () => { redis = await startRedis(); });
afterAll(async () => { await redis.stop(); });

const instance = (): Promise<Instance> => startInstance(artifactsDir(), redis.url);
const stop = stopInstance;

/** The key registry an instance last loaded from Redis (saved on every change). */
function knows(state: string, id: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(state, 'redis-keys.json'), 'utf8')) as { records: { id: string }[] }).records.some((r) => r.id === id);
  } catch {
    return false;
  }
}


describe('export parts over two instances on one Redis', () => {
  test('the parts of one file sent by two instances count once; a whole file still counts; another file counts', async () => {
    const instances = await Promise.all([instance(), instance()]);
    const [a, b] = instances as [Instance, Instance];
    try {
      const reg = new RedisKeys(redis.url);
      const { key, record } = await reg.create({ plan: 'scale', name: 'export parts', rpm: null }).finally(() => reg.close());
      await waitFor(() => instances.every((i) => knows(i.state, record.id)), { what: 'the key loaded by both instances' });
      const part = async (i: Instance, range: string | null, format = 'csv'): Promise<Response> => {
        const res = await fetch(`${i.url}/v1/export/cities?format=${format}`, { headers: { 'X-Service-Key': key, ...(range ? { Range: range } : {}) } });
        await res.arrayBuffer();
        expect(res.headers.get('x-limits-degraded')).toBeNull(); // decided with Redis
        return res;
      };
      const first = await part(a, 'bytes=0-99');
      expect(first.status).toBe(206);
      expect(first.headers.get('x-quota-remaining')).toBe('749999');
      // The rest of the download from the other instance: part of the same download, free.
      for (const r of ['bytes=100-', 'bytes=1-', 'bytes=-10']) {
        const res = await part(b, r);
        expect(res.status, r).toBe(206);
        expect(res.headers.get('x-quota-remaining'), r).toBe('749999');
      }
      expect(await sharedCount(redis.url, record.id)).toBe(1);
      // A whole file always counts (one call each), on either instance; a range of another file counts once.
      expect((await part(b, null)).headers.get('x-quota-remaining')).toBe('749998');
      expect((await part(a, 'bytes=5-', 'ndjson')).headers.get('x-quota-remaining')).toBe('749997');
      expect((await part(b, 'bytes=0-4', 'ndjson')).headers.get('x-quota-remaining')).toBe('749997');
      await Promise.all(instances.map(stop));
      expect(await sharedCount(redis.url, record.id)).toBe(3);
    } finally {
      await Promise.all(instances.map(stop));
    }
  }, 120_000);
});
