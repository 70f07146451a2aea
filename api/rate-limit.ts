// Fixed windows: a per-minute window per key (or per client address), reset at the next whole minute.
// Every request counts toward the window; the monthly quota (2xx only) lives in usage.ts.

export interface WindowState {
  limit: number | null; // null = unlimited
  remaining: number | null;
  reset: number; // Unix seconds when the window ends
  allowed: boolean;
}

export class WindowLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private readonly windowMs: number;
  constructor(windowMs = 60_000) {
    this.windowMs = windowMs;
  }

  /** Counts a hit (when count is true) and reports the window; limit null never blocks. */
  hit(id: string, limit: number | null, now = Date.now(), count = true): WindowState {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    let w = this.windows.get(id);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(id, w);
      if (this.windows.size > 100_000) this.sweep(start);
    }
    const reset = Math.floor((start + this.windowMs) / 1000);
    if (limit !== null && w.count >= limit) return { limit, remaining: 0, reset, allowed: false };
    if (count) w.count++;
    return { limit, remaining: limit === null ? null : Math.max(0, limit - w.count), reset, allowed: true };
  }

  /** The window without counting. */
  peek(id: string, limit: number | null, now = Date.now()): WindowState {
    return this.hit(id, limit, now, false);
  }

  private sweep(start: number): void {
    for (const [k, v] of this.windows) if (v.start < start) this.windows.delete(k);
  }
}
