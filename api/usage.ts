// Monthly usage per key (2xx answers only) and last use, durable in <state>/usage.json: written
// every second while it changes and on shutdown, so a restart keeps the month's counts.
import fs from 'node:fs';
import path from 'node:path';

interface UsageFile {
  months: Record<string, Record<string, number>>; // 'YYYY-MM' -> key id -> 2xx count
  last_used: Record<string, string>; // key id -> ISO time
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
  readonly file: string;
  private data: UsageFile = { months: {}, last_used: {} };
  private dirty = false;
  private readonly lastUsedMs = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'usage.json');
    try {
      this.data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as UsageFile;
      this.data.months ??= {};
      this.data.last_used ??= {};
    } catch {
      // none yet
    }
  }

  monthCount(keyId: string, now = Date.now()): number {
    return this.data.months[monthOf(now)]?.[keyId] ?? 0;
  }

  lastUsed(keyId: string): string | null {
    const ms = this.lastUsedMs.get(keyId);
    return ms !== undefined ? new Date(ms).toISOString() : (this.data.last_used[keyId] ?? null);
  }

  /** Notes a use (kept as a number; written as ISO text on flush). */
  touch(keyId: string, now = Date.now()): void {
    this.lastUsedMs.set(keyId, now);
    this.dirty = true;
  }

  /** Counts one successful (2xx) answer. */
  count(keyId: string, now = Date.now()): void {
    const month = (this.data.months[monthOf(now)] ??= {});
    month[keyId] = (month[keyId] ?? 0) + 1;
    this.dirty = true;
  }

  startFlushing(ms = 1000): void {
    this.timer ??= setInterval(() => this.flush(), ms);
    this.timer.unref();
  }

  flush(): void {
    if (!this.dirty) return;
    for (const [id, ms] of this.lastUsedMs) this.data.last_used[id] = new Date(ms).toISOString();
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.data));
    fs.renameSync(tmp, this.file);
    this.dirty = false;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}
