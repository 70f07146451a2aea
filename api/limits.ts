// Per-key limits and usage behind one interface, so one API process or several can serve a key:
// MemoryLimits (one process, usage durable in <state>/state.db) and RedisLimits (api/redis-limits.ts,
// shared by every instance on one Redis). Per-address limits (public calls, failed keys) stay per
// instance: they protect each process, not an account.
import { WindowLimiter, type WindowState } from './rate-limit.ts';
import { UsageStore } from './usage.ts';
import { FilesSent } from './files-sent.ts';

export interface LimitsHealth {
  backend: 'memory' | 'redis';
  status: 'ok' | 'degraded';
  detail: string | null;
}

export interface KeyHit {
  window: WindowState; // the key's per-minute window after counting this request
  monthUsed: number; // 2xx answers counted this calendar month (UTC) before this request
  degraded: boolean; // true when the shared store was unreachable and this instance decided alone
  /** This request already counts toward the month (counted ahead, in the same round trip as the window):
   *  an answer that does not count takes it back with uncount(). */
  counted?: boolean;
}

/** Asked of hit() for a request whose answer will likely count: count it toward the month now if the window
 *  admits it and the month is below `monthLimit` (null = no limit), saving a round trip per answer. */
export interface CountAhead { monthLimit: number | null }

export interface LimitStore {
  /** Counts a request in the key's minute window (unless it is already full) and reads the month's count.
   *  A store that decides in memory answers synchronously (no microtask on the hot path). */
  hit(keyId: string, perMinute: number | null, now: number, ahead?: CountAhead): KeyHit | Promise<KeyHit>;
  /** Counts one 2xx answer toward the key's month (synchronously when in memory). */
  countSuccess(keyId: string, now: number): void | Promise<void>;
  /** Takes back a count hit() made ahead (`counted`) for an answer that does not count. */
  uncount?(keyId: string, now: number): void | Promise<void>;
  /** Whether a part of an export file (`file`: its ETag) is the first part of it sent to the key this UTC day,
   *  recorded for every instance the store serves (a whole file, `whole`, always counts; README "Limits"). */
  firstPartOfDay(keyId: string, file: string, now: number, whole: boolean): boolean | Promise<boolean>;
  monthCount(keyId: string, now: number): Promise<number>;
  lastUsed(keyId: string): Promise<string | null>;
  health(): LimitsHealth;
  close(): Promise<void>;
}

/** In memory, a count is as cheap as a hit: MemoryLimits never counts ahead. */
export class MemoryLimits implements LimitStore {
  private readonly windows = new WindowLimiter(60_000);
  private readonly filesSent = new FilesSent();
  readonly usage: UsageStore;

  constructor(stateDir: string) {
    this.usage = new UsageStore(stateDir);
    this.usage.startFlushing(1000);
  }

  hit(keyId: string, perMinute: number | null, now: number): KeyHit {
    this.usage.touch(keyId, now);
    return { window: this.windows.hit(keyId, perMinute, now), monthUsed: this.usage.monthCount(keyId, now), degraded: false };
  }

  countSuccess(keyId: string, now: number): void {
    this.usage.count(keyId, now);
  }

  firstPartOfDay(keyId: string, file: string, now: number, whole: boolean): boolean {
    return this.filesSent.firstOfDay(keyId, file, now, whole);
  }

  async monthCount(keyId: string, now: number): Promise<number> {
    return this.usage.monthCount(keyId, now);
  }

  async lastUsed(keyId: string): Promise<string | null> {
    return this.usage.lastUsed(keyId);
  }

  health(): LimitsHealth {
    return { backend: 'memory', status: 'ok', detail: null };
  }

  async close(): Promise<void> {
    this.usage.close();
  }
}
