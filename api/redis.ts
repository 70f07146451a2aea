// Several API instances on one Redis (REII_REDIS_URL): per-minute windows and monthly counts are
// atomic Lua on shared keys, and the key registry lives in Redis so a revocation reaches every
// instance within a second.
//
// When Redis is unreachable (policy, README "Running in production"): every request still gets an
// answer. Each instance enforces the per-minute limit alone (so a key may reach N x its limit across N
// instances), checks the monthly quota against the last shared count it saw plus its own unsent count,
// counts 2xx answers locally and adds them to Redis when it reconnects. Keys are checked against the
// last registry it loaded. Responses say so in `X-Limits-Degraded: redis-unreachable`, and
// GET /v1/health reports `limits.status: degraded`. ioredis reconnects on its own; no restart needed.
import { Redis } from 'ioredis';
import { checkKey, makeKey, type KeyCheck, type KeyChecker, type KeyRecord } from './keys.ts';
import type { KeyHit, LimitsHealth, LimitStore } from './limits.ts';
import { WindowLimiter } from './rate-limit.ts';
import { monthOf } from './usage.ts';
import { CliError, EXIT } from '../pipelines/errors.ts';

const PREFIX = 'reii:';
const MONTH_TTL_S = 40 * 24 * 3600;

// KEYS: minute window, month count, last-used hash. ARGV: limit (-1 = none), window ttl ms, key id, now ISO.
const HIT_LUA = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local allowed = 1
if tonumber(ARGV[1]) >= 0 and c >= tonumber(ARGV[1]) then
  allowed = 0
else
  c = redis.call('INCR', KEYS[1])
  if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
return {c, allowed, tonumber(redis.call('GET', KEYS[2]) or '0')}`;

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
  });
}

export class RedisLimits implements LimitStore {
  readonly redis: Redis;
  private readonly local = new WindowLimiter(60_000);
  private readonly pending = new Map<string, number>(); // month key -> 2xx not yet added to Redis
  private readonly lastMonth = new Map<string, number>(); // month key -> last shared count seen
  private down: string | null = null; // since when (ISO) Redis has been unreachable

  constructor(url: string) {
    this.redis = connectRedis(url);
    this.redis.defineCommand('reiiHit', { numberOfKeys: 3, lua: HIT_LUA });
    this.redis.on('error', () => { /* reported through health(); ioredis keeps reconnecting */ });
    this.redis.on('close', () => { this.down ??= new Date().toISOString(); });
    this.redis.on('ready', () => { void this.flushPending(); });
  }

  ready(timeoutMs = 2000): Promise<boolean> {
    return whenReady(this.redis, timeoutMs);
  }

  private monthKey(keyId: string, now: number): string {
    return `${PREFIX}month:${monthOf(now)}:${keyId}`;
  }

  async hit(keyId: string, perMinute: number | null, now: number): Promise<KeyHit> {
    const windowStart = Math.floor(now / 60_000) * 60_000;
    const monthKey = this.monthKey(keyId, now);
    try {
      const [count, allowed, month] = (await (this.redis as unknown as { reiiHit(...a: (string | number)[]): Promise<number[]> })
        .reiiHit(`${PREFIX}rl:${keyId}:${windowStart}`, monthKey, `${PREFIX}last_used`, perMinute ?? -1, 61_000, keyId, new Date(now).toISOString()));
      this.down = null;
      this.lastMonth.set(monthKey, month!);
      const reset = Math.floor((windowStart + 60_000) / 1000);
      return {
        window: { limit: perMinute, remaining: perMinute === null ? null : Math.max(0, perMinute - count!), reset, allowed: allowed === 1 },
        monthUsed: month! + (this.pending.get(monthKey) ?? 0),
        degraded: false,
      };
    } catch {
      this.down ??= new Date().toISOString();
      return { window: this.local.hit(keyId, perMinute, now), monthUsed: (this.lastMonth.get(monthKey) ?? 0) + (this.pending.get(monthKey) ?? 0), degraded: true };
    }
  }

  async countSuccess(keyId: string, now: number): Promise<void> {
    const monthKey = this.monthKey(keyId, now);
    try {
      await this.redis.multi().incr(monthKey).expire(monthKey, MONTH_TTL_S).exec();
    } catch {
      this.pending.set(monthKey, (this.pending.get(monthKey) ?? 0) + 1);
    }
  }

  async monthCount(keyId: string, now: number): Promise<number> {
    const monthKey = this.monthKey(keyId, now);
    try {
      return Number((await this.redis.get(monthKey)) ?? 0) + (this.pending.get(monthKey) ?? 0);
    } catch {
      return (this.lastMonth.get(monthKey) ?? 0) + (this.pending.get(monthKey) ?? 0);
    }
  }

  async lastUsed(keyId: string): Promise<string | null> {
    try {
      return await this.redis.hget(`${PREFIX}last_used`, keyId);
    } catch {
      return null;
    }
  }

  /** Adds the 2xx answers counted while Redis was away. */
  private async flushPending(): Promise<void> {
    this.down = null;
    for (const [monthKey, n] of [...this.pending]) {
      try {
        await this.redis.multi().incrby(monthKey, n).expire(monthKey, MONTH_TTL_S).exec();
        this.pending.set(monthKey, (this.pending.get(monthKey) ?? n) - n);
        if (this.pending.get(monthKey) === 0) this.pending.delete(monthKey);
      } catch {
        return; // still down: the next 'ready' retries
      }
    }
  }

  health(): LimitsHealth {
    const ok = this.redis.status === 'ready' && this.down === null;
    return { backend: 'redis', status: ok ? 'ok' : 'degraded', detail: ok ? null : `redis ${this.redis.status}${this.down ? ` since ${this.down}` : ''}; limits enforced per instance` };
  }

  async close(): Promise<void> {
    await this.flushPending();
    this.redis.disconnect();
  }
}

/** The key registry in Redis: a hash of records by id and a version counter instances poll. */
export class RedisKeys implements KeyChecker {
  private byId = new Map<string, KeyRecord>();
  private version = '';
  private timer: NodeJS.Timeout | null = null;
  readonly redis: Redis;

  constructor(url: string) {
    this.redis = connectRedis(url);
    this.redis.on('error', () => {});
  }

  check(header: string | undefined): KeyCheck {
    return checkKey(this.byId, header);
  }

  /** Re-reads the registry when its version moved; keeps the last one while Redis is away, and when a
   *  restarted Redis comes back without its data (no version key): keys are never dropped by an outage. */
  async reload(): Promise<void> {
    try {
      const version = await this.redis.get(`${PREFIX}keys:version`);
      if (version === null || version === this.version) return;
      const all = await this.redis.hgetall(`${PREFIX}keys`);
      this.byId = new Map(Object.values(all).map((j) => { const r = JSON.parse(j) as KeyRecord; return [r.id, r]; }));
      this.version = version;
    } catch {
      // unreachable: keep the keys we have
    }
  }

  async watch(ms = 250): Promise<void> {
    await whenReady(this.redis);
    await this.reload();
    this.timer ??= setInterval(() => { void this.reload(); }, ms);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.redis.disconnect();
  }

  // ---------- administration (the CLI with REII_REDIS_URL)
  private async ready(): Promise<void> {
    if (!(await whenReady(this.redis, 3000))) throw new CliError('Redis is unreachable at REII_REDIS_URL', { exitCode: EXIT.failed });
  }

  async list(): Promise<KeyRecord[]> {
    await this.ready();
    const all = await this.redis.hgetall(`${PREFIX}keys`);
    return Object.values(all).map((j) => JSON.parse(j) as KeyRecord).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  private async put(...records: KeyRecord[]): Promise<void> {
    const m = this.redis.multi();
    for (const r of records) m.hset(`${PREFIX}keys`, r.id, JSON.stringify(r));
    await m.incr(`${PREFIX}keys:version`).exec();
  }

  async create(opts: { plan: string; name: string | null; rpm: number | null }): Promise<{ record: KeyRecord; key: string }> {
    const existing = new Set((await this.list()).map((r) => r.id));
    const made = makeKey(opts, (id) => existing.has(id));
    await this.put(made.record);
    return made;
  }

  async revoke(id: string): Promise<KeyRecord> {
    const record = (await this.list()).find((r) => r.id === id);
    if (!record) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
    record.revoked_at ??= new Date().toISOString();
    await this.put(record);
    return record;
  }

  async rotate(id: string): Promise<{ record: KeyRecord; key: string }> {
    const old = (await this.list()).find((r) => r.id === id);
    if (!old) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
    if (old.revoked_at) throw new CliError(`key ${id} is revoked; create a new one instead`, { exitCode: EXIT.usage });
    const fresh = await this.create({ plan: old.plan, name: old.name, rpm: old.rpm });
    old.revoked_at = new Date().toISOString();
    old.rotated_to = fresh.record.id;
    await this.put(old);
    return fresh;
  }
}
