// Durable webhook state under <state>/webhooks/ (every write is a temp file + fsync + rename):
//   endpoints.json     every registered endpoint, its secret (needed to sign; the file is 0600), status and
//                      last delivery
//   outbox/<m>.json    one file per (endpoint, event) message not yet delivered: the exact body, attempts and
//                      the time of the next attempt. Deleted only after a 2xx, so a crash loses nothing.
//   dead/<m>.json      messages given up on (retries exhausted, endpoint disabled or deleted), for inspection
//   cursor.json        the last build whose events were emitted ({build_id, dir})
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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

export function writeAtomic(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'w', mode);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export class WebhookStore {
  readonly dir: string;
  readonly outboxDir: string;
  readonly deadDir: string;
  private endpoints: EndpointRecord[];
  private readonly outbox = new Map<string, OutboxMessage>();
  private seq = 0;

  constructor(stateDir: string) {
    this.dir = path.join(stateDir, 'webhooks');
    this.outboxDir = path.join(this.dir, 'outbox');
    this.deadDir = path.join(this.dir, 'dead');
    fs.mkdirSync(this.outboxDir, { recursive: true });
    fs.mkdirSync(this.deadDir, { recursive: true });
    this.endpoints = readJson<EndpointRecord[]>(path.join(this.dir, 'endpoints.json')) ?? [];
    for (const name of fs.readdirSync(this.outboxDir)) {
      if (name.endsWith('.tmp')) { fs.rmSync(path.join(this.outboxDir, name), { force: true }); continue; }
      if (!name.endsWith('.json')) continue;
      const msg = readJson<OutboxMessage>(path.join(this.outboxDir, name));
      if (!msg) continue;
      this.outbox.set(name, { ...msg, file: name });
      this.seq = Math.max(this.seq, msg.seq);
    }
  }

  // ------------------------------------------------------------ endpoints

  private saveEndpoints(): void {
    writeAtomic(path.join(this.dir, 'endpoints.json'), JSON.stringify(this.endpoints, null, 1), 0o600);
  }

  allEndpoints(): readonly EndpointRecord[] {
    return this.endpoints;
  }

  endpoint(id: string): EndpointRecord | undefined {
    return this.endpoints.find((e) => e.id === id);
  }

  addEndpoint(rec: EndpointRecord): void {
    this.endpoints = [...this.endpoints, rec];
    this.saveEndpoints();
  }

  updateEndpoint(id: string, patch: Partial<EndpointRecord>): EndpointRecord | undefined {
    const i = this.endpoints.findIndex((e) => e.id === id);
    if (i < 0) return undefined;
    const next = { ...this.endpoints[i]!, ...patch };
    this.endpoints = this.endpoints.map((e, j) => (j === i ? next : e));
    this.saveEndpoints();
    return next;
  }

  removeEndpoint(id: string): boolean {
    const before = this.endpoints.length;
    this.endpoints = this.endpoints.filter((e) => e.id !== id);
    if (this.endpoints.length === before) return false;
    this.saveEndpoints();
    for (const m of this.messages()) if (m.endpoint_id === id) this.deleteMessage(m.file);
    return true;
  }

  // ------------------------------------------------------------ outbox

  static messageFile(endpointId: string, eventId: string): string {
    return `${endpointId}__${crypto.createHash('sha256').update(eventId).digest('hex').slice(0, 32)}.json`;
  }

  messages(): OutboxMessage[] {
    return [...this.outbox.values()];
  }

  message(file: string): OutboxMessage | undefined {
    return this.outbox.get(file);
  }

  /** Adds a message unless one for the same (endpoint, event) is pending. Returns whether it was added. */
  enqueue(m: Omit<OutboxMessage, 'file' | 'seq'>): boolean {
    const file = WebhookStore.messageFile(m.endpoint_id, m.event_id);
    if (this.outbox.has(file)) return false;
    const msg: OutboxMessage = { ...m, file, seq: ++this.seq };
    writeAtomic(path.join(this.outboxDir, file), JSON.stringify(msg));
    this.outbox.set(file, msg);
    return true;
  }

  updateMessage(file: string, patch: Partial<OutboxMessage>): OutboxMessage | undefined {
    const cur = this.outbox.get(file);
    if (!cur) return undefined;
    const next = { ...cur, ...patch };
    writeAtomic(path.join(this.outboxDir, file), JSON.stringify(next));
    this.outbox.set(file, next);
    return next;
  }

  deleteMessage(file: string): void {
    this.outbox.delete(file);
    fs.rmSync(path.join(this.outboxDir, file), { force: true });
  }

  /** Moves a message to dead/ with the reason it was given up on. */
  buryMessage(file: string, reason: string): void {
    const cur = this.outbox.get(file);
    if (!cur) return;
    writeAtomic(path.join(this.deadDir, file), JSON.stringify({ ...cur, dead_reason: reason }));
    this.deleteMessage(file);
  }

  deadMessages(): OutboxMessage[] {
    return fs.readdirSync(this.deadDir).filter((n) => n.endsWith('.json')).flatMap((n) => readJson<OutboxMessage>(path.join(this.deadDir, n)) ?? []);
  }

  // ------------------------------------------------------------ cursor

  cursor(): Cursor | null {
    return readJson<Cursor>(path.join(this.dir, 'cursor.json'));
  }

  setCursor(c: Cursor): void {
    writeAtomic(path.join(this.dir, 'cursor.json'), JSON.stringify(c));
  }
}
