// Reads a state folder's <state>/state.db (api/state-db.ts) directly with node:sqlite, not through the stores
// under test: the usage counts by month and key, and the key records.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Runs fn over the state database of a folder, then closes it. */
export function withStateDb<T>(state: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(state, 'state.db'), { timeout: 15_000 });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The usage counts in the shape usage.json had: month -> key id -> 2xx count. */
export function usageMonths(state: string): { months: Record<string, Record<string, number>> } {
  const rows = withStateDb(state, (db) => db.prepare('SELECT month, key_id, count FROM usage').all() as { month: string; key_id: string; count: number }[]);
  const months: Record<string, Record<string, number>> = {};
  for (const r of rows) (months[r.month] ??= {})[r.key_id] = Number(r.count);
  return { months };
}
