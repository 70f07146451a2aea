// state.db schema versioning (api/state-db.ts): a database of the first layout, made here with that layout's
// own DDL (no user_version, an outbox without next_attempt_at nor the due indexes), is migrated in place on
// open with every row kept, and the webhook store reads its outbox by the new column.
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openStateDb, SCHEMA_VERSION } from '../../api/state-db.ts';
import { SqliteWebhookStore } from '../../api/webhooks/sqlite-store.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { withStateDb } from '../helpers/state-db.ts';

afterAll(removeTmpDirs);

// The DDL of the first state.db (commit 20a8873), before versioning.
const FIRST_LAYOUT = `
CREATE TABLE keys (id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE usage (month TEXT NOT NULL, key_id TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (month, key_id));
CREATE TABLE last_used (key_id TEXT PRIMARY KEY, at TEXT NOT NULL);
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE webhook_endpoints (id TEXT PRIMARY KEY, key_id TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX webhook_endpoints_key ON webhook_endpoints (key_id);
CREATE TABLE webhook_outbox (file TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL);
CREATE TABLE webhook_dead (file TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, message TEXT NOT NULL);
`;

function firstLayoutDb(state: string, nextAttemptAt: number): void {
  const db = new DatabaseSync(path.join(state, 'state.db'));
  db.exec(FIRST_LAYOUT);
  db.prepare('INSERT INTO keys VALUES (?, ?)').run('k1', JSON.stringify({ id: 'k1', plan: 'pro' }));
  db.prepare('INSERT INTO usage VALUES (?, ?, ?)').run('2026-11', 'k1', 41);
  const endpoint = { id: 'wh_old', key_id: 'k1', url: 'https://example.com/h', events: ['build.published'], description: null, secret: 'whsec_x', status: 'active', disabled_reason: null, disabled_at: null, created_at: '2026-11-01T00:00:00.000Z', consecutive_failures: 0, failing_since: null, last_delivery: null };
  db.prepare('INSERT INTO webhook_endpoints VALUES (?, ?, ?)').run('wh_old', 'k1', JSON.stringify(endpoint));
  const msg = { file: 'wh_old__m1.json', event_id: 'evt_1', type: 'build.published', endpoint_id: 'wh_old', body: '{}', created_at: '2026-11-01T00:00:00.000Z', seq: 1, attempts: 2, next_attempt_at: nextAttemptAt, last_attempt_at: null, last_status: null, last_error: null };
  db.prepare('INSERT INTO webhook_outbox VALUES (?, ?, ?, ?)').run(msg.file, 'wh_old', 1, JSON.stringify(msg));
  db.close();
}

describe('state.db schema versioning', () => {
  test('a state.db of the first layout is migrated on open: user_version set, next_attempt_at filled from the message, rows kept', async () => {
    const state = tmp('reii-state-v0-');
    firstLayoutDb(state, 1_700_000_000_000);
    expect(withStateDb(state, (db) => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)).toBe(0);
    openStateDb(state).close();
    withStateDb(state, (db) => {
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT next_attempt_at FROM webhook_outbox').all().map((r) => Number((r as { next_attempt_at: number }).next_attempt_at))).toEqual([1_700_000_000_000]);
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_outbox'").all() as { name: string }[]).map((r) => r.name);
      expect(indexes).toEqual(expect.arrayContaining(['webhook_outbox_due', 'webhook_outbox_seq']));
      expect(db.prepare('SELECT count FROM usage WHERE key_id = ?').get('k1')).toEqual({ count: 41 });
      expect(db.prepare('SELECT count(*) AS n FROM keys').get()).toEqual({ n: 1 });
    });
    // The store reads the migrated outbox: the message is due exactly from its recorded time on.
    const store = new SqliteWebhookStore(state);
    try {
      expect(await store.dueMessages(1_700_000_000_000 - 1, 10)).toEqual([]);
      expect((await store.dueMessages(1_700_000_000_000, 10)).map((m) => [m.event_id, m.attempts])).toEqual([['evt_1', 2]]);
      expect((await store.endpoint('wh_old'))?.url).toBe('https://example.com/h');
    } finally {
      store.close();
    }
    // A second open finds the current version and changes nothing.
    openStateDb(state).close();
    expect(withStateDb(state, (db) => db.prepare('SELECT count(*) AS n FROM webhook_outbox').get())).toEqual({ n: 1 });
  });

  test('a state.db of a newer version than the program is refused with a clear error, not misread', () => {
    const state = tmp('reii-state-new-');
    openStateDb(state).close();
    withStateDb(state, (db) => db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`));
    expect(() => openStateDb(state)).toThrow(/newer than this program/);
  });
});
