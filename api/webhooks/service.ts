// The webhook service of one server: endpoint registration (api/webhooks/routes.ts), event emission when a
// new build goes live, and delivery from the durable outbox (delivery.ts) with Standard Webhooks signatures.
// Its settings (warehouse/settings.ts: webhooksAllowPrivate, webhooksRetrySchedule, webhooksTimeoutMs,
// webhooksTickMs, redisUrl) are read once, when the server starts it. With REII_REDIS_URL the state is in
// Redis (redis-store.ts), shared by every instance; else in the state folder's state.db (sqlite-store.ts).
import crypto from 'node:crypto';
import type http from 'node:http';
import type { Settings } from '../../warehouse/settings.ts';
import { buildEvents, testEvent, type BuildRef, type WebhookEvent } from './events.ts';
import { Delivery, parseSchedule, RETRY_SCHEDULE_MS } from './delivery.ts';
import { newSecret } from './signing.ts';
import { WindowLimiter, type WindowState } from '../rate-limit.ts';
import { SqliteWebhookStore } from './sqlite-store.ts';
import type { Cursor, EndpointRecord, SubscribableEvent, WebhookStore } from './store.ts';

export const MAX_ENDPOINTS_PER_KEY = 10;
/** Test events a key may queue per minute (all its endpoints together): a storm of them is refused with 429
 *  instead of filling the outbox and the delivery workers. */
export const TEST_EVENTS_PER_MINUTE = 60;

export interface BuildSource {
  get(): { dir: string; buildId: string } | null;
}

export interface WebhookOptions {
  state: string;
  /** Several instances on one Redis: the webhook state lives there (else in <state>/state.db). */
  redisUrl?: string;
  holder?: BuildSource;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Retry delays (ms); default RETRY_SCHEDULE_MS (delivery.ts). */
  schedule?: readonly number[];
  jitter?: number; // fraction, default 0.1
  tickMs?: number; // how often due messages and the served build are checked, default 500
  timeoutMs?: number; // connect, headers and body timeout per attempt, default 15000
  concurrency?: number; // attempts in flight at once, default 8
  allowPrivate?: boolean; // private, loopback and link-local targets allowed (ssrf.ts), default false
  now?: () => number;
}

type WebhookSettings = Pick<Settings, 'state' | 'redisUrl' | 'webhooksAllowPrivate' | 'webhooksRetrySchedule' | 'webhooksTimeoutMs' | 'webhooksTickMs'>;

/** A positive number (of milliseconds), else the default. */
function positiveOr(raw: string, dflt: number): number {
  const v = Number(raw);
  return Number.isFinite(v) && v > 0 ? v : dflt;
}

/** The service's options from the server's settings, read once: an empty schedule is the built-in one, a
 *  timeout or tick that is not a positive number the default, and private targets are allowed only for "1". */
export function webhookOptions(settings: WebhookSettings): WebhookOptions {
  return {
    state: settings.state,
    redisUrl: settings.redisUrl || undefined,
    allowPrivate: settings.webhooksAllowPrivate === '1',
    schedule: settings.webhooksRetrySchedule ? parseSchedule(settings.webhooksRetrySchedule) : RETRY_SCHEDULE_MS,
    timeoutMs: positiveOr(settings.webhooksTimeoutMs, 15_000), // api-standards: 15-30 s
    tickMs: positiveOr(settings.webhooksTickMs, 500),
  };
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
  dead_messages: number; // messages given up on (retries exhausted, or the endpoint disabled): the dead letters
  last_delivery: EndpointRecord['last_delivery'];
}

/** How long one instance holds the right to emit a new build's events; past it (a crash) another takes over. */
const EMISSION_LOCK_MS = 5 * 60e3;
/** How many earlier builds the cursor remembers (Cursor.seen). */
const SEEN_BUILDS = 50;

export class WebhookService {
  readonly store: WebhookStore;
  readonly allowPrivate: boolean;
  private readonly opts: WebhookOptions;
  private readonly now: () => number;
  private readonly log: (msg: string, fields?: Record<string, unknown>) => void;
  private readonly delivery: Delivery;
  private readonly testWindow = new WindowLimiter(60_000);
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private checkingBuild: Promise<void> | null = null;
  /** This instance's name in the emission lock and in each attempt's claim. */
  readonly instance = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;

  /** The Redis store (and ioredis with it) is loaded only when a Redis URL is set: a single server does not
   *  carry the client in its memory. */
  static async open(opts: WebhookOptions): Promise<WebhookService> {
    if (!opts.redisUrl) return new WebhookService(opts, new SqliteWebhookStore(opts.state));
    const { RedisWebhookStore } = await import('./redis-store.ts');
    return new WebhookService(opts, new RedisWebhookStore(opts.redisUrl));
  }

  private constructor(opts: WebhookOptions, store: WebhookStore) {
    this.opts = opts;
    this.store = store;
    this.allowPrivate = opts.allowPrivate ?? false;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
    this.delivery = new Delivery(this.store, {
      schedule: opts.schedule ?? RETRY_SCHEDULE_MS, jitter: opts.jitter ?? 0.1, timeoutMs: opts.timeoutMs ?? 15_000,
      concurrency: opts.concurrency ?? 8, allowPrivate: this.allowPrivate, instance: this.instance, now: this.now, log: this.log,
    });
  }

  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      this.checkingBuild ??= this.checkBuild().catch((err: unknown) => this.log('webhooks: event emission failed', { error: (err as Error).message })).finally(() => { this.checkingBuild = null; });
      this.deliverDue();
    };
    this.timer = setInterval(tick, this.opts.tickMs ?? 500);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // Attempts still running are recorded in their outbox files already: they are simply due again after a restart.
    const attempts = this.delivery.halt();
    await Promise.race([Promise.allSettled([...attempts, this.checkingBuild]), new Promise((r) => setTimeout(r, 1000).unref())]);
    await this.delivery.close();
    await this.store.close();
  }

  /** Starts attempts for due messages, oldest first (delivery.ts); a store error is logged, tried next tick. */
  deliverDue(): void {
    this.delivery.deliverDue().catch((err: unknown) => this.log('webhooks: delivery tick failed', { error: (err as Error).message }));
  }

  private kicked = false;
  /** Runs deliverDue soon (within 50 ms), once for all the test events queued meanwhile: a storm of them costs
   *  one look at the outbox per 50 ms, not one per request. */
  private kick(): void {
    if (this.kicked) return;
    this.kicked = true;
    setTimeout(() => { this.kicked = false; if (!this.stopped) this.deliverDue(); }, 50).unref();
  }

  // ------------------------------------------------------------ endpoints (the routes call these)

  async endpointsOf(keyId: string): Promise<PublicEndpoint[]> {
    return Promise.all((await this.store.endpointsOfKey(keyId)).map((e) => this.publicView(e)));
  }

  async publicView(e: EndpointRecord): Promise<PublicEndpoint> {
    return {
      id: e.id, url: e.url, events: e.events, description: e.description, status: e.status,
      disabled_reason: e.disabled_reason, disabled_at: e.disabled_at, created_at: e.created_at,
      consecutive_failures: e.consecutive_failures,
      pending_messages: await this.store.pendingCount(e.id),
      dead_messages: await this.store.deadCount(e.id),
      last_delivery: e.last_delivery,
    };
  }

  /** Registers an endpoint, or answers null when the key has MAX_ENDPOINTS_PER_KEY already (checked and taken
   *  in one atomic step, a transaction or a Lua script: concurrent registrations cannot pass the cap together). */
  async create(keyId: string, url: string, events: SubscribableEvent[], description: string | null): Promise<{ endpoint: EndpointRecord; secret: string } | null> {
    const secret = newSecret();
    const endpoint: EndpointRecord = {
      id: `wh_${crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`,
      key_id: keyId, url, events, description, secret, status: 'active', disabled_reason: null, disabled_at: null,
      created_at: new Date(this.now()).toISOString(), consecutive_failures: 0, failing_since: null, last_delivery: null,
    };
    return (await this.store.addEndpoint(endpoint, MAX_ENDPOINTS_PER_KEY)) ? { endpoint, secret } : null;
  }

  async ownEndpoint(keyId: string, id: string): Promise<EndpointRecord | undefined> {
    const e = await this.store.endpoint(id);
    return e && e.key_id === keyId ? e : undefined;
  }

  async remove(keyId: string, id: string): Promise<boolean> {
    return (await this.ownEndpoint(keyId, id)) ? this.store.removeEndpoint(id) : false;
  }

  /** Counts a test event in its key's minute window: the window after it (allowed false when it is full).
   *  With Redis the window is shared by every instance; on one machine each process keeps its own. */
  takeTestEvent(keyId: string): Promise<WindowState> {
    if (this.store.hitWindow) return this.store.hitWindow(`test:${keyId}`, TEST_EVENTS_PER_MINUTE, 60_000, this.now());
    return Promise.resolve(this.testWindow.hit(keyId, TEST_EVENTS_PER_MINUTE, this.now()));
  }

  /** Queues a webhook.test event for one active endpoint. */
  async sendTest(endpoint: EndpointRecord): Promise<WebhookEvent> {
    const ev = testEvent(endpoint.id, new Date(this.now()));
    await this.enqueueFor(endpoint, ev);
    this.kick();
    return ev;
  }

  // ------------------------------------------------------------ emission

  /** Writes one outbox message per active endpoint subscribed to the event's type (yielding to requests now and then). */
  async emit(events: readonly WebhookEvent[]): Promise<number> {
    let n = 0;
    for (const ev of events) {
      for (const e of await this.store.allEndpoints()) {
        if (e.status !== 'active' || !(e.events as string[]).includes(ev.type)) continue;
        if (await this.enqueueFor(e, ev)) n++;
        if (n % 25 === 0) await new Promise((r) => setImmediate(r));
      }
    }
    return n;
  }

  private enqueueFor(e: EndpointRecord, ev: WebhookEvent): Promise<boolean> {
    return this.store.enqueue({
      event_id: ev.id, type: ev.type, endpoint_id: e.id, body: JSON.stringify(ev), created_at: ev.timestamp,
      attempts: 0, next_attempt_at: this.now(), last_attempt_at: null, last_status: null, last_error: null,
    });
  }

  /** Emits the events of a newly served build, once per build across every instance over the same store: the
   *  cursor records the last build emitted, and one instance at a time holds the emission lock. If it dies
   *  mid-emission, another emits again after the lock expires: the messages already queued are not queued twice. */
  async checkBuild(): Promise<void> {
    const cur = this.opts.holder?.get();
    if (!cur) return;
    const known = (c: Cursor | null): boolean => c?.build_id === cur.buildId || (c?.seen ?? []).includes(cur.buildId);
    if (known(await this.store.cursor())) return;
    if (!(await this.store.lockEmission(this.instance, this.now(), EMISSION_LOCK_MS))) return; // another instance emits
    try {
      const cursor = await this.store.cursor(); // again, under the lock: another instance may have just emitted
      if (known(cursor)) return;
      const next: BuildRef = { dir: cur.dir, buildId: cur.buildId };
      // First start over this store: the build already live is the baseline, not news. With nobody to tell,
      // reading both builds' shards is skipped.
      const moved: Cursor = { build_id: next.buildId, dir: next.dir, seen: cursor ? [...(cursor.seen ?? []), cursor.build_id].slice(-SEEN_BUILDS) : [] };
      if (!cursor || !(await this.store.allEndpoints()).some((e) => e.status === 'active')) {
        await this.store.setCursor(moved);
        return;
      }
      const events = await buildEvents({ dir: cursor.dir, buildId: cursor.build_id }, next, new Date(this.now()));
      if (this.stopped) return;
      const queued = await this.emit(events);
      await this.store.setCursor(moved);
      this.log('webhooks: build events emitted', { build: next.buildId, previous: cursor.build_id, events: events.length, messages: queued });
      this.deliverDue();
    } finally {
      await this.store.unlockEmission(this.instance);
    }
  }
}

// ------------------------------------------------------------ one service per server

const SERVICES = new Map<http.Server | null, WebhookService>();

/** Starts the webhook service of a server (api/server.ts) over its state folder. */
export async function startWebhooks(opts: { settings: WebhookSettings; holder?: BuildSource; server?: http.Server; log?: WebhookOptions['log'] }): Promise<WebhookService> {
  const svc = await WebhookService.open({ ...webhookOptions(opts.settings), holder: opts.holder, log: opts.log });
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
