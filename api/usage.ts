// Monthly usage per key (2xx answers only) and last use, durable in <state>/state.db (api/state-db.ts).
// Counts are kept in memory and added to the database every second (one write transaction, `count =
// count + n`, so several processes over one state folder add up instead of overwriting each other) and on
// shutdown. The database's count of a key is read once per flush period (not per request): another
// process's counts show here within a second, this process's own at once. The documented bound: a crash (SIGKILL) loses at most the counts of the last second before
// it; a clean stop loses none. An older <state>/usage.json is imported on first open.
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { migrateFile, openStateDb, transaction } from './state-db.ts';

interface UsageFile {
  months?: Record<string, Record<string, number>>; // 'YYYY-MM' -> key id -> 2xx count
  last_used?: Record<string, string>; // key id -> ISO time
}

// The calendar month (UTC) of the last time asked about: both functions below run on every request.
let monthCache = { from: 0, to: -1, month: '' };
function monthAround(now: number): typeof monthCache {
  if (now >= monthCache.from && now < monthCache.to) return monthCache;
  const d = new Date(now);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  monthCache = { from, to: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), month: d.toISOString().slice(0, 7) };
  return monthCache;
}

/** 'YYYY-MM' (UTC) of a time. */
export function monthOf(now: number): string {
  return monthAround(now).month;
}

/** Unix seconds of the next calendar month's start (00:00 UTC on the 1st). */
export function nextMonthStart(now: number): number {
  return monthAround(now).to / 1000;
}

export class UsageStore {
  readonly db: DatabaseSync;
  private pending = new Map<string, Map<string, number>>(); // month -> key id -> counts not yet written
  private readonly lastUsedMs = new Map<string, number>();
  private dirtyLastUsed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** month -> key id -> the count in the database when last read; forgotten at every flush. */
  private stored = new Map<string, Map<string, number>>();
  private readonly readCount: ReturnType<DatabaseSync['prepare']>;

  constructor(stateDir: string) {
    this.db = openStateDb(stateDir);
    const count = this.db.prepare('INSERT INTO usage (month, key_id, count) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET count = MAX(count, excluded.count)');
    const last = this.db.prepare('INSERT INTO last_used (key_id, at) VALUES (?, ?) ON CONFLICT DO UPDATE SET at = MAX(at, excluded.at)');
    migrateFile(this.db, path.join(stateDir, 'usage.json'), (parsed) => {
      const f = (parsed ?? {}) as UsageFile;
      for (const [month, byKey] of Object.entries(f.months ?? {})) for (const [id, n] of Object.entries(byKey ?? {})) if (Number.isInteger(n)) count.run(month, id, n);
      for (const [id, at] of Object.entries(f.last_used ?? {})) if (typeof at === 'string') last.run(id, at);
    });
    this.readCount = this.db.prepare('SELECT count FROM usage WHERE month = ? AND key_id = ?');
  }

  /** The month's count: the database's (read once per flush period) plus the counts not yet written. */
  monthCount(keyId: string, now = Date.now()): number {
    const month = monthOf(now);
    let inMonth = this.stored.get(month);
    if (!inMonth) this.stored.set(month, (inMonth = new Map()));
    let stored = inMonth.get(keyId);
    if (stored === undefined) {
      const row = this.readCount.get(month, keyId) as { count: number } | undefined;
      stored = Number(row?.count ?? 0);
      inMonth.set(keyId, stored);
    }
    return stored + (this.pending.get(month)?.get(keyId) ?? 0);
  }

  lastUsed(keyId: string): string | null {
    const ms = this.lastUsedMs.get(keyId);
    if (ms !== undefined) return new Date(ms).toISOString();
    const row = this.db.prepare('SELECT at FROM last_used WHERE key_id = ?').get(keyId) as { at: string } | undefined;
    return row?.at ?? null;
  }

  /** Notes a use (kept as a number; written as ISO text on flush). */
  touch(keyId: string, now = Date.now()): void {
    this.lastUsedMs.set(keyId, now);
    this.dirtyLastUsed.add(keyId);
  }

  /** Counts one successful (2xx) answer. */
  count(keyId: string, now = Date.now()): void {
    const month = monthOf(now);
    let m = this.pending.get(month);
    if (!m) this.pending.set(month, (m = new Map()));
    m.set(keyId, (m.get(keyId) ?? 0) + 1);
  }

  startFlushing(ms = 1000): void {
    this.timer ??= setInterval(() => { try { this.flush(); } catch { /* busy: the counts stay for the next flush */ } }, ms);
    this.timer.unref();
  }

  /** Adds the counts and last uses gathered since the last flush to the database, in one transaction. */
  flush(): void {
    this.stored.clear(); // read again from the database: other processes' counts, and ours once written
    if (this.pending.size === 0 && this.dirtyLastUsed.size === 0) return;
    if (!this.db.isOpen) return;
    const pending = this.pending;
    const touched = this.dirtyLastUsed;
    this.pending = new Map();
    this.dirtyLastUsed = new Set();
    try {
      transaction(this.db, () => {
        const add = this.db.prepare('INSERT INTO usage (month, key_id, count) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count');
        for (const [month, byKey] of pending) for (const [id, n] of byKey) add.run(month, id, n);
        const last = this.db.prepare('INSERT INTO last_used (key_id, at) VALUES (?, ?) ON CONFLICT DO UPDATE SET at = MAX(at, excluded.at)');
        for (const id of touched) last.run(id, new Date(this.lastUsedMs.get(id)!).toISOString());
      });
    } catch (err) {
      // The database was busy past its timeout: keep the counts for the next flush.
      for (const [month, byKey] of pending) for (const [id, n] of byKey) { let m = this.pending.get(month); if (!m) this.pending.set(month, (m = new Map())); m.set(id, (m.get(id) ?? 0) + n); }
      for (const id of touched) this.dirtyLastUsed.add(id);
      throw err;
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
    if (this.db.isOpen) this.db.close();
  }
}
