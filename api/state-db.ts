// The state of one machine's API processes in one SQLite database, <state>/state.db (node:sqlite, built into
// Node 24): API keys, monthly usage and last use, webhook registrations, the webhook outbox and its dead
// letters. Why SQLite and not JSON files: several processes (the server, a second server, `reii keys create`)
// write the same state at once. A file rewritten whole by each writer loses the other writers' changes (20
// concurrent `keys create` kept 6); SQLite in WAL mode serialises writers with its file locks, lets readers go
// on while one writes, and a write transaction (BEGIN IMMEDIATE) checks and takes a cap or a counter in one
// atomic step. synchronous=NORMAL: a commit survives a crash of the process (SIGKILL); only an OS crash or
// power loss can lose the last commits. With REII_REDIS_URL set, keys and limits live in Redis instead
// (api/redis*.ts). Older state files (keys.json, usage.json, webhooks/*.json) are imported on first open and
// renamed to <name>.migrated, so no key or count is lost in the move. The schema is versioned (PRAGMA
// user_version, SCHEMA_VERSION) and an older state.db is migrated in place on open, its rows kept.
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The schema's version, kept in `PRAGMA user_version`. 0: a state.db made before versioning (its outbox
 *  may lack next_attempt_at and the due indexes); MIGRATIONS[v] brings a database from version v to v + 1. */
export const SCHEMA_VERSION = 1;

const TABLES = `
CREATE TABLE IF NOT EXISTS keys (id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS usage (month TEXT NOT NULL, key_id TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (month, key_id));
CREATE TABLE IF NOT EXISTS last_used (key_id TEXT PRIMARY KEY, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_endpoints (id TEXT PRIMARY KEY, key_id TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS webhook_endpoints_key ON webhook_endpoints (key_id);
CREATE TABLE IF NOT EXISTS webhook_outbox (file TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, seq INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_dead (file TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, message TEXT NOT NULL);
`;

const MIGRATIONS: readonly ((db: DatabaseSync) => void)[] = [
  // 0 -> 1: the first layout's outbox had no next_attempt_at column (the time was only inside the message
  // JSON); it is added and filled from the JSON, and the due and seq indexes are made.
  (db) => {
    const cols = (db.prepare('PRAGMA table_info(webhook_outbox)').all() as { name: string }[]).map((c) => c.name);
    if (!cols.includes('next_attempt_at')) {
      db.exec('ALTER TABLE webhook_outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0');
      db.exec("UPDATE webhook_outbox SET next_attempt_at = coalesce(json_extract(message, '$.next_attempt_at'), 0)");
    }
    db.exec('CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (endpoint_id, next_attempt_at, seq); CREATE INDEX IF NOT EXISTS webhook_outbox_seq ON webhook_outbox (seq);');
  },
];

/** Brings a database to SCHEMA_VERSION in one write transaction: the tables it lacks are made, then each
 *  step from its user_version on runs. A database of a newer version than this code is refused. */
function migrate(db: DatabaseSync): void {
  transaction(db, () => {
    const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (version > SCHEMA_VERSION) throw new Error(`state.db has schema version ${version}, newer than this program's ${SCHEMA_VERSION}: upgrade the program`);
    db.exec(TABLES);
    for (let v = version; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
    if (version !== SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

/** The database file of a state folder. */
export const stateDbFile = (stateDir: string): string => path.join(stateDir, 'state.db');

/** Opens <state>/state.db (made 0600: it holds key hashes and webhook secrets) in WAL mode with the schema. */
export function openStateDb(stateDir: string): DatabaseSync {
  fs.mkdirSync(stateDir, { recursive: true });
  const file = stateDbFile(stateDir);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new DatabaseSync(file, { timeout: 15_000 }); // busy timeout: wait for another writer's lock
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  migrate(db);
  return db;
}

/** Runs fn in a write transaction taken at once (BEGIN IMMEDIATE): what it reads cannot change before it commits. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** A number that moves whenever another connection committed a change (PRAGMA data_version). */
export function dataVersion(db: DatabaseSync): number {
  return Number((db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version);
}

/** Imports an older JSON state file once: `load` runs inside a write transaction with the parsed file, and
 *  the file is renamed to <file>.migrated after the commit. A crash between the two imports it again, so
 *  every load is idempotent (INSERT OR IGNORE, or MAX for counts). An unreadable file is left alone. */
export function migrateFile(db: DatabaseSync, file: string, load: (parsed: unknown) => void): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return;
  }
  transaction(db, () => load(parsed));
  try {
    fs.renameSync(file, `${file}.migrated`);
  } catch {
    // another process renamed it first
  }
}
