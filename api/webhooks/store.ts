// Durable webhook state in <state>/state.db (api/state-db.ts: SQLite in WAL mode, shared safely by every
// process over the state folder; each change is one transaction):
//   webhook_endpoints  every registered endpoint, its secret (needed to sign; the file is 0600), status and
//                      last delivery. A registration checks the per-key cap and inserts in one transaction.
//   webhook_outbox     one row per (endpoint, event) message not yet delivered: the exact body, attempts and
//                      the time of the next attempt. Deleted only after a 2xx, so a crash loses nothing. An
//                      attempt is claimed by a compare-and-set on `attempts`, so two processes never both send it.
//   webhook_dead       messages given up on (retries exhausted, endpoint disabled), listed by the API
//   meta 'webhooks.cursor'  the last build whose events were emitted ({build_id, dir})
// The older file layout (<state>/webhooks/endpoints.json, outbox/, dead/, cursor.json) is imported once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { migrateFile, openStateDb, transaction } from '../state-db.ts';

export const EVENT_TYPES = ['build.published', 'market.rehab_label_changed', 'regulation.changed'] as const;
export type SubscribableEvent = (typeof EVENT_TYPES)[number];
export type EventType = SubscribableEvent | 'webhook.test';

export interface LastDelivery {
  event_id: string;
  type: string;
  attempted_at: string;
  ok: boolean;
  status_code: number | null;
  error: string | null;
}

export interface EndpointRecord {
  id: string;
  key_id: string;
  url: string;
  events: SubscribableEvent[];
  description: string | null;
  secret: string;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  consecutive_failures: number;
  failing_since: string | null;
  last_delivery: LastDelivery | null;
}

export interface OutboxMessage {
  file: string; // file name inside outbox/
  event_id: string; // also the webhook-id header: the same on every attempt
  type: EventType;
  endpoint_id: string;
  body: string; // the exact bytes sent (and signed) on every attempt
  created_at: string;
  seq: number; // emission order
  attempts: number;
  next_attempt_at: number; // epoch ms
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  dead_reason?: string;
}

export interface Cursor {
  build_id: string;
  dir: string;
}


const parse = <T>(rows: unknown[], col: string): T[] => rows.map((r) => JSON.parse((r as Record<string, string>)[col]!) as T);

export class WebhookStore {
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

  allEndpoints(): readonly EndpointRecord[] {
    return parse<EndpointRecord>(this.db.prepare('SELECT record FROM webhook_endpoints ORDER BY rowid').all(), 'record');
  }

  endpointsOfKey(keyId: string): EndpointRecord[] {
    return parse<EndpointRecord>(this.db.prepare('SELECT record FROM webhook_endpoints WHERE key_id = ? ORDER BY rowid').all(keyId), 'record');
  }

  endpoint(id: string): EndpointRecord | undefined {
    const row = this.db.prepare('SELECT record FROM webhook_endpoints WHERE id = ?').get(id) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as EndpointRecord) : undefined;
  }

  /** Adds an endpoint unless its key already has `cap` of them: the count and the insert are one transaction,
   *  so concurrent registrations (from any process) can never pass the cap together. */
  addEndpoint(rec: EndpointRecord, cap = Infinity): boolean {
    return transaction(this.db, () => {
      const { n } = this.db.prepare('SELECT count(*) AS n FROM webhook_endpoints WHERE key_id = ?').get(rec.key_id) as { n: number };
      if (Number(n) >= cap) return false;
      this.db.prepare('INSERT INTO webhook_endpoints (id, key_id, record) VALUES (?, ?, ?)').run(rec.id, rec.key_id, JSON.stringify(rec));
      return true;
    });
  }

  /** Changes an endpoint; `patch` may be a function of its current record (read and written in one transaction). */
  updateEndpoint(id: string, patch: Partial<EndpointRecord> | ((cur: EndpointRecord) => Partial<EndpointRecord>)): EndpointRecord | undefined {
    return transaction(this.db, () => {
      const cur = this.endpoint(id);
      if (!cur) return undefined;
      const next = { ...cur, ...(typeof patch === 'function' ? patch(cur) : patch) };
      this.db.prepare('UPDATE webhook_endpoints SET record = ? WHERE id = ?').run(JSON.stringify(next), id);
      return next;
    });
  }

  removeEndpoint(id: string): boolean {
    return transaction(this.db, () => {
      const gone = Number(this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes) > 0;
      if (gone) this.db.prepare('DELETE FROM webhook_outbox WHERE endpoint_id = ?').run(id);
      return gone;
    });
  }

  // ------------------------------------------------------------ outbox

  static messageFile(endpointId: string, eventId: string): string {
    return `${endpointId}__${crypto.createHash('sha256').update(eventId).digest('hex').slice(0, 32)}.json`;
  }

  messages(): OutboxMessage[] {
    return parse<OutboxMessage>(this.db.prepare('SELECT message FROM webhook_outbox ORDER BY seq').all(), 'message');
  }

  /** The due messages, oldest first, at most `perEndpoint` of each endpoint: what a delivery tick may start
   *  (one indexed query; a storm of one endpoint's messages does not hide another endpoint's). */
  dueMessages(now: number, perEndpoint: number): OutboxMessage[] {
    const ids = this.db.prepare('SELECT id FROM webhook_endpoints').all() as { id: string }[];
    const oldest = this.db.prepare('SELECT message FROM webhook_outbox WHERE endpoint_id = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?');
    const due = ids.flatMap(({ id }) => parse<OutboxMessage>(oldest.all(id, now, perEndpoint), 'message'));
    return due.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq);
  }

  pendingCount(endpointId: string): number {
    return Number((this.db.prepare('SELECT count(*) AS n FROM webhook_outbox WHERE endpoint_id = ?').get(endpointId) as { n: number }).n);
  }

  message(file: string): OutboxMessage | undefined {
    const row = this.db.prepare('SELECT message FROM webhook_outbox WHERE file = ?').get(file) as { message: string } | undefined;
    return row ? (JSON.parse(row.message) as OutboxMessage) : undefined;
  }

  /** Adds a message unless one for the same (endpoint, event) is pending. Returns whether it was added. */
  enqueue(m: Omit<OutboxMessage, 'file' | 'seq'>): boolean {
    const file = WebhookStore.messageFile(m.endpoint_id, m.event_id);
    return transaction(this.db, () => {
      if (this.message(file)) return false;
      const { s } = this.db.prepare('SELECT coalesce(max(seq), 0) + 1 AS s FROM webhook_outbox').get() as { s: number };
      const msg: OutboxMessage = { ...m, file, seq: Number(s) };
      this.db.prepare('INSERT INTO webhook_outbox (file, endpoint_id, seq, next_attempt_at, message) VALUES (?, ?, ?, ?, ?)').run(file, m.endpoint_id, msg.seq, msg.next_attempt_at, JSON.stringify(msg));
      return true;
    });
  }

  updateMessage(file: string, patch: Partial<OutboxMessage>): OutboxMessage | undefined {
    return transaction(this.db, () => this.write(file, patch));
  }

  private write(file: string, patch: Partial<OutboxMessage>): OutboxMessage | undefined {
    const cur = this.message(file);
    if (!cur) return undefined;
    const next = { ...cur, ...patch };
    this.db.prepare('UPDATE webhook_outbox SET message = ?, next_attempt_at = ? WHERE file = ?').run(JSON.stringify(next), next.next_attempt_at, file);
    return next;
  }

  /** Takes an attempt at a message: applies `patch` only if the message is still due and no other worker
   *  (in this or another process) has taken this attempt since it was read. */
  claim(m: OutboxMessage, now: number, patch: Partial<OutboxMessage>): OutboxMessage | undefined {
    return transaction(this.db, () => {
      const cur = this.message(m.file);
      if (!cur || cur.attempts !== m.attempts || cur.next_attempt_at > now) return undefined;
      return this.write(m.file, patch);
    });
  }

  deleteMessage(file: string): void {
    this.db.prepare('DELETE FROM webhook_outbox WHERE file = ?').run(file);
  }

  /** Moves a message to the dead letters with the reason it was given up on. */
  buryMessage(file: string, reason: string): void {
    transaction(this.db, () => {
      const cur = this.message(file);
      if (!cur) return;
      this.db.prepare('INSERT OR REPLACE INTO webhook_dead (file, endpoint_id, message) VALUES (?, ?, ?)').run(file, cur.endpoint_id, JSON.stringify({ ...cur, dead_reason: reason }));
      this.deleteMessage(file);
    });
  }

  deadMessages(endpointId?: string): OutboxMessage[] {
    const rows = endpointId === undefined
      ? this.db.prepare('SELECT message FROM webhook_dead ORDER BY rowid').all()
      : this.db.prepare('SELECT message FROM webhook_dead WHERE endpoint_id = ? ORDER BY rowid').all(endpointId);
    return parse<OutboxMessage>(rows, 'message');
  }

  // ------------------------------------------------------------ cursor

  cursor(): Cursor | null {
    const row = this.db.prepare("SELECT value FROM meta WHERE name = 'webhooks.cursor'").get() as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as Cursor) : null;
  }

  setCursor(c: Cursor): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('webhooks.cursor', ?)").run(JSON.stringify(c));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
