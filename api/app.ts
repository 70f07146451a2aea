// The request pipeline: request id -> route -> key -> limits -> validation -> answer, and one access-log
// line. Every body leaves through send(); every failure is an HttpError with the {message, errors?} body.
import crypto from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { ERRORS, HttpError, validationError } from './errors.ts';
import { checkAll } from './params.ts';
import { ROUTES } from './routes.ts';
import type { Route } from './route.ts';
import { SYSTEM_ROUTES, type SystemRoute } from './system-routes.ts';
import { ANONYMOUS, PLANS, planFor, type Plan } from './plans.ts';
import { nextMonthStart } from './usage.ts';
import type { LimitStore } from './limits.ts';
import type { WindowLimiter, WindowState } from './rate-limit.ts';
import type { KeyChecker, KeyRecord } from './keys.ts';
import type { BuildHolder } from './builds.ts';
import { openApiDocument } from './openapi.ts';
import type { Shard } from './shards.ts';
import { TrustedProxies } from './client-address.ts';

export interface AppDeps {
  holder: BuildHolder;
  keys: KeyChecker;
  limits: LimitStore; // per key: minute windows and monthly counts (memory or Redis)
  anonLimiter: WindowLimiter; // per client address, per minute
  authFailures: WindowLimiter; // failed authentications per client address, per 10 minutes
  accessLog: (line: Record<string, unknown>) => void;
  anonymous?: { requestsPerMinute: number; failedAuthPer10Min: number }; // defaults to api/plans.json
  /** Load balancers whose X-Forwarded-For is believed (REII_TRUSTED_PROXIES); none by default. */
  trustedProxies?: TrustedProxies;
  now?: () => number;
}

/** The request handler, and the answer to requests node:http rejects before the handler (431, 408, 400). */
export type App = ((req: http.IncomingMessage, res: http.ServerResponse) => void) & {
  clientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: net.Socket): void;
};

export const MAX_BODY_BYTES = 16 * 1024;
export const MAX_URL_BYTES = 4096;
const KEY_PARAMS = new Set(['key', 'api_key', 'apikey', 'token', 'access_token', 'x-service-key', 'service_key']);

type AnyRoute = Route | SystemRoute;
const ALL_ROUTES: readonly AnyRoute[] = [...ROUTES, ...SYSTEM_ROUTES];
interface PathRoutes { routes: AnyRoute[]; allow: string } // allow: the Allow header of the path
const BY_PATH = new Map<string, PathRoutes>();
const PATTERNS: { re: RegExp; names: string[]; path: string }[] = [];
for (const r of ALL_ROUTES) {
  const routes = [...(BY_PATH.get(r.path)?.routes ?? []), r];
  BY_PATH.set(r.path, { routes, allow: [...new Set(routes.flatMap((x) => (x.method === 'GET' ? ['GET', 'HEAD'] : [x.method])))].join(', ') });
  if (r.path.includes('{') && !PATTERNS.some((p) => p.path === r.path)) {
    const names: string[] = [];
    const re = new RegExp('^' + r.path.replace(/\{(\w+)\}/g, (_, n: string) => { names.push(n); return '([^/]+)'; }) + '$');
    PATTERNS.push({ re, names, path: r.path });
  }
}

/** The routes at a path and its path parameters (still percent-encoded values decoded; validated later). */
function matchPath(pathname: string): { at: PathRoutes; params: Record<string, string> } | null {
  const exact = BY_PATH.get(pathname);
  if (exact) return { at: exact, params: {} };
  for (const p of PATTERNS) {
    const m = p.re.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    try {
      p.names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]!); });
    } catch {
      return null;
    }
    return { at: BY_PATH.get(p.path)!, params };
  }
  return null;
}

let openApiBody: Buffer | null = null;
// Request ids: a random per-process prefix and a counter (unique, and cheaper than random bytes per request).
const ID_PREFIX = crypto.randomBytes(6).toString('base64url');
let requestSeq = 0;
const nextRequestId = (): string => `req_${ID_PREFIX}${(++requestSeq).toString(36)}`;

/** The path and query of a request target; absolute-form targets go through URL. */
function parseTarget(raw: string): { pathname: string; searchParams: URLSearchParams } {
  if (!raw.startsWith('/')) {
    const u = new URL(raw, 'http://localhost');
    return { pathname: u.pathname, searchParams: u.searchParams };
  }
  const q = raw.indexOf('?');
  const h = raw.indexOf('#');
  const end = h < 0 ? raw.length : h;
  return q < 0 || q > end
    ? { pathname: raw.slice(0, end), searchParams: new URLSearchParams() }
    : { pathname: raw.slice(0, q), searchParams: new URLSearchParams(raw.slice(q + 1, end)) };
}

// The access log's time, formatted once per millisecond rather than once per request.
let isoAt = -1;
let isoText = '';
function isoTime(ms: number): string {
  if (ms !== isoAt) { isoAt = ms; isoText = new Date(ms).toISOString(); }
  return isoText;
}

interface Ctx {
  id: string;
  started: number;
  route: string | null;
  keyId: string | null;
  headers: Record<string, string>;
  /** A keyed call with a monthly limit: the month's count before this call (X-Quota-Remaining is set on send). */
  quota: { limit: number; used: number } | null;
  /** Past auth, limits and the free system routes: counts one call of the month for this key. */
  count: (() => Promise<void>) | null;
  /** The count started when the answer's head was decided: before its body leaves, so a client that
   *  has the answer and then asks /v1/usage sees it counted. */
  counting: Promise<void> | null;
}

/** Whether an answer counts toward the month: any 2xx, but a byte range only when it starts at byte 0
 *  (the resumed or parallel parts of one download count once). */
function counts(status: number, contentRange: string | undefined): boolean {
  return status >= 200 && status < 300 && (status !== 206 || (contentRange ?? '').startsWith('bytes 0-'));
}

/** Decides, once the answer's status is known and before it is sent, whether it counts; starts the
 *  count and sets X-Quota-Remaining (calls left this month after this answer). */
function countAnswer(ctx: Ctx, status: number, contentRange: string | undefined): void {
  const counted = ctx.count !== null && counts(status, contentRange);
  if (counted && !ctx.counting) ctx.counting = ctx.count!();
  if (ctx.quota) ctx.headers['X-Quota-Remaining'] = String(Math.max(0, ctx.quota.limit - ctx.quota.used - (counted ? 1 : 0)));
}

function setRate(ctx: Ctx, w: WindowState): void {
  ctx.headers['X-RateLimit-Limit'] = w.limit === null ? 'unlimited' : String(w.limit);
  ctx.headers['X-RateLimit-Remaining'] = w.remaining === null ? 'unlimited' : String(w.remaining);
  ctx.headers['X-RateLimit-Reset'] = String(w.reset);
}

function send(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, status: number, body: Buffer | string, extra: Record<string, string> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  countAnswer(ctx, status, extra['Content-Range']);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Request-Id': ctx.id,
    'X-Content-Type-Options': 'nosniff',
    ...ctx.headers,
    ...extra,
    ...(status === 304 || status === 204 ? {} : { 'Content-Length': String(buf.length) }),
  });
  res.end(req.method === 'HEAD' || status === 304 || status === 204 ? undefined : buf);
}

function sendError(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, err: HttpError): void {
  send(req, res, ctx, err.status, JSON.stringify(err.body()), { 'Cache-Control': 'no-store', ...err.headers });
}

function acceptsEncoding(req: http.IncomingMessage, enc: string): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== enc) return false;
    const q = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** If-None-Match names this ETag (or `*`): the client's copy is current. */
function notModified(req: http.IncomingMessage, etag: string): boolean {
  const inm = req.headers['if-none-match'];
  return typeof inm === 'string' && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*');
}

function sendShard(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, shard: Shard, cacheControl: string, lastModified: string, extra: Record<string, string>): void {
  const headers: Record<string, string> = { ETag: shard.etag, 'Cache-Control': cacheControl, Vary: 'Accept-Encoding', 'Last-Modified': lastModified, ...extra };
  if (notModified(req, shard.etag)) {
    send(req, res, ctx, 304, '', headers);
    return;
  }
  let body = shard.body;
  if (shard.br && acceptsEncoding(req, 'br')) { body = shard.br; headers['Content-Encoding'] = 'br'; }
  else if (shard.gz && acceptsEncoding(req, 'gzip')) { body = shard.gz; headers['Content-Encoding'] = 'gzip'; }
  send(req, res, ctx, 200, body, headers);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) { reject(new HttpError('body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`)); return; }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        reject(new HttpError('body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function createApp(deps: AppDeps): App {
  const now = deps.now ?? Date.now;
  const ANON = deps.anonymous ?? ANONYMOUS;
  const proxies = deps.trustedProxies ?? new TrustedProxies('');
  const app = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const ctx: Ctx = { id: nextRequestId(), started: performance.now(), route: null, keyId: null, headers: {}, quota: null, count: null, counting: null };
    res.on('finish', () => {
      deps.accessLog({ time: isoTime(now()), request_id: ctx.id, method: req.method, route: ctx.route ?? 'unmatched', status: res.statusCode, ms: Math.round((performance.now() - ctx.started) * 100) / 100, key_id: ctx.keyId });
    });
    handle(req, res, ctx).catch((err: unknown) => {
      const httpErr = err instanceof HttpError ? err : new HttpError('internal', `${ERRORS.internal.message} (request ${ctx.id})`);
      if (!(err instanceof HttpError)) deps.accessLog({ level: 'error', request_id: ctx.id, error: err instanceof Error ? err.message : String(err) });
      if (res.headersSent) { res.destroy(); return; }
      if (httpErr.code === 'body_too_large') res.setHeader('Connection', 'close');
      sendError(req, res, ctx, httpErr);
    });
  };

  // Requests node:http refuses before the handler runs get the same headers (the per-address public
  // window, not counted; a request id) and the same access-log line as every other answer.
  const clientError: App['clientError'] = (err, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') { socket.destroy(); return; }
    const t = now();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const id = nextRequestId();
    const w = deps.anonLimiter.peek(proxies.clientOf({ socket, headers: {} } as http.IncomingMessage), ANON.requestsPerMinute, t);
    const body = JSON.stringify({ message: status === 431 ? 'Request headers too large' : status === 408 ? 'The request was not received in time' : 'Malformed HTTP request' });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `X-Request-Id: ${id}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n`
      + `X-RateLimit-Limit: ${w.limit ?? 'unlimited'}\r\nX-RateLimit-Remaining: ${w.remaining ?? 'unlimited'}\r\nX-RateLimit-Reset: ${w.reset}\r\n`
      + `Connection: close\r\n\r\n${body}`);
    const method = /^([A-Z]{1,16}) /.exec(err.rawPacket?.toString('latin1', 0, 20) ?? '')?.[1] ?? null;
    deps.accessLog({ time: isoTime(t), request_id: id, method, route: 'unmatched', status, ms: null, key_id: null, error: err.code ?? null });
  };
  return Object.assign(app, { clientError });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx): Promise<void> {
    const t = now();
    const ip = proxies.clientOf(req);
    // Anonymous calls and failures are reported against the client address's bucket until a key is known.
    setRate(ctx, deps.anonLimiter.peek(ip, ANON.requestsPerMinute, t));
    const rawUrl = req.url ?? '/';
    if (rawUrl.length > MAX_URL_BYTES) throw new HttpError('uri_too_long', `The request URI is longer than ${MAX_URL_BYTES} bytes`);
    let url: { pathname: string; searchParams: URLSearchParams };
    try {
      url = parseTarget(rawUrl);
    } catch {
      throw new HttpError('bad_request', 'The request URI is malformed');
    }
    const matched = matchPath(url.pathname);
    if (!matched) throw new HttpError('not_found', `No endpoint ${url.pathname}; see /v1/openapi.json`);
    const { routes: candidates, allow } = matched.at;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = candidates.find((r) => r.method === method);
    if (req.method === 'OPTIONS') { send(req, res, ctx, 204, '', { Allow: `${allow}, OPTIONS`, ...(candidates[0]!.group === 'public' ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': allow } : {}) }); return; }
    if (!route) throw new HttpError('method_not_allowed', `${req.method} is not allowed on ${url.pathname}; use ${allow}`, { headers: { Allow: allow } });
    ctx.route = `${route.method} ${route.path}`;
    const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // no inherited names: ?constructor=x is a plain parameter
    for (const [name, v] of url.searchParams) {
      if (KEY_PARAMS.has(name.toLowerCase())) throw new HttpError('key_in_query', undefined, { errors: [{ field: name, code: 'key_in_query', message: 'send the key in the X-Service-Key header, never in the URL' }] });
      query[name] = name in query ? [query[name], v] : v;
    }

    // ---------- who is calling
    let key: KeyRecord | null = null;
    let plan: Plan | null = null;
    if (route.group === 'public') {
      const w = deps.anonLimiter.hit(ip, ANON.requestsPerMinute, t);
      setRate(ctx, w);
      if (!w.allowed) throw new HttpError('rate_limited', `Limit of ${ANON.requestsPerMinute} requests per minute per address reached for public endpoints`, { headers: { 'Retry-After': String(Math.max(1, w.reset - Math.floor(t / 1000))) } });
    } else {
      const header = req.headers['x-service-key'];
      const checked = deps.keys.check(Array.isArray(header) ? header[0] : header);
      const check = checked instanceof Promise ? await checked : checked; // known keys answer without a microtask
      if (!check.ok) {
        // The failed-key throttle applies only to keys that fail: a valid key is never refused by it, so a
        // stream of bad keys from one address (or one load balancer) cannot lock out working keys.
        const failures = deps.authFailures.hit(ip, ANON.failedAuthPer10Min, t);
        setRate(ctx, deps.anonLimiter.hit(ip, ANON.requestsPerMinute, t));
        if (!failures.allowed) throw new HttpError('auth_throttled', `Too many failed authentications from this address; retry after the window resets`, { headers: { 'Retry-After': String(Math.max(1, failures.reset - Math.floor(t / 1000))) } });
        throw new HttpError(check.code, undefined, { headers: { 'WWW-Authenticate': 'ApiKey header="X-Service-Key"' } });
      }
      key = check.record;
      ctx.keyId = key.id;
      plan = PLANS.get(key.plan) ?? null;
      if (!plan) throw new HttpError('plan_required', `Key ${key.id} has an unknown plan "${key.plan}"`);
      const rpm = key.rpm ?? plan.requestsPerMinute;
      const hit = await deps.limits.hit(key.id, rpm, t);
      const w = hit.window;
      setRate(ctx, w);
      if (hit.degraded) ctx.headers['X-Limits-Degraded'] = 'redis-unreachable';
      const monthLimit = plan.callsPerMonth;
      const used = hit.monthUsed;
      const reset = nextMonthStart(t);
      ctx.headers['X-Quota-Limit'] = monthLimit === null ? 'unlimited' : String(monthLimit);
      if (monthLimit === null) ctx.headers['X-Quota-Remaining'] = 'unlimited';
      else ctx.quota = { limit: monthLimit, used }; // X-Quota-Remaining: set on send, after this call if it counts
      ctx.headers['X-Quota-Reset'] = String(reset);
      if (!plan.groups.has(route.group)) {
        const needed = planFor(route.group);
        throw new HttpError('plan_required', `${route.method} ${route.path} needs the ${needed} plan or higher; this key is on ${plan.name}`);
      }
      if (!w.allowed) throw new HttpError('rate_limited', `Per-minute rate limit of ${rpm} requests reached; retry after the window resets`, { headers: { 'Retry-After': String(Math.max(1, w.reset - Math.floor(t / 1000))) } });
      if (monthLimit !== null && used >= monthLimit && !('free' in route)) {
        throw new HttpError('quota_exceeded', `Monthly quota of ${monthLimit} calls used up; it resets on ${new Date(reset * 1000).toISOString().slice(0, 10)}`, { headers: { 'Retry-After': String(reset - Math.floor(t / 1000)) } });
      }
    }

    // ---------- system endpoints
    if ('free' in route) {
      const build = deps.holder.get();
      let body: unknown;
      if (route.path === '/v1/openapi.json') {
        openApiBody ??= Buffer.from(JSON.stringify(openApiDocument()));
        send(req, res, ctx, 200, openApiBody, { 'Cache-Control': route.cacheControl, 'Access-Control-Allow-Origin': '*' });
        return;
      } else if (route.path === '/v1/health') {
        body = { status: build ? 'ok' : 'no_build', build_id: build?.buildId ?? null, as_of: build?.asOf ?? null, limits: deps.limits.health() };
      } else {
        const limit = plan!.callsPerMonth;
        const used = await deps.limits.monthCount(key!.id, t);
        const d = new Date(t);
        body = {
          plan: plan!.name, period_start: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString(),
          period_end: new Date(nextMonthStart(t) * 1000).toISOString(), limit, used,
          remaining: limit === null ? null : Math.max(0, limit - used), per_minute_limit: key!.rpm ?? plan!.requestsPerMinute,
        };
      }
      send(req, res, ctx, 200, JSON.stringify(body), { 'Cache-Control': route.cacheControl });
      return;
    }

    // ---------- validation
    // the free system routes answered above; everything below counts when it succeeds
    if (key) ctx.count = () => deps.limits.countSuccess(key.id, t);
    const checked = checkAll(route.query ?? [], query, true);
    const pathChecked = checkAll(route.params ?? [], matched.params, true);
    let values = { ...checked.values, ...pathChecked.values } as Record<string, unknown>;
    const errors = [...pathChecked.errors, ...checked.errors];
    if (route.method === 'POST' && route.body) {
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') throw new HttpError('unsupported_media_type', `Send the body as application/json (got ${type || 'no Content-Type'})`);
      const raw = await readBody(req);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new HttpError('bad_request', 'The body is not valid JSON', { errors: [{ field: 'body', code: 'json', message: 'the body is not valid JSON' }] });
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new HttpError('bad_request', 'The body must be a JSON object', { errors: [{ field: 'body', code: 'type', message: 'the body must be a JSON object' }] });
      }
      const body = checkAll(route.body ?? [], parsed as Record<string, unknown>, false);
      values = { ...values, ...body.values };
      errors.push(...body.errors);
    }
    if (errors.length === 0 && route.check) errors.push(...route.check(values));
    if (errors.length) throw validationError(errors);

    // ---------- answer
    const build = deps.holder.get();
    if (!build && route.needsBuild !== false) throw new HttpError('no_build', undefined, { headers: { 'Retry-After': '60' } });
    // Shard routes answer synchronously and cached shards are read synchronously: no await (a microtask each) on the hot path.
    const pending = route.resolve(values, build!, { keyId: key?.id ?? null, plan: plan?.name ?? null, query: url.searchParams, req });
    const reply = pending instanceof Promise ? await pending : pending;
    const cors: Record<string, string> = route.group === 'public' ? { 'Access-Control-Allow-Origin': '*' } : {};
    if (reply.kind === 'shard') {
      const shard = build!.shards.cached(reply.path) ?? (await build!.shards.get(reply.path));
      if (!shard) throw new HttpError('no_data', reply.notFound);
      sendShard(req, res, ctx, shard, route.cacheControl, build!.lastModified, cors);
    } else if (reply.kind === 'custom') {
      // The answer writes its own head (files, ranges); the status and range it asks headers for say whether it counts.
      await reply.send(req, res, (status, contentRange) => {
        countAnswer(ctx, status, contentRange);
        return { 'X-Request-Id': ctx.id, 'Cache-Control': route.cacheControl, ...ctx.headers };
      });
    } else {
      const headers = { 'Cache-Control': route.cacheControl, ...cors, ...reply.headers, ...(reply.etag ? { ETag: reply.etag } : {}) };
      const status = reply.etag && notModified(req, reply.etag) ? 304 : reply.status ?? 200;
      send(req, res, ctx, status, status === 204 || status === 304 ? '' : JSON.stringify(reply.body), headers);
    }
    if (ctx.counting) await ctx.counting;
  }
}
