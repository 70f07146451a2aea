// The request pipeline: request id -> route -> key -> limits -> validation -> answer, and one access-log
// line. Each step is a function of its own file (below, in the order handle() runs them); every body leaves
// through api/send.ts; every failure is an HttpError with the {message, errors?} body.
import http from 'node:http';
import type net from 'node:net';
import { ERRORS, HttpError, type ErrorCode } from './errors.ts';
import { hasRate, isoTime, newCtx, nextRequestId, rateHeaders, setRate, type Ctx, type KeyedCaller } from './context.ts';
import { MAX_BODY_BYTES, MAX_URL_BYTES, readBody, readTarget, readValues } from './request.ts';
import { malformedMessage } from './parse-errors.ts';
import { readQuery, refuseKeyInQuery } from './query.ts';
import { findPath, optionsHeaders, routeFor, SERVER_METHODS, type AnyRoute } from './route-match.ts';
import { authenticate, checkPlan } from './auth.ts';
import { admitAddress, admitKeyedPublic, countAnswer, enforceKeyLimits, perMinute, setKeyHeaders, type AddressLimits } from './limit-checks.ts';
import { systemAnswer } from './system-answers.ts';
import { answer, answerError, answerReply } from './answer.ts';
import { NOSNIFF, sendOnSocket } from './send.ts';
import { ANONYMOUS, PLANS, type Plan } from './plans.ts';
import type { CountAhead, LimitStore } from './limits.ts';
import type { WindowLimiter } from './rate-limit.ts';
import type { KeyChecker } from './keys.ts';
import type { BuildHolder } from './builds.ts';
import { TrustedProxies } from './client-address.ts';
import { CorsPolicy } from './cors.ts';
import { docsPage } from './docs/page.ts';
import { ResolvedShards } from './resolved.ts';
import { RepeatRefusals } from './refusals.ts';
import type { AccessLine, ErrorLine } from './access-log.ts';

export interface AppDeps {
  holder: BuildHolder;
  keys: KeyChecker;
  limits: LimitStore; // per key: minute windows and monthly counts (memory or Redis)
  anonLimiter: WindowLimiter; // per client address, per minute
  authFailures: WindowLimiter; // failed authentications per client address, per 10 minutes
  accessLog: (line: AccessLine | ErrorLine) => void;
  anonymous?: { requestsPerMinute: number; failedAuthPer10Min: number }; // defaults to api/plans.json
  /** Origins whose pages may call keyed routes (REII_CORS_ORIGINS); the holder's settings when not given. */
  corsOrigins?: string;
  /** Load balancers whose X-Forwarded-For is believed (REII_TRUSTED_PROXIES); none by default. */
  trustedProxies?: TrustedProxies;
  /** How long a caller's repeated 429 is held before it is sent (REII_REFUSAL_HOLD_MS, api/refusals.ts); 0 by default. */
  refusalHoldMs?: number;
  now?: () => number;
}

/** The request handler, and the answer to requests node:http rejects before the handler (431, 408, 400),
 *  to an Expect it does not know (417) and to CONNECT (405): every one a JSON body of the contract. */
export type App = ((req: http.IncomingMessage, res: http.ServerResponse) => void) & {
  clientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: net.Socket): void;
  /** node:http 'checkExpectation': an Expect other than 100-continue. */
  expectationFailed(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** node:http 'connect': this server is no proxy. */
  connect(req: http.IncomingMessage, socket: net.Socket): void;
  /** Sends the refusals still held (api/refusals.ts) now: the server is stopping. */
  releaseHeld(): void;
};

const CTX = Symbol('reii.ctx');
/** OPTIONS on a /docs path: its methods, open to every origin (api/docs/page.ts). */
const DOCS_OPTIONS = { Allow: 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD' };

/** The access log's name of a route ("GET /v1/geo/lookup"), made once per route. */
const routeNames = new WeakMap<AnyRoute, string>();
function routeName(route: AnyRoute): string {
  let name = routeNames.get(route);
  if (name === undefined) routeNames.set(route, (name = `${route.method} ${route.path}`));
  return name;
}
/** What hit() is asked to count ahead for a plan, made once per plan. */
const aheadOf = new WeakMap<Plan, CountAhead>();
function countAhead(plan: Plan): CountAhead {
  let ahead = aheadOf.get(plan);
  if (!ahead) aheadOf.set(plan, (ahead = { monthLimit: plan.callsPerMonth }));
  return ahead;
}
type Tracked = http.ServerResponse & { [CTX]?: Ctx };

/** Whether a request's first bytes hold a request line whose target (between the method's space and the next
 *  space, or all that was read of it) is longer than MAX_URL_BYTES. */
function longTarget(packet: Buffer): boolean {
  const start = packet.indexOf(' ') + 1;
  const stop = packet.indexOf(' ', start);
  return (stop < 0 ? packet.length : stop) - start > MAX_URL_BYTES;
}

export function createApp(deps: AppDeps): App {
  const now = deps.now ?? Date.now;
  const proxies = deps.trustedProxies ?? new TrustedProxies('');
  const address: AddressLimits = { anonLimiter: deps.anonLimiter, authFailures: deps.authFailures, anon: deps.anonymous ?? ANONYMOUS, proxies };
  const cors = new CorsPolicy(deps.corsOrigins ?? (deps.holder as Partial<BuildHolder>).settings?.corsOrigins ?? '');
  const resolvedShards = new ResolvedShards();
  const refusals = new RepeatRefusals(deps.refusalHoldMs ?? 0);
  // One access-log line per answer, written once the answer is handed to the socket: at once for an answer sent
  // within the request's first turn (most: shard answers), else on 'finish' by one listener shared by every
  // answer (the request's state rides on its response: no closure per request).
  function logLine(res: http.ServerResponse, ctx: Ctx): void {
    deps.accessLog({ time: isoTime(now()), request_id: ctx.id, method: res.req.method ?? null, route: ctx.route ?? 'unmatched', status: res.statusCode, ms: Math.round((performance.now() - ctx.started) * 100) / 100, key_id: ctx.keyId });
  }
  function logAnswer(this: http.ServerResponse): void {
    logLine(this, (this as Tracked)[CTX]!);
  }
  // Anonymous calls, and answers decided before a key is known (404, 405, 401...), report the client address's
  // window; a keyed call reports its key's (set by the limits step), so it never reads the address's.
  const reportAddressWindow = (ctx: Ctx, ip: string): void => {
    if (!hasRate(ctx)) setRate(ctx, address.anonLimiter.peek(ip, address.anon.requestsPerMinute, ctx.t));
  };
  const fail = (req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, err: unknown): void => {
    const ip = proxies.clientOf(req);
    reportAddressWindow(ctx, ip);
    let httpErr = err instanceof HttpError ? err : new HttpError('internal', `${ERRORS.internal.message} (request ${ctx.id})`);
    // a 504 names the request id as a 500 does (api-standards §4.3); the live module that timed out knows none
    if (httpErr.code === 'upstream_timeout') httpErr = new HttpError('upstream_timeout', `${httpErr.message} (request ${ctx.id})`, { headers: httpErr.headers });
    if (!(err instanceof HttpError)) deps.accessLog({ level: 'error', request_id: ctx.id, error: err instanceof Error ? err.message : String(err) });
    if (res.headersSent) { res.destroy(); return; }
    if (httpErr.status !== 429) { answerError(req, res, ctx, httpErr); return; }
    // A refusal never counts: settled now, so a count made ahead is taken back at once even when the answer is held.
    countAnswer(ctx, 429);
    // Key ids (8 letters and digits) and client addresses (with '.' or ':') never collide.
    refusals.refuse(ctx.keyId ?? ip, Number(httpErr.headers['Retry-After'] ?? 0), ctx.t, () => answerError(req, res, ctx, httpErr));
  };
  const app = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const ctx = newCtx(now());
    void handle(req, res, ctx); // never rejects: it answers its own failures
    if (res.writableEnded) logLine(res, ctx);
    else { (res as Tracked)[CTX] = ctx; res.on('finish', logAnswer); }
  };

  // Requests node:http refuses before the handler runs get the same headers (the per-address public
  // window, not counted; a request id) and the same access-log line as every other answer.
  // `code`: the catalog's row (its status); `logged`: the access log's error (node's parser code, else `code`).
  const refuse = (socket: net.Socket, code: ErrorCode, message: string, method: string | null, logged: string | null, extra: Record<string, string> = {}): void => {
    const status = ERRORS[code].status;
    const t = now();
    const id = nextRequestId();
    const w = address.anonLimiter.peek(proxies.clientOf({ socket, headers: {} } as http.IncomingMessage), address.anon.requestsPerMinute, t);
    sendOnSocket(socket, status, { 'X-Request-Id': id, ...NOSNIFF, 'Cache-Control': 'no-store', ...rateHeaders(w), ...extra }, JSON.stringify({ message }));
    deps.accessLog({ time: isoTime(t), request_id: id, method, route: 'unmatched', status, ms: null, key_id: null, error: logged });
  };
  const clientError: App['clientError'] = (err, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') { socket.destroy(); return; }
    const method = /^([A-Z]{1,16}) /.exec(err.rawPacket?.toString('latin1', 0, 20) ?? '')?.[1] ?? null;
    if (err.code === 'HPE_HEADER_OVERFLOW' && method && longTarget(err.rawPacket!)) {
      // node counts the request line in its header limit: a target past it is a long URI (414), not long headers
      refuse(socket, 'uri_too_long', `The request URI is longer than ${MAX_URL_BYTES} bytes`, method, err.code);
      return;
    }
    // a method node's parser does not know ("FOO", "get", "BREW") on a request line: node hands it here before any
    // handler; a 405 naming the methods this server answers, as to a known method a path does not take (a method that
    // is no HTTP token, or a line that is no request line, "THIS IS NOT HTTP": a 400)
    const line = err.code === 'HPE_INVALID_METHOD' && err.rawPacket ? err.rawPacket.toString('latin1', 0, Math.min(err.rawPacket.length, 8192)).split('\n', 1)[0]! : '';
    const unknown = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) \S+ HTTP\/\d\.\d\r?$/.exec(line)?.[1];
    if (unknown) {
      refuse(socket, 'method_not_allowed', `Method ${unknown} is not allowed: this server answers ${SERVER_METHODS}`, unknown.slice(0, 16), 'method_not_allowed', { Allow: SERVER_METHODS });
      return;
    }
    const code: ErrorCode = err.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'bad_request';
    refuse(socket, code, code === 'bad_request' ? malformedMessage(err.code, (err as { reason?: unknown }).reason) : ERRORS[code].message, method, err.code ?? null);
  };
  // The connection is closed after these: the request's body (if any) is never read.
  const expectationFailed: App['expectationFailed'] = (req, res) => {
    res.detachSocket(req.socket);
    refuse(req.socket, 'expectation_failed', `Expect: ${String(req.headers['expect']).slice(0, 100)} is not supported; only 100-continue is`, req.method ?? null, 'expectation_failed');
  };
  const connect: App['connect'] = (_req, socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    refuse(socket, 'method_not_allowed', 'CONNECT is not allowed: this server is not a proxy', 'CONNECT', 'method_not_allowed', { Allow: SERVER_METHODS });
  };
  return Object.assign(app, { clientError, expectationFailed, connect, releaseHeld: () => refusals.release() });

  /** The steps of one request, in order; each throws the HttpError that answers it (answered by fail()). */
  async function handle(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx): Promise<void> {
    // The CORS headers of the answer: the path's group once the path is known, an unknown path's as a keyed one's;
    // set on a refusal before the route is known too (404, 405, 414), so a page can read why (review 15 #7).
    let corsGroup = 'unmatched';
    let corsSet = false;
    try {
      const t = ctx.t;

      // ---------- which route (414, 400, 404, OPTIONS, 405; a key in the query is 401)
      // RFC 9112 3.2: an HTTP/1.1 request without Host is a 400 (node's own check is off: api/server.ts)
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) throw new HttpError('bad_request', 'An HTTP/1.1 request must carry a Host header');
      // RFC 9112 3.2: more than one Host is a 400 too (node keeps the first; a proxy may have routed by another)
      if (req.rawHeaders.filter((h, i) => i % 2 === 0 && h.length === 4 && h.toLowerCase() === 'host').length > 1) throw new HttpError('bad_request', 'The Host header was sent more than once: send it once');
      // A body past the limit is refused on every route: one that reads no body closed the connection with it unread,
      // and the reset cut its own answer short (h74fuzz: GET /v1/openapi.json with a 1 MB body, 128 of 154 KB received)
      if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new HttpError('body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes${req.method === 'POST' ? '' : `; ${req.method} takes no body`}`);
      // a chunked body says no length: one a method that takes none is sent is read (and dropped) first, 413 past the limit
      if (req.method !== 'POST' && req.headers['transfer-encoding'] !== undefined) await readBody(req).catch((e: unknown) => { throw e instanceof HttpError ? new HttpError('body_too_large', `${e.message}; ${req.method} takes no body`) : e; });
      // the asterisk target (RFC 9112 3.2.4) asks about the server, not a resource: OPTIONS only
      if (req.url === '*') {
        if (req.method !== 'OPTIONS') throw new HttpError('bad_request', `The request target * is only for OPTIONS; ${req.method} needs a path, see /v1/openapi.json`);
        ctx.route = 'OPTIONS *';
        reportAddressWindow(ctx, proxies.clientOf(req));
        answer(req, res, ctx, 204, '', { Allow: SERVER_METHODS });
        return;
      }
      const url = readTarget(req);
      // The static documents (the /docs page and its files, the OpenAPI document) read no query: any query is
      // ignored, a malformed one too; a key in it is refused (401) as on every route.
      const page = docsPage(url.pathname);
      if (page) {
        ctx.route = 'GET /docs';
        reportAddressWindow(ctx, proxies.clientOf(req));
        if (req.method === 'OPTIONS') { answer(req, res, ctx, 204, '', DOCS_OPTIONS); return; }
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError('method_not_allowed', `${req.method} is not allowed on ${url.pathname}; use GET, HEAD`, { headers: { Allow: 'GET, HEAD' } });
        refuseKeyInQuery(req.url!);
        answer(req, res, ctx, page.status, page.body, page.headers);
        return;
      }
      const { at, params } = findPath(url.pathname);
      corsGroup = at.routes[0]!.group; // the routes of one path share a group (optionsHeaders reads it the same way)
      if (req.method === 'OPTIONS') { reportAddressWindow(ctx, proxies.clientOf(req)); answer(req, res, ctx, 204, '', { ...optionsHeaders(at), ...cors.preflightHeaders(req, at) }); return; }
      const route = routeFor(at, req.method, url.pathname);
      ctx.route = routeName(route);
      Object.assign(ctx.headers, cors.answerHeaders(req, route.group)); // on errors too, so a page can read them
      corsSet = true;
      // A GET target whose shard this build already resolved skips the query, validation and resolution (all
      // pure: it passed them before); the request keeps that build, as every request keeps the build it started with.
      const current = deps.holder.get();
      const seen = req.method === 'GET' || req.method === 'HEAD' ? resolvedShards.known(current, route, req.url!) : null;
      // a route that takes no query (the system routes) reads none: any is ignored, a malformed one too, as on /docs
      let query: Record<string, unknown> | null = null;
      if ('free' in route) refuseKeyInQuery(req.url!);
      else if (!seen) query = readQuery(url.searchParams, req.url!);

      // ---------- who is calling, and the limits (401, 403, 429)
      let caller: KeyedCaller | null = null;
      if (route.group === 'public') {
        // A valid key counts in its own window; no key, or one that fails, in the address's (no 401 here).
        const header = req.headers['x-service-key'];
        const presented = typeof header === 'string' && header.trim() !== '' ? deps.keys.check(header) : null;
        const check = presented instanceof Promise ? await presented : presented;
        const plan = check?.ok ? PLANS.get(check.record.plan) : undefined;
        if (check?.ok && plan) {
          const keyed = { key: check.record, plan };
          const hit = deps.limits.hit(keyed.key.id, perMinute(keyed), t);
          admitKeyedPublic(ctx, keyed, hit instanceof Promise ? await hit : hit, t);
        } else admitAddress(ctx, address, proxies.clientOf(req), t);
      } else {
        const known = authenticate(deps.keys, address, ctx, req, t); // the client address is read only for a key that fails
        caller = known instanceof Promise ? await known : known; // known keys answer without a microtask
        // A request its plan allows on a counted route is counted ahead, in the window's round trip (Redis).
        const ahead = !('free' in route) && caller.plan.groups.has(route.group) ? countAhead(caller.plan) : undefined;
        const hitting = deps.limits.hit(caller.key.id, perMinute(caller), t, ahead);
        const hit = hitting instanceof Promise ? await hitting : hitting; // memory limits answer without a microtask
        if (hit.counted && deps.limits.uncount) ctx.countedIn = deps.limits;
        setKeyHeaders(ctx, caller, hit, t);
        checkPlan(route, caller);
        enforceKeyLimits(route, caller, hit, t);
      }

      // ---------- system endpoints (free: never counted)
      if ('free' in route) {
        const sys = await systemAnswer(route, deps.holder, deps.limits, caller, t);
        answer(req, res, ctx, 200, sys.body, sys.headers);
        return;
      }

      // ---------- validation (400, 413, 415, 422); everything below counts when it succeeds
      if (caller) ctx.countIn = deps.limits;
      let build = seen ? current : null;
      let reply = seen;
      if (!reply) {
        const checked = readValues(route, query!, params, req, current);
        const values = checked instanceof Promise ? await checked : checked;

        // ---------- answer (503 without a build, 404 without data)
        build = deps.holder.get();
        if (!build && route.needsBuild !== false) throw new HttpError('no_build', undefined, { headers: { 'Retry-After': '60' } });
        // Shard routes answer synchronously and cached shards are read synchronously: no await (a microtask each) on the hot path.
        const pending = route.resolve(values, build!, { keyId: caller?.key.id ?? null, plan: caller?.plan.name ?? null, query: url.searchParams, req });
        reply = pending instanceof Promise ? await pending : pending;
        resolvedShards.remember(build, route, req.url!, reply);
      }
      const sending = answerReply(req, res, ctx, route, build, reply);
      if (sending) await sending;
      if (ctx.counting) await ctx.counting;
    } catch (err) {
      if (!corsSet) Object.assign(ctx.headers, cors.answerHeaders(req, corsGroup));
      fail(req, res, ctx, err);
    }
  }
}
