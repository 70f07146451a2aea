// The Lua of api/redis-limits.ts and how it is called: EVALSHA straight (EVAL once when Redis does not hold
// the script yet), and the hits of one event-loop turn batched into one script call, so a busy server pays
// one round trip, one command and one reply per batch of requests, not per request.
import crypto from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script sent by its SHA1, loaded on every connect (load()); a Redis that lost it since (SCRIPT FLUSH)
 *  gets its text once. NOSCRIPT is a refusal before anything ran, so sending the text then applies the call once. */
export class LuaScript {
  private readonly sha: string;
  constructor(private readonly lua: string) {
    this.sha = crypto.createHash('sha1').update(lua).digest('hex');
  }

  /** Loads the script (SCRIPT LOAD: no script call), so the first call needs no NOSCRIPT and EVAL. */
  load(redis: Redis): Promise<unknown> {
    return redis.script('LOAD', this.lua);
  }

  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return redis.evalsha(this.sha, keys.length, ...keys, ...args).catch((err: unknown) => {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    });
  }
}

// The hits of a batch, in order, in one atomic call: for each, the minute window, the month's count and (when
// asked) this request's count toward the month, under the instance's sequence like COUNT (an answer that
// turns out not to count takes it back), and last_used when asked.
// KEYS: last-used hash, the instance's last applied sequence, then per hit: minute window, month count.
// ARGV: window ttl ms, month ttl s, then per hit: limit (-1 = none), key id, sequence (0 = do not count),
// month limit (-1 = none), time to write to last_used ('' = leave it).
// Returns 4 numbers per hit: the window's count, allowed (1/0), the month's count before, counted (1/0).
const HIT_LUA = `
local applied = tonumber(redis.call('GET', KEYS[2]) or '0')
local last = applied
local out = {}
-- A batch often holds many hits of one key: each window and month is read once and written once at the end.
local counts, added, ttls = {}, {}, {}
local function current(key)
  local c = counts[key]
  if c == nil then c = tonumber(redis.call('GET', key) or '0'); counts[key] = c; added[key] = 0 end
  return c
end
for i = 0, (#KEYS - 2) / 2 - 1 do
  local window, month, a = KEYS[3 + 2 * i], KEYS[4 + 2 * i], 3 + 5 * i
  local limit, seq, monthLimit = tonumber(ARGV[a]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local c = current(window)
  local allowed = 1
  if limit >= 0 and c >= limit then
    allowed = 0
  else
    c = c + 1
    counts[window] = c
    added[window] = added[window] + 1
    ttls[window] = 'w'
  end
  if ARGV[a + 4] ~= '' then redis.call('HSET', KEYS[1], ARGV[a + 1], ARGV[a + 4]) end
  local m = current(month)
  local counted = 0
  if seq > 0 and allowed == 1 and (monthLimit < 0 or m < monthLimit) and seq > last then
    counts[month] = m + 1
    added[month] = added[month] + 1
    ttls[month] = 'm'
    last = seq
    counted = 1
  end
  out[#out + 1] = c
  out[#out + 1] = allowed
  out[#out + 1] = m
  out[#out + 1] = counted
end
for key, kind in pairs(ttls) do
  local c = redis.call('INCRBY', key, added[key])
  if kind == 'm' then redis.call('EXPIRE', key, ARGV[2])
  elseif c == added[key] then redis.call('PEXPIRE', key, ARGV[1]) end
end
if last ~= applied then redis.call('SET', KEYS[2], last, 'EX', ARGV[2]) end
return out`;

// KEYS: month count, the instance's last applied sequence. ARGV: n, sequence, ttl s.
// Applies the count once: a replay of a sequence already applied (or older) changes nothing.
export const COUNT = new LuaScript(`
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= last then return 0 end
redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1`);

/** One request's hit: its window and month keys and the script's per-hit arguments. */
export interface Hit { window: string; month: string; limit: number; keyId: string; seq: number; monthLimit: number; touch: string }
/** What the script answered for one hit. */
export interface HitAnswer { count: number; allowed: boolean; month: number; counted: boolean }

interface Queued { hit: Hit; resolve(a: HitAnswer): void; reject(err: unknown): void }

/** At most this many hits per script call (a bounded script run; a larger turn sends several calls in order). */
const MAX_BATCH = 256;

/** Gathers the hits of one event-loop turn and sends them as one script call, in the order they came (so
 *  sequences reach Redis in order). A failed call fails every hit in it, each then handled as today's alone. */
export class HitBatcher {
  static readonly script = new LuaScript(HIT_LUA);
  private queue: Queued[] = [];

  constructor(private readonly redis: Redis, private readonly lastUsedKey: string, private readonly appliedKey: string, private readonly windowTtlMs: number, private readonly monthTtlS: number) {}

  hit(hit: Hit): Promise<HitAnswer> {
    if (this.queue.length === 0) setImmediate(this.flush);
    return new Promise((resolve, reject) => { this.queue.push({ hit, resolve, reject }); });
  }

  private readonly flush = (): void => {
    const all = this.queue;
    this.queue = [];
    for (let from = 0; from < all.length; from += MAX_BATCH) this.send(all.slice(from, from + MAX_BATCH));
  };

  private send(batch: Queued[]): void {
    const keys: string[] = [this.lastUsedKey, this.appliedKey];
    const args: (string | number)[] = [this.windowTtlMs, this.monthTtlS];
    for (const { hit: h } of batch) {
      keys.push(h.window, h.month);
      args.push(h.limit, h.keyId, h.seq, h.monthLimit, h.touch);
    }
    HitBatcher.script.run(this.redis, keys, args).then((reply) => {
      const n = reply as number[];
      for (let i = 0; i < batch.length; i++) {
        batch[i]!.resolve({ count: n[4 * i]!, allowed: n[4 * i + 1] === 1, month: n[4 * i + 2]!, counted: n[4 * i + 3] === 1 });
      }
    }, (err: unknown) => {
      for (const q of batch) q.reject(err);
    });
  }
}
