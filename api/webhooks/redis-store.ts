// The webhook store (store.ts) of several instances on one Redis (REII_REDIS_URL): every instance sees the
// same registrations, shares one outbox and one cursor. Keys (prefix reii:wh:):
//   eps               sorted set of every endpoint id, scored by registration order (epseq)
//   key:<key id>      sorted set of one API key's endpoint ids: the per-key cap is its ZCARD
//   ep:<id>           the endpoint record (JSON, with its signing secret: protect Redis as the state folder)
//   ob:<endpoint id>  sorted set of the endpoint's undelivered messages, scored by next_attempt_at
//   m:<file>          one message (JSON), its score kept equal to its next_attempt_at
//   dead:<endpoint>   list of the dead letters (JSON)
//   done:<file>       a delivered message, kept DONE_TTL_MS: the same event is not queued to that endpoint again
//   cursor, emit-lock the last build emitted, and who is emitting one now (SET NX PX)
//   win:<name>:<start> a fixed window shared by the instances (a key's test events per minute)
// Every check-and-change is one Lua script or a compare-and-set of the whole stored JSON, so two instances
// never both take a cap's last place or an attempt. Redis runs one script at a time; keys of one endpoint are
// named in KEYS, except removeEndpoint's messages (one Redis, not a cluster).
import { Redis } from 'ioredis';
import { PREFIX } from '../redis.ts';
import type { WindowState } from '../rate-limit.ts';
import { messageFile, type Cursor, type EndpointPatch, type EndpointRecord, type NewMessage, type OutboxMessage, type WebhookStore } from './store.ts';

const P = `${PREFIX}wh:`;
const K = {
  eps: `${P}eps`, epseq: `${P}epseq`, seq: `${P}seq`, cursor: `${P}cursor`, lock: `${P}emit-lock`,
  key: (k: string) => `${P}key:${k}`, ep: (id: string) => `${P}ep:${id}`, ob: (id: string) => `${P}ob:${id}`,
  m: (file: string) => `${P}m:${file}`, dead: (id: string) => `${P}dead:${id}`, done: (file: string) => `${P}done:${file}`,
};
/** How long a delivered (endpoint, event) is remembered, so a re-emission after a crash does not send it again. */
export const DONE_TTL_MS = 30 * 86400e3;
const CAS_TRIES = 20;

const ADD_ENDPOINT = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local s = redis.call('INCR', KEYS[4])
redis.call('ZADD', KEYS[1], s, ARGV[2])
redis.call('ZADD', KEYS[2], s, ARGV[2])
redis.call('SET', KEYS[3], ARGV[3])
return 1`;
// KEYS[1] the value, KEYS[2] (optional) a sorted set whose member ARGV[4] gets score ARGV[3].
const CAS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
if #KEYS > 1 then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) end
return 1`;
const REMOVE_ENDPOINT = `
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
for _, f in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do redis.call('DEL', ARGV[2] .. f) end
redis.call('DEL', KEYS[4])
return 1`;
const ENQUEUE = `
if redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[4]) == 0 then return 0 end
if redis.call('SETNX', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1`;
const REMOVE_MESSAGE = `
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if #KEYS > 2 then redis.call('SET', KEYS[3], '1', 'PX', ARGV[2]) end
return 1`;
const BURY = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[3])
return 1`;
// KEYS: the window. ARGV: limit, ttl ms. Counts only what it lets through; returns {count, allowed}.
const WINDOW = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c >= tonumber(ARGV[1]) then return {c, 0} end
c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {c, 1}`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

const parseAll = <T>(raws: (string | null)[]): T[] => raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as T);

export class RedisWebhookStore implements WebhookStore {
  private readonly redis: Redis;

  constructor(url: string) {
    // Commands wait (queued, up to 2 s) through a short reconnect instead of failing at once: a webhook call
    // is rarer than a limit check and has no degraded path, so its request fails only if Redis stays away.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 2000, connectTimeout: 1000, retryStrategy: (n) => Math.min(100 * n, 1000) });
    this.redis.on('error', () => {}); // reconnects by itself; each failed command rejects its caller
  }

  private async run(script: string, keys: string[], args: (string | number)[]): Promise<number> {
    return Number(await this.redis.eval(script, keys.length, ...keys, ...args.map(String)));
  }

  // ------------------------------------------------------------ endpoints

  private async endpointsIn(set: string): Promise<EndpointRecord[]> {
    const ids = await this.redis.zrange(set, 0, -1);
    return ids.length ? parseAll<EndpointRecord>(await this.redis.mget(ids.map(K.ep))) : [];
  }

  allEndpoints(): Promise<EndpointRecord[]> {
    return this.endpointsIn(K.eps);
  }

  endpointsOfKey(keyId: string): Promise<EndpointRecord[]> {
    return this.endpointsIn(K.key(keyId));
  }

  async endpoint(id: string): Promise<EndpointRecord | undefined> {
    const raw = await this.redis.get(K.ep(id));
    return raw === null ? undefined : (JSON.parse(raw) as EndpointRecord);
  }

  async addEndpoint(rec: EndpointRecord, cap = Number.MAX_SAFE_INTEGER): Promise<boolean> {
    return (await this.run(ADD_ENDPOINT, [K.key(rec.key_id), K.eps, K.ep(rec.id), K.epseq], [Math.min(cap, Number.MAX_SAFE_INTEGER), rec.id, JSON.stringify(rec)])) === 1;
  }

  /** Read, change, and compare-and-set the whole JSON; tried again if another instance wrote in between. */
  private async cas<T>(key: string, change: (cur: T) => T, zset?: (next: T) => [string, number, string]): Promise<T | undefined> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const raw = await this.redis.get(key);
      if (raw === null) return undefined;
      const next = change(JSON.parse(raw) as T);
      const z = zset?.(next);
      if ((await this.run(CAS, z ? [key, z[0]] : [key], z ? [raw, JSON.stringify(next), z[1], z[2]] : [raw, JSON.stringify(next)])) === 1) return next;
    }
    throw new Error(`webhook store: ${key} kept changing under ${CAS_TRIES} tries`);
  }

  updateEndpoint(id: string, patch: EndpointPatch): Promise<EndpointRecord | undefined> {
    return this.cas<EndpointRecord>(K.ep(id), (cur) => ({ ...cur, ...(typeof patch === 'function' ? patch(cur) : patch) }));
  }

  async removeEndpoint(id: string): Promise<boolean> {
    const e = await this.endpoint(id);
    if (!e) return false;
    return (await this.run(REMOVE_ENDPOINT, [K.ep(id), K.key(e.key_id), K.eps, K.ob(id)], [id, `${P}m:`])) === 1;
  }

  // ------------------------------------------------------------ outbox

  async messagesOf(endpointId: string): Promise<OutboxMessage[]> {
    const files = await this.redis.zrange(K.ob(endpointId), 0, -1);
    return files.length ? parseAll<OutboxMessage>(await this.redis.mget(files.map(K.m))) : [];
  }

  async dueMessages(now: number, perEndpoint: number): Promise<OutboxMessage[]> {
    const ids = await this.redis.zrange(K.eps, 0, -1);
    if (ids.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.zrangebyscore(K.ob(id), '-inf', now, 'LIMIT', 0, perEndpoint);
    const files = ((await pipe.exec()) ?? []).flatMap(([err, r]) => (err ? [] : (r as string[])));
    if (files.length === 0) return [];
    const due = parseAll<OutboxMessage>(await this.redis.mget(files.map(K.m)));
    return due.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq);
  }

  pendingCount(endpointId: string): Promise<number> {
    return this.redis.zcard(K.ob(endpointId));
  }

  async enqueue(m: NewMessage): Promise<boolean> {
    const file = messageFile(m.endpoint_id, m.event_id);
    const seq = await this.redis.incr(K.seq);
    const msg: OutboxMessage = { ...m, file, seq };
    return (await this.run(ENQUEUE, [K.m(file), K.ob(m.endpoint_id), K.done(file), K.ep(m.endpoint_id)], [JSON.stringify(msg), msg.next_attempt_at, file])) === 1;
  }

  updateMessage(m: OutboxMessage, patch: Partial<OutboxMessage>): Promise<OutboxMessage | undefined> {
    return this.cas<OutboxMessage>(K.m(m.file), (cur) => ({ ...cur, ...patch }), (next) => [K.ob(m.endpoint_id), next.next_attempt_at, m.file]);
  }

  /** One compare-and-set of the message as read now, if it is still the attempt `m` and due: of two instances
   *  that read the same message, only the first to write wins the attempt. */
  async claim(m: OutboxMessage, now: number, patch: Partial<OutboxMessage>): Promise<OutboxMessage | undefined> {
    const raw = await this.redis.get(K.m(m.file));
    if (raw === null) return undefined;
    const cur = JSON.parse(raw) as OutboxMessage;
    if (cur.attempts !== m.attempts || cur.next_attempt_at > now) return undefined;
    const next = { ...cur, ...patch };
    return (await this.run(CAS, [K.m(m.file), K.ob(m.endpoint_id)], [raw, JSON.stringify(next), next.next_attempt_at, m.file])) === 1 ? next : undefined;
  }

  async delivered(m: OutboxMessage): Promise<void> {
    await this.run(REMOVE_MESSAGE, [K.m(m.file), K.ob(m.endpoint_id), K.done(m.file)], [m.file, DONE_TTL_MS]);
  }

  async deleteMessage(m: OutboxMessage): Promise<void> {
    await this.run(REMOVE_MESSAGE, [K.m(m.file), K.ob(m.endpoint_id)], [m.file]);
  }

  async buryMessage(m: OutboxMessage, reason: string): Promise<void> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const raw = await this.redis.get(K.m(m.file));
      if (raw === null) return;
      const dead = JSON.stringify({ ...(JSON.parse(raw) as OutboxMessage), dead_reason: reason });
      if ((await this.run(BURY, [K.m(m.file), K.ob(m.endpoint_id), K.dead(m.endpoint_id)], [raw, dead, m.file])) === 1) return;
    }
  }

  async deadMessages(endpointId: string): Promise<OutboxMessage[]> {
    return parseAll<OutboxMessage>(await this.redis.lrange(K.dead(endpointId), 0, -1));
  }

  deadCount(endpointId: string): Promise<number> {
    return this.redis.llen(K.dead(endpointId));
  }

  // ------------------------------------------------------------ cursor

  async cursor(): Promise<Cursor | null> {
    const raw = await this.redis.get(K.cursor);
    return raw === null ? null : (JSON.parse(raw) as Cursor);
  }

  async setCursor(c: Cursor): Promise<void> {
    await this.redis.set(K.cursor, JSON.stringify(c));
  }

  async lockEmission(holder: string, _now: number, ms: number): Promise<boolean> {
    if ((await this.redis.set(K.lock, holder, 'PX', ms, 'NX')) === 'OK') return true;
    return (await this.redis.get(K.lock)) === holder;
  }

  async unlockEmission(holder: string): Promise<void> {
    await this.run(UNLOCK, [K.lock], [holder]);
  }

  async hitWindow(name: string, limit: number, windowMs: number, now: number): Promise<WindowState> {
    const start = Math.floor(now / windowMs) * windowMs;
    const [count, allowed] = (await this.redis.eval(WINDOW, 1, `${P}win:${name}:${start}`, String(limit), String(windowMs + 1000))) as [number, number];
    return { limit, remaining: Math.max(0, limit - Number(count)), reset: Math.floor((start + windowMs) / 1000), allowed: Number(allowed) === 1 };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
