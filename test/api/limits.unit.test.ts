// Unit tests of the per-minute windows (api/rate-limit.ts), the monthly usage store (api/usage.ts) and the
// in-process limit store built from them (api/limits.ts), on an injected clock (no waiting on real time).
// Oracles: the documented rules (fixed windows reset at the next whole minute, limit null never blocks, the month
// is the UTC calendar month, counts in <state>/state.db survive a restart and add up across processes,
// read back here with node:sqlite directly), with times worked out by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { WindowLimiter } from '../../api/rate-limit.ts';
import { monthOf, nextMonthStart, UsageStore } from '../../api/usage.ts';
import { MemoryLimits } from '../../api/limits.ts';
import { DatabaseSync } from 'node:sqlite';

/** The usage rows of a state folder's database, read directly (not through the store under test). */
function dbUsage(dir: string): { month: string; key_id: string; count: number }[] {
  const db = new DatabaseSync(path.join(dir, 'state.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT month, key_id, count FROM usage ORDER BY month, key_id').all() as { month: string; key_id: string; count: number }[]).map((r) => ({ ...r }));
  } finally {
    db.close();
  }
}

const T0 = Date.UTC(2026, 10, 21, 6, 0, 0); // 2026-11-21T06:00:00Z, a whole minute
const dirs: string[] = [];
const tmpState = (): string => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-limits-unit-')); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

describe('WindowLimiter (fixed per-minute windows)', () => {
  test('a limit of 3: three hits pass with 2, 1, 0 remaining, the fourth is refused, all with the same reset', () => {
    const l = new WindowLimiter();
    const reset = (T0 + 60_000) / 1000;
    expect(l.hit('k', 3, T0)).toEqual({ limit: 3, remaining: 2, reset, allowed: true });
    expect(l.hit('k', 3, T0 + 1_000)).toEqual({ limit: 3, remaining: 1, reset, allowed: true });
    expect(l.hit('k', 3, T0 + 59_000)).toEqual({ limit: 3, remaining: 0, reset, allowed: true });
    expect(l.hit('k', 3, T0 + 59_999)).toEqual({ limit: 3, remaining: 0, reset, allowed: false });
  });

  test('the window resets at the next whole minute, not 60 s after the first hit', () => {
    const l = new WindowLimiter();
    const first = T0 + 50_000; // 10 s before the minute ends
    expect(l.hit('k', 1, first).allowed).toBe(true);
    expect(l.hit('k', 1, T0 + 59_999).allowed).toBe(false);
    const next = l.hit('k', 1, T0 + 60_000);
    expect(next).toEqual({ limit: 1, remaining: 0, reset: (T0 + 120_000) / 1000, allowed: true });
  });

  test('refused hits do not count: once the window turns, the full limit is back', () => {
    const l = new WindowLimiter();
    for (let i = 0; i < 2; i++) l.hit('k', 2, T0);
    for (let i = 0; i < 5; i++) expect(l.hit('k', 2, T0 + i).allowed).toBe(false);
    expect(l.hit('k', 2, T0 + 60_000).remaining).toBe(1);
  });

  test('ids are counted apart', () => {
    const l = new WindowLimiter();
    l.hit('a', 1, T0);
    expect(l.hit('a', 1, T0).allowed).toBe(false);
    expect(l.hit('b', 1, T0).allowed).toBe(true);
  });

  test('limit null never blocks and reports remaining null', () => {
    const l = new WindowLimiter();
    for (let i = 0; i < 50; i++) expect(l.hit('k', null, T0)).toEqual({ limit: null, remaining: null, reset: (T0 + 60_000) / 1000, allowed: true });
  });

  test('a limit of 0 refuses the first hit', () => {
    expect(new WindowLimiter().hit('k', 0, T0)).toMatchObject({ allowed: false, remaining: 0 });
  });

  test('peek reports the window without counting', () => {
    const l = new WindowLimiter();
    expect(l.peek('k', 2, T0)).toEqual({ limit: 2, remaining: 2, reset: (T0 + 60_000) / 1000, allowed: true });
    l.hit('k', 2, T0);
    expect(l.peek('k', 2, T0)).toMatchObject({ remaining: 1, allowed: true });
    expect(l.peek('k', 2, T0)).toMatchObject({ remaining: 1, allowed: true });
    l.hit('k', 2, T0);
    expect(l.peek('k', 2, T0)).toMatchObject({ remaining: 0, allowed: false });
  });

  test('other window lengths: a 10-minute window (failed authentications) resets on the 10-minute boundary', () => {
    const l = new WindowLimiter(600_000);
    const at = T0 + 7 * 60_000; // 06:07
    expect(l.hit('ip', 1, at)).toEqual({ limit: 1, remaining: 0, reset: (T0 + 600_000) / 1000, allowed: true });
    expect(l.hit('ip', 1, T0 + 599_999).allowed).toBe(false);
    expect(l.hit('ip', 1, T0 + 600_000).allowed).toBe(true);
  });

  test('past 100,000 ids the old windows are dropped, current ones kept', () => {
    const l = new WindowLimiter();
    for (let i = 0; i < 100_000; i++) l.hit(`old${i}`, 1, T0);
    l.hit('cur', 1, T0 + 60_000); // 100,001st id, in a later window: sweeps
    const windows = (l as unknown as { windows: Map<string, unknown> }).windows;
    expect(windows.size).toBe(1);
    expect(l.hit('cur', 1, T0 + 60_000).allowed).toBe(false); // its count survived the sweep
  });
});

describe('months (UTC calendar)', () => {
  test('monthOf and nextMonthStart at the edges of months and years', () => {
    expect(monthOf(Date.UTC(2026, 10, 30, 23, 59, 59, 999))).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 11, 1))).toBe('2026-12');
    expect(nextMonthStart(Date.UTC(2026, 11, 1))).toBe(Date.UTC(2027, 0, 1) / 1000);
    expect(monthOf(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe('2026-12');
    expect(nextMonthStart(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe(Date.UTC(2027, 0, 1) / 1000);
    expect(monthOf(Date.UTC(2027, 0, 1))).toBe('2027-01');
    expect(nextMonthStart(Date.UTC(2027, 0, 1))).toBe(Date.UTC(2027, 1, 1) / 1000);
    // back and forth (the month is cached between calls)
    expect(monthOf(Date.UTC(2024, 1, 29, 12))).toBe('2024-02');
    expect(nextMonthStart(Date.UTC(2024, 1, 29, 12))).toBe(Date.UTC(2024, 2, 1) / 1000);
    expect(monthOf(Date.UTC(2024, 2, 1) - 1)).toBe('2024-02');
    expect(monthOf(Date.UTC(2024, 1, 1))).toBe('2024-02');
    expect(monthOf(Date.UTC(2024, 1, 1) - 1)).toBe('2024-01');
    expect(monthOf(Date.UTC(2024, 2, 1))).toBe('2024-03');
  });
});

describe('UsageStore', () => {
  test('counts per key and per month; other keys and months are untouched', () => {
    const u = new UsageStore(tmpState());
    const nov = Date.UTC(2026, 10, 21), dec = Date.UTC(2026, 11, 1);
    u.count('a', nov); u.count('a', nov); u.count('b', nov); u.count('a', dec);
    expect(u.monthCount('a', nov)).toBe(2);
    expect(u.monthCount('b', nov)).toBe(1);
    expect(u.monthCount('a', dec)).toBe(1);
    expect(u.monthCount('b', dec)).toBe(0);
    expect(u.monthCount('nobody', nov)).toBe(0);
  });

  test('last use: null until touched, then the latest touch as ISO text', () => {
    const u = new UsageStore(tmpState());
    expect(u.lastUsed('a')).toBeNull();
    u.touch('a', T0);
    u.touch('a', T0 + 5_000);
    expect(u.lastUsed('a')).toBe('2026-11-21T06:00:05.000Z');
    expect(u.lastUsed('b')).toBeNull();
  });

  test('flush adds the counts to <state>/state.db; a new store over the same folder (a restart) has the counts and last uses', () => {
    const dir = tmpState();
    const u = new UsageStore(dir);
    u.count('a', T0); u.count('a', T0); u.touch('a', T0 + 1_000);
    expect(dbUsage(dir)).toEqual([]); // nothing written before a flush
    u.flush();
    expect(dbUsage(dir)).toEqual([{ month: '2026-11', key_id: 'a', count: 2 }]);
    const again = new UsageStore(dir);
    expect(again.monthCount('a', T0)).toBe(2);
    expect(again.lastUsed('a')).toBe('2026-11-21T06:00:01.000Z');
    again.count('a', T0);
    expect(again.monthCount('a', T0)).toBe(3);
    u.close(); again.close();
  });

  test('two processes over one state folder add up their counts (a whole-file rewrite kept only the last writer)', () => {
    const dir = tmpState();
    const one = new UsageStore(dir), two = new UsageStore(dir);
    for (let i = 0; i < 5; i++) one.count('a', T0);
    for (let i = 0; i < 7; i++) two.count('a', T0);
    one.flush(); two.flush();
    one.count('a', T0); one.flush();
    expect(dbUsage(dir)).toEqual([{ month: '2026-11', key_id: 'a', count: 13 }]);
    expect(two.monthCount('a', T0)).toBe(13);
    one.close(); two.close();
  });

  test('the flushing timer writes changes without close', async () => {
    const dir = tmpState();
    const u = new UsageStore(dir);
    u.startFlushing(10);
    u.count('k', T0);
    const deadline = Date.now() + 10_000;
    while (dbUsage(dir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(dbUsage(dir)).toEqual([{ month: '2026-11', key_id: 'k', count: 1 }]);
    u.close();
  });

  test('an older usage.json is imported once (renamed .migrated); an import repeated after a crash adds nothing', () => {
    const dir = tmpState();
    const old = JSON.stringify({ months: { '2026-11': { a: 1999, b: 3 } }, last_used: { a: '2026-11-20T00:00:00.000Z' } });
    fs.writeFileSync(path.join(dir, 'usage.json'), old);
    const u = new UsageStore(dir);
    expect(u.monthCount('a', T0)).toBe(1999);
    expect(u.lastUsed('a')).toBe('2026-11-20T00:00:00.000Z');
    expect(fs.existsSync(path.join(dir, 'usage.json'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'usage.json.migrated'))).toBe(true);
    u.close();
    fs.writeFileSync(path.join(dir, 'usage.json'), old); // as if the process died between commit and rename
    const again = new UsageStore(dir);
    expect(again.monthCount('a', T0)).toBe(1999);
    expect(again.monthCount('b', T0)).toBe(3);
    again.close();
  });

  test('a usage.json missing its sections, or unreadable, starts empty instead of failing', () => {
    const dir = tmpState();
    fs.writeFileSync(path.join(dir, 'usage.json'), '{}');
    const u = new UsageStore(dir);
    expect(u.monthCount('a', T0)).toBe(0);
    expect(u.lastUsed('a')).toBeNull();
    u.count('a', T0);
    expect(u.monthCount('a', T0)).toBe(1);
    const broken = tmpState();
    fs.writeFileSync(path.join(broken, 'usage.json'), '{"months": ');
    expect(new UsageStore(broken).monthCount('a', T0)).toBe(0);
    expect(fs.existsSync(path.join(broken, 'usage.json'))).toBe(true); // left for a person to look at
  });
});

describe('MemoryLimits (one process)', () => {
  test('hit counts the minute window and reports the month before this call; countSuccess adds to the month', async () => {
    const dir = tmpState();
    const m = new MemoryLimits(dir);
    try {
      const h1 = await m.hit('k', 2, T0);
      expect(h1).toEqual({ window: { limit: 2, remaining: 1, reset: (T0 + 60_000) / 1000, allowed: true }, monthUsed: 0, degraded: false });
      await m.countSuccess('k', T0);
      const h2 = await m.hit('k', 2, T0 + 1);
      expect(h2.window).toMatchObject({ remaining: 0, allowed: true });
      expect(h2.monthUsed).toBe(1);
      expect((await m.hit('k', 2, T0 + 2)).window.allowed).toBe(false);
      expect(await m.monthCount('k', T0)).toBe(1);
      expect(await m.monthCount('k', Date.UTC(2026, 11, 1))).toBe(0);
      expect(await m.lastUsed('k')).toBe('2026-11-21T06:00:00.002Z');
      expect(await m.lastUsed('other')).toBeNull();
      expect(m.health()).toEqual({ backend: 'memory', status: 'ok', detail: null });
    } finally {
      await m.close();
    }
    // close wrote the month to <state>/state.db: a new process starts from it
    const again = new MemoryLimits(dir);
    expect(await again.monthCount('k', T0)).toBe(1);
    expect(await again.lastUsed('k')).toBe('2026-11-21T06:00:00.002Z');
    await again.close();
  });
});
