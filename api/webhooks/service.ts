// The webhook service of one server: endpoint registration (api/webhooks/routes.ts), event emission when a
// new build goes live, and delivery from the durable outbox (store.ts) with Standard Webhooks signatures.
//
// Delivery: at least once. Before each attempt the message file records the attempt and the time of the next
// one, so a crash mid-delivery leaves the message due again (same webhook-id) after a restart. Any 2xx is
// success; anything else, a timeout or a refused connection is a failure, retried after RETRY_SCHEDULE[n]
// (+-10% jitter; Retry-After on 429/503 is honoured up to 24 h). When an event has used every retry, or the
// receiver answers 410 Gone, the endpoint is disabled (status "disabled", disabled_reason) and its pending
// messages move to dead/.
import crypto from 'node:crypto';
import type http from 'node:http';
import { Agent, request } from 'undici';
import { buildEvents, testEvent, type BuildRef, type WebhookEvent } from './events.ts';
import { signedHeaders, newSecret } from './signing.ts';
import { guardedLookup, refusedAtSend } from './ssrf.ts';
import { WebhookStore, type EndpointRecord, type OutboxMessage, type SubscribableEvent } from './store.ts';

/** Delays after the 1st, 2nd, ... failed attempt: 10 attempts over about 3 days 3 hours. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5e3, 5 * 60e3, 30 * 60e3, 2 * 3600e3, 5 * 3600e3, 10 * 3600e3, 14 * 3600e3, 20 * 3600e3, 24 * 3600e3];
export const MAX_ENDPOINTS_PER_KEY = 10;
const MAX_RETRY_AFTER_MS = 24 * 3600e3;
const KEEP_RESPONSE_CHARS = 200;

export interface BuildSource {
  get(): { dir: string; buildId: string } | null;
}

export interface WebhookOptions {
  state: string;
  holder?: BuildSource;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Retry delays (ms); default $REII_WEBHOOKS_RETRY_SCHEDULE, else RETRY_SCHEDULE_MS. */
  schedule?: readonly number[];
  jitter?: number; // fraction, default 0.1
  tickMs?: number; // how often due messages and the served build are checked, default $REII_WEBHOOKS_TICK_MS or 500
  timeoutMs?: number; // connect, headers and body timeout per attempt, default $REII_WEBHOOKS_TIMEOUT_MS or 15000
  concurrency?: number; // attempts in flight at once, default 8
  now?: () => number;
}

/** "5s,5m,30m,2h" or milliseconds "100,200". */
export function parseSchedule(text: string): number[] {
  return text.split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(p);
    if (!m) throw new Error(`bad retry delay "${p}" (use e.g. 5s, 30m, 2h or milliseconds)`);
    const unit = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[m[2] ?? 'ms']!;
    return Math.round(Number(m[1]) * unit);
  });
}

function envInt(name: string, dflt: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : dflt;
}

export interface PublicEndpoint {
  id: string;
  url: string;
  events: SubscribableEvent[];
  description: string | null;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  consecutive_failures: number;
  pending_messages: number;
  last_delivery: EndpointRecord['last_delivery'];
}

export class WebhookService {
  readonly store: WebhookStore;
  readonly schedule: readonly number[];
  private readonly opts: WebhookOptions;
  private readonly now: () => number;
  private readonly log: (msg: string, fields?: Record<string, unknown>) => void;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly jitter: number;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly inflight = new Map<string, Promise<void>>();
  private checkingBuild: Promise<void> | null = null;

  constructor(opts: WebhookOptions) {
    this.opts = opts;
    this.store = new WebhookStore(opts.state);
    const env = process.env['REII_WEBHOOKS_RETRY_SCHEDULE'];
    this.schedule = opts.schedule ?? (env ? parseSchedule(env) : RETRY_SCHEDULE_MS);
    this.jitter = opts.jitter ?? 0.1;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
    this.timeoutMs = opts.timeoutMs ?? envInt('REII_WEBHOOKS_TIMEOUT_MS', 15_000); // api-standards: 15-30 s
    this.concurrency = opts.concurrency ?? 8;
    this.agent = new Agent({ connect: { timeout: this.timeoutMs, lookup: guardedLookup }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, keepAliveTimeout: 1000 });
  }

  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      this.checkingBuild ??= this.checkBuild().catch((err: unknown) => this.log('webhooks: event emission failed', { error: (err as Error).message })).finally(() => { this.checkingBuild = null; });
      this.deliverDue();
    };
    this.timer = setInterval(tick, this.opts.tickMs ?? envInt('REII_WEBHOOKS_TICK_MS', 500));
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // Attempts still running are recorded in their outbox files already: they are simply due again after a restart.
    await Promise.race([Promise.allSettled([...this.inflight.values(), this.checkingBuild]), new Promise((r) => setTimeout(r, 1000).unref())]);
    await this.agent.destroy().catch(() => {});
  }

  // ------------------------------------------------------------ endpoints (the routes call these)

  endpointsOf(keyId: string): PublicEndpoint[] {
    return this.store.allEndpoints().filter((e) => e.key_id === keyId).map((e) => this.publicView(e));
  }

  publicView(e: EndpointRecord): PublicEndpoint {
    return {
      id: e.id, url: e.url, events: e.events, description: e.description, status: e.status,
      disabled_reason: e.disabled_reason, disabled_at: e.disabled_at, created_at: e.created_at,
      consecutive_failures: e.consecutive_failures,
      pending_messages: this.store.messages().filter((m) => m.endpoint_id === e.id).length,
      last_delivery: e.last_delivery,
    };
  }

  create(keyId: string, url: string, events: SubscribableEvent[], description: string | null): { endpoint: EndpointRecord; secret: string } {
    const secret = newSecret();
    const endpoint: EndpointRecord = {
      id: `wh_${crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`,
      key_id: keyId, url, events, description, secret, status: 'active', disabled_reason: null, disabled_at: null,
      created_at: new Date(this.now()).toISOString(), consecutive_failures: 0, failing_since: null, last_delivery: null,
    };
    this.store.addEndpoint(endpoint);
    return { endpoint, secret };
  }

  ownEndpoint(keyId: string, id: string): EndpointRecord | undefined {
    const e = this.store.endpoint(id);
    return e && e.key_id === keyId ? e : undefined;
  }

  remove(keyId: string, id: string): boolean {
    return this.ownEndpoint(keyId, id) ? this.store.removeEndpoint(id) : false;
  }

  /** Queues a webhook.test event for one active endpoint. */
  sendTest(endpoint: EndpointRecord): WebhookEvent {
    const ev = testEvent(endpoint.id, new Date(this.now()));
    this.enqueueFor(endpoint, ev);
    this.deliverDue();
    return ev;
  }

  // ------------------------------------------------------------ emission

  /** Writes one outbox message per active endpoint subscribed to the event's type (yielding to requests now and then). */
  async emit(events: readonly WebhookEvent[]): Promise<number> {
    let n = 0;
    for (const ev of events) {
      for (const e of this.store.allEndpoints()) {
        if (e.status !== 'active' || !(e.events as string[]).includes(ev.type)) continue;
        if (this.enqueueFor(e, ev)) n++;
        if (n % 25 === 0) await new Promise((r) => setImmediate(r));
      }
    }
    return n;
  }

  private enqueueFor(e: EndpointRecord, ev: WebhookEvent): boolean {
    return this.store.enqueue({
      event_id: ev.id, type: ev.type, endpoint_id: e.id, body: JSON.stringify(ev), created_at: ev.timestamp,
      attempts: 0, next_attempt_at: this.now(), last_attempt_at: null, last_status: null, last_error: null,
    });
  }

  /** Emits the events of a newly served build (once per build, remembered in cursor.json across restarts). */
  async checkBuild(): Promise<void> {
    const cur = this.opts.holder?.get();
    if (!cur) return;
    const cursor = this.store.cursor();
    if (cursor?.build_id === cur.buildId) return;
    const next: BuildRef = { dir: cur.dir, buildId: cur.buildId };
    if (!cursor) {
      // First start over this state folder: the build already live is the baseline, not news.
      this.store.setCursor({ build_id: next.buildId, dir: next.dir });
      return;
    }
    if (!this.store.allEndpoints().some((e) => e.status === 'active')) {
      // Nobody to tell: skip reading both builds' shards.
      this.store.setCursor({ build_id: next.buildId, dir: next.dir });
      return;
    }
    const events = await buildEvents({ dir: cursor.dir, buildId: cursor.build_id }, next, new Date(this.now()));
    if (this.stopped) return;
    const queued = await this.emit(events);
    this.store.setCursor({ build_id: next.buildId, dir: next.dir });
    this.log('webhooks: build events emitted', { build: next.buildId, previous: cursor.build_id, events: events.length, messages: queued });
    this.deliverDue();
  }

  // ------------------------------------------------------------ delivery

  /** Starts attempts for due messages, oldest first, up to the concurrency limit. */
  deliverDue(): void {
    if (this.stopped) return;
    const t = this.now();
    const due = this.store.messages().filter((m) => m.next_attempt_at <= t && !this.inflight.has(m.file)).sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq);
    for (const m of due) {
      if (this.inflight.size >= this.concurrency) break;
      const p = this.attempt(m).catch((err: unknown) => this.log('webhooks: delivery bookkeeping failed', { error: (err as Error).message })).finally(() => this.inflight.delete(m.file));
      this.inflight.set(m.file, p);
    }
  }

  private delayAfter(attempts: number): number | null {
    const base = this.schedule[attempts - 1];
    if (base === undefined) return null;
    return Math.round(base * (1 + this.jitter * (Math.random() * 2 - 1)));
  }

  private async attempt(m: OutboxMessage): Promise<void> {
    const endpoint = this.store.endpoint(m.endpoint_id);
    if (!endpoint) { this.store.deleteMessage(m.file); return; }
    if (endpoint.status !== 'active') { this.store.buryMessage(m.file, `endpoint disabled: ${endpoint.disabled_reason ?? ''}`); return; }
    const t = this.now();
    const attempts = m.attempts + 1;
    const delay = this.delayAfter(attempts);
    // Recorded before sending: a crash now leaves the message due again at next_attempt_at.
    this.store.updateMessage(m.file, { attempts, last_attempt_at: new Date(t).toISOString(), next_attempt_at: t + (delay ?? 0) });
    const result = await this.post(endpoint, m);
    if (this.stopped) return;
    const at = new Date(t).toISOString();
    const last = { event_id: m.event_id, type: m.type, attempted_at: at, ok: result.ok, status_code: result.status, error: result.error };
    if (result.ok) {
      this.store.deleteMessage(m.file);
      this.store.updateEndpoint(endpoint.id, { last_delivery: last, consecutive_failures: 0, failing_since: null });
      return;
    }
    const current = this.store.endpoint(endpoint.id);
    if (!current) { this.store.deleteMessage(m.file); return; }
    this.store.updateEndpoint(endpoint.id, { last_delivery: last, consecutive_failures: current.consecutive_failures + 1, failing_since: current.failing_since ?? at });
    let next = t + (delay ?? 0);
    if (result.retryAfterMs !== null && delay !== null) next = Math.max(next, this.now() + Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
    this.store.updateMessage(m.file, { last_status: result.status, last_error: result.error, next_attempt_at: next });
    this.log('webhooks: delivery failed', { endpoint: endpoint.id, event: m.event_id, attempt: attempts, status: result.status, error: result.error });
    if (result.status === 410) this.disable(endpoint.id, `the receiver answered 410 Gone to ${m.event_id}`);
    else if (delay === null) this.disable(endpoint.id, `retries exhausted: ${m.type} ${m.event_id} failed ${attempts} attempts (last: ${result.status ?? result.error})`);
  }

  disable(endpointId: string, reason: string): void {
    this.store.updateEndpoint(endpointId, { status: 'disabled', disabled_reason: reason, disabled_at: new Date(this.now()).toISOString() });
    for (const m of this.store.messages()) if (m.endpoint_id === endpointId) this.store.buryMessage(m.file, `endpoint disabled: ${reason}`);
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
    const refused = refusedAtSend(endpoint.url);
    if (refused) return { ok: false, status: null, error: refused.slice(0, KEEP_RESPONSE_CHARS), retryAfterMs: null };
    try {
      const res = await request(endpoint.url, {
        method: 'POST', headers, body: m.body, dispatcher: this.agent,
        headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, reset: true,
      });
      const text = await readBody(res.body);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const ra = res.headers['retry-after'];
      return {
        ok, status: res.statusCode,
        error: ok ? null : `HTTP ${res.statusCode}${text ? `: ${text.slice(0, KEEP_RESPONSE_CHARS)}` : ''}`,
        retryAfterMs: (res.statusCode === 429 || res.statusCode === 503) && typeof ra === 'string' ? retryAfterMs(ra, this.now()) : null,
      };
    } catch (err) {
      const e = err as Error & { code?: string };
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
// and only its first bytes are kept.
function readBody(body: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let kept = '';
    let done = false;
    const finish = (): void => { if (!done) { done = true; resolve(kept); } };
    body.on('data', (chunk: Buffer) => { if (kept.length < 1024) kept += chunk.toString('utf8', 0, Math.min(chunk.length, 1024)); });
    body.once('end', finish);
    body.once('error', finish);
    body.once('close', finish);
  });
}

// ------------------------------------------------------------ one service per server

const SERVICES = new Map<http.Server | null, WebhookService>();

/** Starts the webhook service of a server (api/server.ts) over its state folder. */
export function startWebhooks(opts: WebhookOptions & { server?: http.Server }): WebhookService {
  const svc = new WebhookService(opts);
  SERVICES.set(opts.server ?? null, svc);
  svc.start();
  return svc;
}

export async function stopWebhooks(svc: WebhookService): Promise<void> {
  for (const [k, v] of SERVICES) if (v === svc) SERVICES.delete(k);
  await svc.stop();
}

/** The service of the server a request arrived on. */
export function serviceFor(req: http.IncomingMessage): WebhookService | null {
  const server = (req.socket as unknown as { server?: http.Server }).server ?? null;
  return SERVICES.get(server) ?? (SERVICES.size === 1 ? [...SERVICES.values()][0]! : null);
}
