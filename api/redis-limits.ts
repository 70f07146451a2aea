// Per-minute windows and monthly counts shared by every instance on one Redis (api/redis.ts has the
// connection and what happens while Redis is unreachable): atomic Lua on shared keys.
//
// Counting exactly once: every monthly count carries (instance id, sequence number) and the Lua script
// applies it only when the sequence is above the instance's last applied one (kept in Redis next to the
// counts). A count refused before it was sent (stream not writable) joins the local backlog; a count
// whose answer was lost (timeout, connection dropped after sending) is kept with its sequence and
// replayed as is, so Redis applies it once whether or not the first attempt got through. Until the
// backlog is empty new counts join it, so sequences reach Redis in order. The backlog is written to
// <state>/redis-backlog.json every second and on close, and replayed by the next start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { CountAhead, KeyHit, LimitsHealth, LimitStore } from './limits.ts';
import { WindowLimiter } from './rate-limit.ts';
import { monthOf } from './usage.ts';
import { isoTime } from './context.ts';
import { connectRedis, PREFIX, whenReady, writeAtomic } from './redis.ts';

const MONTH_TTL_S = 40 * 24 * 3600;

// One round trip per request: the window, the month's count and (when asked) this request's count toward
// the month, under the instance's sequence like COUNT_LUA (an answer that turns out not to count takes it back).
// KEYS: minute window, month count, last-used hash, the instance's last applied sequence.
// ARGV: limit (-1 = none), window ttl ms, key id, now ISO, sequence (0 = do not count), month limit (-1 = none), month ttl s.
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
local m = tonumber(redis.call('GET', KEYS[2]) or '0')
local counted = 0
local seq = tonumber(ARGV[5])
if seq > 0 and allowed == 1 and (tonumber(ARGV[6]) < 0 or m < tonumber(ARGV[6])) and seq > tonumber(redis.call('GET', KEYS[4]) or '0') then
  redis.call('INCRBY', KEYS[2], 1)
  redis.call('EXPIRE', KEYS[2], ARGV[7])
  redis.call('SET', KEYS[4], ARGV[5], 'EX', ARGV[7])
  counted = 1
end
return {c, allowed, m, counted}`;

// KEYS: month count, the instance's last applied sequence. ARGV: n, sequence, ttl s.
// Applies the count once: a replay of a sequence already applied (or older) changes nothing.
const COUNT_LUA = `
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= last then return 0 end
redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1`;

/** True when the command certainly never reached Redis (so it was not applied). */
function notSent(err: unknown): boolean {
  return err instanceof Error && (err.message.startsWith("Stream isn't writeable") || err.name === 'ReplyError');
}

/** A count whose answer was lost: replayed with the same instance and sequence. */
interface Unsure { inst: string; seq: number; month_key: string; n: number }

interface BacklogFile { pending: Record<string, number>; unsure: Unsure[] }

export class RedisLimits implements LimitStore {
  readonly redis: Redis;
  /** This process's id in the exactly-once counting (a new one per start). */
  readonly instance = crypto.randomBytes(8).toString('hex');
  private seq = 0;
  private readonly local = new WindowLimiter(60_000);
  private readonly pending = new Map<string, number>(); // month key -> 2xx certainly not yet in Redis
  private unsure: Unsure[] = []; // sent, answer lost: replayed as is (idempotent)
  private readonly lastMonth = new Map<string, number>(); // month key -> last shared count seen
  private down: string | null = null; // since when (ISO) Redis has been unreachable
  private flushing: Promise<void> | null = null;
  private dirty = false;
  private readonly backlogFile: string | null;
  private readonly timer: NodeJS.Timeout;

  /** `stateDir`: where the backlog is kept across restarts (<state>/redis-backlog.json); none for the CLI. */
  constructor(url: string, stateDir: string | null = null) {
    this.redis = connectRedis(url);
    this.redis.defineCommand('reiiHit', { numberOfKeys: 4, lua: HIT_LUA });
    this.redis.defineCommand('reiiCount', { numberOfKeys: 2, lua: COUNT_LUA });
    this.redis.on('error', () => { /* reported through health(); ioredis keeps reconnecting */ });
    this.redis.on('close', () => { this.down ??= new Date().toISOString(); });
    this.redis.on('ready', () => { this.down = null; void this.flushPending(); });
    this.backlogFile = stateDir ? path.join(stateDir, 'redis-backlog.json') : null;
    this.loadBacklog();
    // Every second: retry a backlog left by a timeout (no 'ready' follows one) and save it.
    this.timer = setInterval(() => {
      if (this.redis.status === 'ready' && this.hasBacklog()) void this.flushPending();
      this.saveBacklog();
    }, 1000);
    this.timer.unref();
  }

  ready(timeoutMs = 2000): Promise<boolean> {
    return whenReady(this.redis, timeoutMs);
  }

  private monthKey(keyId: string, now: number): string {
    return `${PREFIX}month:${monthOf(now)}:${keyId}`;
  }

  private hasBacklog(): boolean {
    return this.pending.size > 0 || this.unsure.length > 0;
  }

  /** Counts of this month not (or not surely) in Redis yet. */
  private unsent(monthKey: string): number {
    let n = this.pending.get(monthKey) ?? 0;
    for (const u of this.unsure) if (u.month_key === monthKey) n += u.n;
    return n;
  }

  async hit(keyId: string, perMinute: number | null, now: number, ahead?: CountAhead): Promise<KeyHit> {
    const windowStart = Math.floor(now / 60_000) * 60_000;
    const monthKey = this.monthKey(keyId, now);
    // Counted in this round trip only when no backlog waits (sequences reach Redis in order, as in countSuccess).
    const seq = ahead && this.redis.status === 'ready' && !this.hasBacklog() && !this.flushing ? ++this.seq : 0;
    try {
      const [count, allowed, month, counted] = (await (this.redis as unknown as { reiiHit(...a: (string | number)[]): Promise<number[]> })
        .reiiHit(`${PREFIX}rl:${keyId}:${windowStart}`, monthKey, `${PREFIX}last_used`, `${PREFIX}applied:${this.instance}`,
          perMinute ?? -1, 61_000, keyId, isoTime(now), seq, ahead?.monthLimit ?? -1, MONTH_TTL_S));
      this.down = null;
      this.lastMonth.set(monthKey, month! + counted!);
      const reset = Math.floor((windowStart + 60_000) / 1000);
      return {
        window: { limit: perMinute, remaining: perMinute === null ? null : Math.max(0, perMinute - count!), reset, allowed: allowed === 1 },
        monthUsed: month! + this.unsent(monthKey),
        degraded: false,
        counted: counted === 1,
      };
    } catch (err) {
      this.down ??= new Date().toISOString();
      const monthUsed = (this.lastMonth.get(monthKey) ?? 0) + this.unsent(monthKey);
      // A count sent whose answer was lost is kept as counted and replayed as is (applied once either way); this
      // instance then answers alone, and an answer that does not count takes it back.
      const unsure = seq > 0 && !notSent(err);
      if (unsure) { this.unsure.push({ inst: this.instance, seq, month_key: monthKey, n: 1 }); this.dirty = true; }
      return { window: this.local.hit(keyId, perMinute, now), monthUsed, degraded: true, counted: unsure };
    }
  }

  private count(monthKey: string, inst: string, seq: number, n: number): Promise<number> {
    return (this.redis as unknown as { reiiCount(...a: (string | number)[]): Promise<number> })
      .reiiCount(monthKey, `${PREFIX}applied:${inst}`, n, seq, MONTH_TTL_S);
  }

  private addPending(monthKey: string, n: number): void {
    const sum = (this.pending.get(monthKey) ?? 0) + n;
    if (sum === 0) this.pending.delete(monthKey); // a count and its taking back: nothing left to send
    else this.pending.set(monthKey, sum);
    this.dirty = true;
  }

  countSuccess(keyId: string, now: number): Promise<void> {
    return this.add(this.monthKey(keyId, now), 1);
  }

  /** Takes back a count made ahead in hit() for an answer that did not count (an error after admission). */
  uncount(keyId: string, now: number): Promise<void> {
    return this.add(this.monthKey(keyId, now), -1);
  }

  private async add(monthKey: string, n: number): Promise<void> {
    // While a backlog waits, new counts join it: sequences must reach Redis in order.
    if (this.redis.status !== 'ready' || this.hasBacklog() || this.flushing) {
      this.addPending(monthKey, n);
      if (this.redis.status === 'ready') void this.flushPending();
      return;
    }
    const seq = ++this.seq;
    try {
      await this.count(monthKey, this.instance, seq, n);
    } catch (err) {
      if (notSent(err)) this.addPending(monthKey, n);
      else { this.unsure.push({ inst: this.instance, seq, month_key: monthKey, n }); this.dirty = true; }
    }
  }

  async monthCount(keyId: string, now: number): Promise<number> {
    const monthKey = this.monthKey(keyId, now);
    try {
      return Number((await this.redis.get(monthKey)) ?? 0) + this.unsent(monthKey);
    } catch {
      return (this.lastMonth.get(monthKey) ?? 0) + this.unsent(monthKey);
    }
  }

  async lastUsed(keyId: string): Promise<string | null> {
    try {
      return await this.redis.hget(`${PREFIX}last_used`, keyId);
    } catch {
      return null;
    }
  }

  /** Adds the backlog to Redis: first the unsure counts with their own sequences (in order, so a replay
   *  of one already applied is a no-op), then the certain ones under fresh sequences. */
  flushPending(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (!this.hasBacklog()) return Promise.resolve();
    const run = async (): Promise<void> => {
      await Promise.resolve(); // this.flushing is set before the loop starts
      while (this.hasBacklog() && this.redis.status === 'ready') {
        this.unsure.sort((x, y) => (x.inst === y.inst ? x.seq - y.seq : x.inst < y.inst ? -1 : 1));
        while (this.unsure.length) {
          const u = this.unsure[0]!;
          try {
            await this.count(u.month_key, u.inst, u.seq, u.n);
          } catch {
            return; // not sent, or its answer lost again: it stays and is replayed later (as is)
          }
          this.unsure.shift();
          this.dirty = true;
        }
        for (const [monthKey, n] of [...this.pending]) {
          const seq = ++this.seq;
          this.pending.set(monthKey, (this.pending.get(monthKey) ?? n) - n);
          if (this.pending.get(monthKey) === 0) this.pending.delete(monthKey);
          this.dirty = true;
          try {
            await this.count(monthKey, this.instance, seq, n);
          } catch (err) {
            if (notSent(err)) this.addPending(monthKey, n);
            else this.unsure.push({ inst: this.instance, seq, month_key: monthKey, n });
            return;
          }
        }
      }
    };
    this.flushing = run().finally(() => { this.flushing = null; });
    return this.flushing;
  }

  private loadBacklog(): void {
    if (!this.backlogFile || !fs.existsSync(this.backlogFile)) return;
    try {
      const data = JSON.parse(fs.readFileSync(this.backlogFile, 'utf8')) as BacklogFile;
      for (const [k, n] of Object.entries(data.pending ?? {})) if (Number.isInteger(n) && n !== 0) this.addPending(k, n); // a negative n takes back a count made ahead
      for (const u of data.unsure ?? []) if (Number.isInteger(u.seq) && Number.isInteger(u.n) && typeof u.inst === 'string') this.unsure.push(u);
    } catch (err) {
      // A damaged file is kept aside for the operator rather than overwritten.
      fs.renameSync(this.backlogFile, `${this.backlogFile}.damaged-${Date.now()}`);
      process.stderr.write(JSON.stringify({ time: new Date().toISOString(), msg: 'redis backlog file unreadable; moved aside', error: (err as Error).message }) + '\n');
    }
  }

  private saveBacklog(): void {
    if (!this.backlogFile || !this.dirty) return;
    this.dirty = false;
    try {
      if (!this.hasBacklog()) { fs.rmSync(this.backlogFile, { force: true }); return; }
      const data: BacklogFile = { pending: Object.fromEntries(this.pending), unsure: this.unsure };
      writeAtomic(this.backlogFile, JSON.stringify(data) + '\n');
    } catch {
      this.dirty = true; // state folder not writable right now: try again next tick
    }
  }

  health(): LimitsHealth {
    const ok = this.redis.status === 'ready' && this.down === null;
    return { backend: 'redis', status: ok ? 'ok' : 'degraded', detail: ok ? null : `redis ${this.redis.status}${this.down ? ` since ${this.down}` : ''}; limits enforced per instance` };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushPending();
    this.dirty = true;
    this.saveBacklog();
    this.redis.disconnect();
  }
}
