// Per-minute windows and monthly counts shared by every instance on one Redis (api/redis.ts has the
// connection and what happens while Redis is unreachable): atomic Lua on shared keys (api/redis-scripts.ts),
// the hits of one event-loop turn in one script call.
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
import { COUNT, HitBatcher } from './redis-scripts.ts';
import { FilesSent, utcDay } from './files-sent.ts';

const MONTH_TTL_S = 40 * 24 * 3600;
const SENT_TTL_S = 2 * 24 * 3600; // a day's record of export files sent outlives its UTC day

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
  private readonly hits: HitBatcher; // one script call per event-loop turn's hits
  private readonly touched = new Map<string, number>(); // key id -> when its last_used was last sent
  private readonly filesSent = new FilesSent(); // this instance's own record, what decides while Redis is down

  /** `stateDir`: where the backlog is kept across restarts (<state>/redis-backlog.json); none for the CLI. */
  constructor(url: string, stateDir: string | null = null) {
    this.redis = connectRedis(url);
    this.hits = new HitBatcher(this.redis, `${PREFIX}last_used`, `${PREFIX}applied:${this.instance}`, 61_000, MONTH_TTL_S);
    this.redis.on('error', () => { /* reported through health(); ioredis keeps reconnecting */ });
    this.redis.on('close', () => { this.down ??= new Date().toISOString(); });
    this.redis.on('ready', () => {
      this.down = null;
      // Before anything else on the new connection (commands leave in order), so no call meets NOSCRIPT.
      for (const s of [HitBatcher.script, COUNT]) s.load(this.redis).catch(() => { /* a call then sends the text */ });
      void this.flushPending();
    });
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
    // Counted in the hit's own script call only when no backlog waits (sequences reach Redis in order, as in countSuccess).
    const seq = ahead && this.redis.status === 'ready' && !this.hasBacklog() && !this.flushing ? ++this.seq : 0;
    // last_used is written at most once a second per key (README "Running in production"): up to a second behind.
    const touch = now - (this.touched.get(keyId) ?? -Infinity) >= 1000;
    if (touch) this.touched.set(keyId, now);
    try {
      const a = await this.hits.hit({ window: `${PREFIX}rl:${keyId}:${windowStart}`, month: monthKey, limit: perMinute ?? -1, keyId, seq, monthLimit: ahead?.monthLimit ?? -1, touch: touch ? isoTime(now) : '' });
      this.down = null;
      this.lastMonth.set(monthKey, a.month + (a.counted ? 1 : 0));
      const reset = Math.floor((windowStart + 60_000) / 1000);
      return {
        window: { limit: perMinute, remaining: perMinute === null ? null : Math.max(0, perMinute - a.count), reset, allowed: a.allowed },
        monthUsed: a.month + this.unsent(monthKey),
        degraded: false,
        counted: a.counted,
      };
    } catch (err) {
      if (touch) this.touched.delete(keyId); // not written: the next hit writes it
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
    return COUNT.run(this.redis, [monthKey, `${PREFIX}applied:${inst}`], [n, seq, MONTH_TTL_S]) as Promise<number>;
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

  /** The first part of a file sent to a key in a UTC day, by any instance: SET NX of one key per (day, key,
   *  file). While Redis is unreachable this instance decides alone (a part then counts unless this instance
   *  sent one that day: never less than once per instance). */
  async firstPartOfDay(keyId: string, file: string, now: number, whole: boolean): Promise<boolean> {
    const local = this.filesSent.firstOfDay(keyId, file, now, whole);
    try {
      const set = await this.redis.set(`${PREFIX}sent:${utcDay(now)}:${keyId}:${file}`, '1', 'EX', SENT_TTL_S, 'NX');
      return set === 'OK' || whole;
    } catch {
      return local;
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
