// Several API instances on one Redis (REII_REDIS_URL): the connection both halves use, the shared key
// prefix, and the whole-file write of what each half keeps in the state folder for a start while Redis
// is down. The halves: api/redis-limits.ts (per-minute windows and monthly counts, counted exactly once)
// and api/redis-keys.ts (the key registry, so a revocation reaches every instance within a second).
//
// When Redis is unreachable (policy, README "Running in production"): every request still gets an
// answer. Each instance enforces the per-minute limit alone (so a key may reach N x its limit across N
// instances), checks the monthly quota against the last shared count it saw plus its own unsent count,
// counts 2xx answers locally and adds them to Redis when it reconnects. Keys are checked against the
// last registry it loaded. Responses say so in `X-Limits-Degraded: redis-unreachable`, and
// GET /v1/health reports `limits.status: degraded`. ioredis reconnects on its own; no restart needed.
import fs from 'node:fs';
import { Redis } from 'ioredis';

export const PREFIX = 'reii:';

/** Resolves when the client is connected, or after timeoutMs (then callers run degraded). */
export function whenReady(redis: Redis, timeoutMs = 2000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), timeoutMs);
    t.unref();
    redis.once('ready', () => { clearTimeout(t); resolve(true); });
  });
}

export function connectRedis(url: string): Redis {
  return new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false, // fail at once while disconnected: the degraded path answers instead
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(100 * times, 1000), // keep trying, at most a second apart
    // No auto-pipelining: the hot path already sends one script call per event-loop turn (api/redis-scripts.ts
    // HitBatcher), so ioredis's per-turn pipeline only added its own objects and a write through it (issue 26:
    // Redis mode 0.51 -> 0.64 of bare together with the hit script reading and writing each key once per batch).
    enableAutoPipelining: false,
  });
}

/** Writes a file whole (temp file, then rename) so a crash never leaves half of it. */
export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
