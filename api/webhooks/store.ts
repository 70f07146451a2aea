// The webhook state every instance of the service shares, behind one asynchronous interface with two
// implementations:
//   SqliteWebhookStore (sqlite-store.ts)  <state>/state.db: the processes of one machine over one state folder
//   RedisWebhookStore (redis-store.ts)    REII_REDIS_URL: several instances (machines) on one Redis
// Both keep the same guarantees: a registration checks the per-key cap and inserts in one atomic step; an
// attempt is claimed by compare-and-set, with a lease (next_attempt_at moved to the end of the attempt's
// deadline plus a margin), so exactly one worker of one instance makes each attempt and a crashed instance's
// claim is taken again once its lease runs out; a message is deleted only after a 2xx; one instance at a time
// emits a new build's events (lockEmission) and the cursor records the last build emitted.
import crypto from 'node:crypto';
import type { WindowState } from '../rate-limit.ts';

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
  file: string; // the message's name: messageFile(endpoint_id, event_id), unique per (endpoint, event)
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
  claimed_by?: string; // the instance ("<pid>-<random>") that took the last attempt
  dead_reason?: string;
}

export interface Cursor {
  build_id: string;
  dir: string;
  /** Builds emitted (or taken as the baseline) before this one, newest last: an instance that still serves
   *  one of them (it has not seen the new build yet, or went back to an older one) raises nothing. */
  seen?: string[];
}


/** The name of the message of one event to one endpoint. */
export function messageFile(endpointId: string, eventId: string): string {
  return `${endpointId}__${crypto.createHash('sha256').update(eventId).digest('hex').slice(0, 32)}.json`;
}

export type EndpointPatch = Partial<EndpointRecord> | ((cur: EndpointRecord) => Partial<EndpointRecord>);
export type NewMessage = Omit<OutboxMessage, 'file' | 'seq'>;

export interface WebhookStore {
  /** Every endpoint, in registration order. */
  allEndpoints(): Promise<EndpointRecord[]>;
  endpointsOfKey(keyId: string): Promise<EndpointRecord[]>;
  endpoint(id: string): Promise<EndpointRecord | undefined>;
  /** Adds an endpoint unless its key already has `cap` of them (counted and taken in one atomic step). */
  addEndpoint(rec: EndpointRecord, cap: number): Promise<boolean>;
  /** Changes an endpoint; a function patch is applied to the current record atomically. */
  updateEndpoint(id: string, patch: EndpointPatch): Promise<EndpointRecord | undefined>;
  /** Deletes an endpoint and its undelivered messages. */
  removeEndpoint(id: string): Promise<boolean>;
  /** The due messages, oldest first, at most `perEndpoint` of each endpoint. */
  dueMessages(now: number, perEndpoint: number): Promise<OutboxMessage[]>;
  messagesOf(endpointId: string): Promise<OutboxMessage[]>;
  pendingCount(endpointId: string): Promise<number>;
  /** Adds a message unless one for the same (endpoint, event) is pending (or, in Redis, was delivered). */
  enqueue(m: NewMessage): Promise<boolean>;
  updateMessage(m: OutboxMessage, patch: Partial<OutboxMessage>): Promise<OutboxMessage | undefined>;
  /** Takes an attempt: applies `patch` only if the message is still due at `now` and nobody (in any process
   *  or instance) took this attempt since `m` was read. */
  claim(m: OutboxMessage, now: number, patch: Partial<OutboxMessage>): Promise<OutboxMessage | undefined>;
  /** Removes a message after a 2xx. */
  delivered(m: OutboxMessage): Promise<void>;
  /** Removes a message without delivering it (its endpoint is gone). */
  deleteMessage(m: OutboxMessage): Promise<void>;
  /** Moves a message to the dead letters with the reason it was given up on. */
  buryMessage(m: OutboxMessage, reason: string): Promise<void>;
  deadMessages(endpointId: string): Promise<OutboxMessage[]>;
  deadCount(endpointId: string): Promise<number>;
  cursor(): Promise<Cursor | null>;
  setCursor(c: Cursor): Promise<void>;
  /** Takes the right to emit a build's events for `ms` (false while another holder has it). */
  lockEmission(holder: string, now: number, ms: number): Promise<boolean>;
  unlockEmission(holder: string): Promise<void>;
  /** A fixed window shared by every instance (Redis only; without it each process counts its own). */
  hitWindow?(name: string, limit: number, windowMs: number, now: number): Promise<WindowState>;
  close(): Promise<void>;
}
