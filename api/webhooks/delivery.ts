// Delivery of a server's webhooks from the durable outbox (api/webhooks/store.ts), signed per Standard
// Webhooks (signing.ts); the service (service.ts) queues the messages and runs this every tick.
//
// At least once: each attempt is claimed in the store first (a compare-and-set that records the attempt and
// moves the message's next_attempt_at to the end of a lease: the attempt's deadline plus LEASE_MARGIN_MS).
// Exactly one worker of one instance makes each attempt; if its instance dies mid-attempt, the message is
// due again, with the same webhook-id, once the lease runs out, and any instance takes it. A receiver sees
// the same event twice only when the crash falls after its 2xx and before the message was removed: the
// webhook-id header (the event id) lets it drop the second. Any 2xx is success; anything else, a timeout
// or a refused connection is a failure, retried the schedule's next delay after the failure was known
// (+-10% jitter; a slow or timed-out attempt does not eat into the wait; Retry-After on 429/503 is
// honoured up to 24 h). When an event has used every retry, or the receiver answers 410 Gone, the endpoint is disabled (status "disabled", disabled_reason)
// and its pending messages move to dead/. Targets are checked again at every send (ssrf.ts).
import type { Agent, request } from 'undici';
import { signedHeaders } from './signing.ts';
import { deliveryLookup, refusedAtSend } from './ssrf.ts';
import type { EndpointRecord, OutboxMessage, WebhookStore } from './store.ts';

/** A claim lasts the attempt's deadline plus this: time for the bookkeeping after the answer. */
export const LEASE_MARGIN_MS = 2000;

/** Delays after the 1st, 2nd, ... failed attempt: 10 attempts over about 3 days 3 hours. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5e3, 5 * 60e3, 30 * 60e3, 2 * 3600e3, 5 * 3600e3, 10 * 3600e3, 14 * 3600e3, 20 * 3600e3, 24 * 3600e3];
const MAX_RETRY_AFTER_MS = 24 * 3600e3;
const KEEP_RESPONSE_CHARS = 200;

/** "5s,5m,30m,2h" or milliseconds "100,200". */
export function parseSchedule(text: string): number[] {
  return text.split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(p);
    if (!m) throw new Error(`bad retry delay "${p}" (use e.g. 5s, 30m, 2h or milliseconds)`);
    const unit = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[m[2] ?? 'ms']!;
    return Math.round(Number(m[1]) * unit);
  });
}

export interface DeliveryOptions {
  schedule: readonly number[]; // retry delays (ms)
  jitter: number; // fraction
  timeoutMs: number; // connect and headers timeout, and the total deadline of one attempt (body included)
  concurrency: number; // attempts in flight at once, shared fairly between the keys that have messages due
  allowPrivate: boolean; // REII_WEBHOOKS_ALLOW_PRIVATE
  instance: string; // this instance's name, recorded in each claim (claimed_by)
  now: () => number;
  log: (msg: string, fields?: Record<string, unknown>) => void;
}

/** undici's pool and request function (loaded at the first attempt). */
type Client = { agent: Agent; request: typeof request };

export class Delivery {
  private readonly store: WebhookStore;
  private readonly schedule: readonly number[];
  private readonly jitter: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly allowPrivate: boolean;
  private readonly instance: string;
  private readonly now: () => number;
  private readonly log: (msg: string, fields?: Record<string, unknown>) => void;
  /** undici, loaded at the first attempt: a server no endpoint was registered on does not carry it. */
  private agent: Promise<Client> | null = null;
  private readonly inflight = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(store: WebhookStore, opts: DeliveryOptions) {
    this.store = store;
    this.schedule = opts.schedule;
    this.jitter = opts.jitter;
    this.timeoutMs = opts.timeoutMs;
    this.concurrency = opts.concurrency;
    this.allowPrivate = opts.allowPrivate;
    this.instance = opts.instance;
    this.now = opts.now;
    this.log = opts.log;
  }

  private client(): Promise<Client> {
    this.agent ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({ connect: { timeout: this.timeoutMs, lookup: deliveryLookup(this.allowPrivate) }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, keepAliveTimeout: 1000 }),
      request,
    }));
    return this.agent;
  }

  /** Starts no more attempts; returns those still running (their claims are recorded: if they do not end,
   *  their messages are due again when the lease runs out). */
  halt(): Promise<void>[] {
    this.stopped = true;
    return [...this.inflight.values()];
  }

  async close(): Promise<void> {
    if (this.agent) await (await this.agent).agent.destroy().catch(() => {});
  }

  private readonly inflightByKey = new Map<string, number>();

  /** Starts attempts for due messages, oldest first, up to the concurrency limit, with a fair share per key:
   *  a key may hold at most (concurrency - 1) / (keys with work) of the workers, so a storm of test events from one
   *  key queues behind itself and never delays another key's deliveries by more than one share. */
  deliverDue(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // One look at the outbox at a time; a call meanwhile asks for one more look right after it.
    if (this.looking) { this.lookAgain = true; return this.looking; }
    this.looking = this.look().finally(() => {
      this.looking = null;
      // The look asked for here has no caller to take its failure (the store down: Redis unreachable): it is
      // logged, as a tick's is, never left as an unhandled rejection (which ends the process).
      if (this.lookAgain) { this.lookAgain = false; this.deliverDue().catch((err: unknown) => this.log('webhooks: delivery tick failed', { error: (err as Error).message })); }
    });
    return this.looking;
  }

  private looking: Promise<void> | null = null;
  private lookAgain = false;

  private async look(): Promise<void> {
    const t = this.now();
    const due = (await this.store.dueMessages(t, this.concurrency + this.inflight.size)).filter((m) => !this.inflight.has(m.file));
    if (due.length === 0 || this.stopped) return;
    const keyOf = new Map((await this.store.allEndpoints()).map((e) => [e.id, e.key_id]));
    const keys = new Set([...due.map((m) => keyOf.get(m.endpoint_id) ?? ''), ...this.inflightByKey.keys()]);
    // One worker is always held back from the keys already at work, so a key that has just got a message due
    // starts it at once even when another key's attempts hang until their deadline.
    const share = Math.max(1, Math.floor((this.concurrency - 1) / keys.size));
    for (const m of due) {
      if (this.inflight.size >= this.concurrency) break;
      const key = keyOf.get(m.endpoint_id) ?? '';
      const held = this.inflightByKey.get(key) ?? 0;
      if (held >= share) continue;
      this.inflightByKey.set(key, held + 1);
      const p = this.attempt(m).catch((err: unknown) => this.log('webhooks: delivery bookkeeping failed', { error: (err as Error).message })).finally(() => {
        this.inflight.delete(m.file);
        const n = (this.inflightByKey.get(key) ?? 1) - 1;
        if (n > 0) this.inflightByKey.set(key, n); else this.inflightByKey.delete(key);
      });
      this.inflight.set(m.file, p);
    }
  }

  private delayAfter(attempts: number): number | null {
    const base = this.schedule[attempts - 1];
    if (base === undefined) return null;
    return Math.round(base * (1 + this.jitter * (Math.random() * 2 - 1)));
  }

  private async attempt(m: OutboxMessage): Promise<void> {
    const endpoint = await this.store.endpoint(m.endpoint_id);
    if (!endpoint) { await this.store.deleteMessage(m); return; }
    if (endpoint.status !== 'active') { await this.store.buryMessage(m, `endpoint disabled: ${endpoint.disabled_reason ?? ''}`); return; }
    const t = this.now();
    const attempts = m.attempts + 1;
    const delay = this.delayAfter(attempts);
    // Recorded before sending: a crash now leaves the message due again when the lease ends. The claim is a
    // compare-and-set: another worker, process or instance that took this attempt first makes this one step back.
    if (!(await this.store.claim(m, t, { attempts, last_attempt_at: new Date(t).toISOString(), claimed_by: this.instance, next_attempt_at: t + this.timeoutMs + LEASE_MARGIN_MS }))) return;
    const result = await this.post(endpoint, m);
    // A 2xx is recorded even while stopping (the service waits a moment for running attempts): forgotten, it
    // would be sent again after the lease. A failure then may be the shutdown's own doing: left to the lease.
    if (this.stopped && !result.ok) return;
    const at = new Date(t).toISOString();
    const last = { event_id: m.event_id, type: m.type, attempted_at: at, ok: result.ok, status_code: result.status, error: result.error };
    if (result.ok) {
      await this.store.delivered(m);
      await this.store.updateEndpoint(endpoint.id, { last_delivery: last, consecutive_failures: 0, failing_since: null });
      return;
    }
    const current = await this.store.updateEndpoint(endpoint.id, (cur) => ({ last_delivery: last, consecutive_failures: cur.consecutive_failures + 1, failing_since: cur.failing_since ?? at }));
    if (!current) { await this.store.deleteMessage(m); return; }
    const failedAt = this.now();
    let next = failedAt + (delay ?? 0);
    if (result.retryAfterMs !== null && delay !== null) next = Math.max(next, failedAt + Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
    await this.store.updateMessage(m, { last_status: result.status, last_error: result.error, next_attempt_at: next });
    this.log('webhooks: delivery failed', { endpoint: endpoint.id, event: m.event_id, attempt: attempts, status: result.status, error: result.error });
    if (result.status === 410) await this.disable(endpoint.id, `the receiver answered 410 Gone to ${m.event_id}`);
    else if (delay === null) await this.disable(endpoint.id, `retries exhausted: ${m.type} ${m.event_id} failed ${attempts} attempts (last: ${result.status ?? result.error})`);
  }

  async disable(endpointId: string, reason: string): Promise<void> {
    await this.store.updateEndpoint(endpointId, { status: 'disabled', disabled_reason: reason, disabled_at: new Date(this.now()).toISOString() });
    for (const m of await this.store.messagesOf(endpointId)) await this.store.buryMessage(m, `endpoint disabled: ${reason}`);
    this.log('webhooks: endpoint disabled', { endpoint: endpointId, reason });
  }

  private async post(endpoint: EndpointRecord, m: OutboxMessage): Promise<{ ok: boolean; status: number | null; error: string | null; retryAfterMs: number | null }> {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'reii-webhooks/1',
      ...signedHeaders(endpoint.secret, m.event_id, m.body, this.now()),
    };
    // The target is checked again at every send: an endpoint registered while REII_WEBHOOKS_ALLOW_PRIVATE was
    // on gets nothing once it is off. An IP literal is refused here (no DNS lookup happens for it); a host name
    // by guardedLookup when the connection is made. Redirects are never followed (undici request() does not).
    const refused = refusedAtSend(endpoint.url, this.allowPrivate);
    if (refused) return { ok: false, status: null, error: refused.slice(0, KEEP_RESPONSE_CHARS), retryAfterMs: null };
    // One deadline for the whole attempt (connect, headers and body): a receiver that drips a byte every few
    // seconds passes every per-read timeout but not this one, so it cannot hold a delivery worker for ever.
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      const { agent, request } = await this.client();
      const res = await request(endpoint.url, {
        method: 'POST', headers, body: m.body, dispatcher: agent, signal: deadline,
        headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, reset: true,
      });
      const text = await readBody(res.body, deadline);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const ra = res.headers['retry-after'];
      return {
        ok, status: res.statusCode,
        error: ok ? null : `HTTP ${res.statusCode}${text ? `: ${text.slice(0, KEEP_RESPONSE_CHARS)}` : ''}`,
        retryAfterMs: (res.statusCode === 429 || res.statusCode === 503) && typeof ra === 'string' ? retryAfterMs(ra, this.now()) : null,
      };
    } catch (err) {
      const e = err as Error & { code?: string };
      if (deadline.aborted) return { ok: false, status: null, error: `timeout: no complete answer within ${this.timeoutMs} ms`, retryAfterMs: null };
      return { ok: false, status: null, error: `${e.code ?? 'error'}: ${e.message}`.slice(0, KEEP_RESPONSE_CHARS), retryAfterMs: null };
    }
  }
}

function retryAfterMs(v: string, now: number): number | null {
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const d = Date.parse(v);
  return Number.isNaN(d) ? null : Math.max(0, d - now);
}

// undici 7 can crash the process (assert(!this.paused), nodejs/undici#5360) when a server closes the
// connection while the body is paused by backpressure: so the body is read in flowing mode, never paused,
// and only its first bytes are kept. The read is bounded: past MAX_BODY_BYTES, or at the attempt's deadline,
// the body is dropped (the answer's status already decided the attempt).
const MAX_BODY_BYTES = 64 * 1024;
function readBody(body: NodeJS.ReadableStream & { destroy?: () => void }, deadline: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    let kept = '';
    let bytes = 0;
    let done = false;
    const finish = (): void => { if (!done) { done = true; deadline.removeEventListener('abort', cut); resolve(kept); } };
    const cut = (): void => { finish(); body.destroy?.(); };
    if (deadline.aborted) { cut(); return; }
    deadline.addEventListener('abort', cut);
    body.on('data', (chunk: Buffer) => {
      if (kept.length < 1024) kept += chunk.toString('utf8', 0, Math.min(chunk.length, 1024));
      bytes += chunk.length;
      if (bytes > MAX_BODY_BYTES) cut();
    });
    body.once('end', finish);
    body.once('error', finish);
    body.once('close', finish);
  });
}
