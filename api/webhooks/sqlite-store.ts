// The webhook store (store.ts) of one machine in <state>/state.db (api/state-db.ts: SQLite in WAL mode, shared safely by every
// process over the state folder; each change is one transaction):
//   webhook_endpoints  every registered endpoint, its secret (needed to sign; the file is 0600), status and
//                      last delivery. A registration checks the per-key cap and inserts in one transaction.
//   webhook_outbox     one row per (endpoint, event) message not yet delivered: the exact body, attempts and
//                      the time of the next attempt. Deleted only after a 2xx, so a crash loses nothing. An
//                      attempt is claimed by a compare-and-set on `attempts`, so two processes never both send it.
//   webhook_dead       messages given up on (retries exhausted, endpoint disabled), listed by the API
//   meta 'webhooks.cursor'  the last build whose events were emitted ({build_id, dir}); 'webhooks.emitting' its lock
// The older file layout (<state>/webhooks/endpoints.json, outbox/, dead/, cursor.json) is imported once.
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { migrateFile, openStateDb, transaction } from '../state-db.ts';
import { messageFile, type Cursor, type EndpointPatch, type EndpointRecord, type NewMessage, type OutboxMessage, type WebhookStore } from './store.ts';

const parse = <T>(rows: unknown[], col: string): T[] => rows.map((r) => JSON.parse((r as Record<string, string>)[col]!) as T);

export class SqliteWebhookStore implements WebhookStore {
  readonly db: DatabaseSync;

  constructor(stateDir: string) {
    this.db = openStateDb(stateDir);
    this.importFiles(path.join(stateDir, 'webhooks'));
  }

  /** The file layout before state.db: imported once (rows are INSERT OR IGNORE), files renamed .migrated. */
  private importFiles(dir: string): void {
    if (!fs.existsSync(dir)) return;
    migrateFile(this.db, path.join(dir, 'endpoints.json'), (list) => {
      for (const e of (Array.isArray(list) ? list : []) as EndpointRecord[]) this.db.prepare('INSERT OR IGNORE INTO webhook_endpoints (id, key_id, record) VALUES (?, ?, ?)').run(e.id, e.key_id, JSON.stringify(e));
    });
    migrateFile(this.db, path.join(dir, 'cursor.json'), (c) => { this.db.prepare("INSERT OR IGNORE INTO meta (name, value) VALUES ('webhooks.cursor', ?)").run(JSON.stringify(c)); });
    for (const [sub, table] of [['outbox', 'webhook_outbox'], ['dead', 'webhook_dead']] as const) {
      const d = path.join(dir, sub);
      if (!fs.existsSync(d)) continue;
      for (const name of fs.readdirSync(d).filter((n) => n.endsWith('.json'))) {
        migrateFile(this.db, path.join(d, name), (m) => {
          const msg = { ...(m as OutboxMessage), file: name };
          if (table === 'webhook_outbox') this.db.prepare('INSERT OR IGNORE INTO webhook_outbox (file, endpoint_id, seq, next_attempt_at, message) VALUES (?, ?, ?, ?, ?)').run(name, msg.endpoint_id, msg.seq, msg.next_attempt_at, JSON.stringify(msg));
          else this.db.prepare('INSERT OR IGNORE INTO webhook_dead (file, endpoint_id, message) VALUES (?, ?, ?)').run(name, msg.endpoint_id, JSON.stringify(msg));
        });
      }
    }
  }

  // ------------------------------------------------------------ endpoints

  async allEndpoints(): Promise<EndpointRecord[]> {
    return parse<EndpointRecord>(this.db.prepare('SELECT record FROM webhook_endpoints ORDER BY rowid').all(), 'record');
  }

  async endpointsOfKey(keyId: string): Promise<EndpointRecord[]> {
    return parse<EndpointRecord>(this.db.prepare('SELECT record FROM webhook_endpoints WHERE key_id = ? ORDER BY rowid').all(keyId), 'record');
  }

  async endpoint(id: string): Promise<EndpointRecord | undefined> {
    return this.endpointNow(id);
  }

  private endpointNow(id: string): EndpointRecord | undefined {
    const row = this.db.prepare('SELECT record FROM webhook_endpoints WHERE id = ?').get(id) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as EndpointRecord) : undefined;
  }

  /** The count and the insert are one transaction, so concurrent registrations (from any process) can never
   *  pass the cap together. */
  async addEndpoint(rec: EndpointRecord, cap = Infinity): Promise<boolean> {
    return transaction(this.db, () => {
      const { n } = this.db.prepare('SELECT count(*) AS n FROM webhook_endpoints WHERE key_id = ?').get(rec.key_id) as { n: number };
      if (Number(n) >= cap) return false;
      this.db.prepare('INSERT INTO webhook_endpoints (id, key_id, record) VALUES (?, ?, ?)').run(rec.id, rec.key_id, JSON.stringify(rec));
      return true;
    });
  }

  async updateEndpoint(id: string, patch: EndpointPatch): Promise<EndpointRecord | undefined> {
    return transaction(this.db, () => {
      const cur = this.endpointNow(id);
      if (!cur) return undefined;
      const next = { ...cur, ...(typeof patch === 'function' ? patch(cur) : patch) };
      this.db.prepare('UPDATE webhook_endpoints SET record = ? WHERE id = ?').run(JSON.stringify(next), id);
      return next;
    });
  }

  async removeEndpoint(id: string): Promise<boolean> {
    return transaction(this.db, () => {
      const gone = Number(this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes) > 0;
      if (gone) this.db.prepare('DELETE FROM webhook_outbox WHERE endpoint_id = ?').run(id);
      return gone;
    });
  }

  // ------------------------------------------------------------ outbox

  async messagesOf(endpointId: string): Promise<OutboxMessage[]> {
    return parse<OutboxMessage>(this.db.prepare('SELECT message FROM webhook_outbox WHERE endpoint_id = ? ORDER BY seq').all(endpointId), 'message');
  }

  /** One indexed query per endpoint: a storm of one endpoint's messages does not hide another endpoint's. */
  async dueMessages(now: number, perEndpoint: number): Promise<OutboxMessage[]> {
    const ids = this.db.prepare('SELECT id FROM webhook_endpoints').all() as { id: string }[];
    const oldest = this.db.prepare('SELECT message FROM webhook_outbox WHERE endpoint_id = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?');
    const due = ids.flatMap(({ id }) => parse<OutboxMessage>(oldest.all(id, now, perEndpoint), 'message'));
    return due.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq);
  }

  async pendingCount(endpointId: string): Promise<number> {
    return Number((this.db.prepare('SELECT count(*) AS n FROM webhook_outbox WHERE endpoint_id = ?').get(endpointId) as { n: number }).n);
  }

  private message(file: string): OutboxMessage | undefined {
    const row = this.db.prepare('SELECT message FROM webhook_outbox WHERE file = ?').get(file) as { message: string } | undefined;
    return row ? (JSON.parse(row.message) as OutboxMessage) : undefined;
  }

  async enqueue(m: NewMessage): Promise<boolean> {
    const file = messageFile(m.endpoint_id, m.event_id);
    return transaction(this.db, () => {
      if (this.message(file)) return false;
      const { s } = this.db.prepare('SELECT coalesce(max(seq), 0) + 1 AS s FROM webhook_outbox').get() as { s: number };
      const msg: OutboxMessage = { ...m, file, seq: Number(s) };
      this.db.prepare('INSERT INTO webhook_outbox (file, endpoint_id, seq, next_attempt_at, message) VALUES (?, ?, ?, ?, ?)').run(file, m.endpoint_id, msg.seq, msg.next_attempt_at, JSON.stringify(msg));
      return true;
    });
  }

  async updateMessage(m: OutboxMessage, patch: Partial<OutboxMessage>): Promise<OutboxMessage | undefined> {
    return transaction(this.db, () => this.write(m.file, patch));
  }

  private write(file: string, patch: Partial<OutboxMessage>): OutboxMessage | undefined {
    const cur = this.message(file);
    if (!cur) return undefined;
    const next = { ...cur, ...patch };
    this.db.prepare('UPDATE webhook_outbox SET message = ?, next_attempt_at = ? WHERE file = ?').run(JSON.stringify(next), next.next_attempt_at, file);
    return next;
  }

  /** A compare-and-set on `attempts` and the due time, in one transaction. */
  async claim(m: OutboxMessage, now: number, patch: Partial<OutboxMessage>): Promise<OutboxMessage | undefined> {
    return transaction(this.db, () => {
      const cur = this.message(m.file);
      if (!cur || cur.attempts !== m.attempts || cur.next_attempt_at > now) return undefined;
      return this.write(m.file, patch);
    });
  }

  async delivered(m: OutboxMessage): Promise<void> {
    await this.deleteMessage(m);
  }

  async deleteMessage(m: OutboxMessage): Promise<void> {
    this.db.prepare('DELETE FROM webhook_outbox WHERE file = ?').run(m.file);
  }

  async buryMessage(m: OutboxMessage, reason: string): Promise<void> {
    transaction(this.db, () => {
      const cur = this.message(m.file);
      if (!cur) return;
      this.db.prepare('INSERT OR REPLACE INTO webhook_dead (file, endpoint_id, message) VALUES (?, ?, ?)').run(m.file, cur.endpoint_id, JSON.stringify({ ...cur, dead_reason: reason }));
      this.db.prepare('DELETE FROM webhook_outbox WHERE file = ?').run(m.file);
    });
  }

  async deadMessages(endpointId: string): Promise<OutboxMessage[]> {
    return parse<OutboxMessage>(this.db.prepare('SELECT message FROM webhook_dead WHERE endpoint_id = ? ORDER BY rowid').all(endpointId), 'message');
  }

  async deadCount(endpointId: string): Promise<number> {
    return Number((this.db.prepare('SELECT count(*) AS n FROM webhook_dead WHERE endpoint_id = ?').get(endpointId) as { n: number }).n);
  }

  // ------------------------------------------------------------ cursor

  async cursor(): Promise<Cursor | null> {
    const row = this.db.prepare("SELECT value FROM meta WHERE name = 'webhooks.cursor'").get() as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as Cursor) : null;
  }

  async setCursor(c: Cursor): Promise<void> {
    this.db.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('webhooks.cursor', ?)").run(JSON.stringify(c));
  }

  /** meta 'webhooks.emitting' = {holder, until}: taken in one transaction when free, expired or already ours. */
  async lockEmission(holder: string, now: number, ms: number): Promise<boolean> {
    return transaction(this.db, () => {
      const row = this.db.prepare("SELECT value FROM meta WHERE name = 'webhooks.emitting'").get() as { value: string } | undefined;
      const cur = row ? (JSON.parse(row.value) as { holder: string; until: number }) : null;
      if (cur && cur.holder !== holder && cur.until > now) return false;
      this.db.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('webhooks.emitting', ?)").run(JSON.stringify({ holder, until: now + ms }));
      return true;
    });
  }

  async unlockEmission(holder: string): Promise<void> {
    this.db.prepare("DELETE FROM meta WHERE name = 'webhooks.emitting' AND json_extract(value, '$.holder') = ?").run(holder);
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}
