// Answering a request once its steps have passed (api/app.ts): the head every answer carries (request id,
// rate window, quota; the call counted first), errors as {message, errors?}, shards with their ETag (304)
// and stored encodings, JSON replies, and custom replies that write their own body (export files) with
// the server's headers. Every head and body goes out through api/send.ts.
import type http from 'node:http';
import { HttpError } from './errors.ts';
import type { Ctx } from './context.ts';
import { countAnswer, countFileAnswer } from './limit-checks.ts';
import type { LoadedBuild } from './builds.ts';
import type { Reply, Route } from './route.ts';
import type { Shard } from './shards.ts';
import { hasBody, JSON_TYPE, NOSNIFF, sendOwned } from './send.ts';

const NONE: Readonly<Record<string, string>> = Object.freeze({});
const PUBLIC_CORS: Readonly<Record<string, string>> = Object.freeze({ 'Access-Control-Allow-Origin': '*' });

/** Sends an answer with the request's headers, after deciding whether it counts toward the month.
 *  `lead`: headers that go before all others (Connection: close on an unread body). The head is one object
 *  filled in order (lead, Content-Type, request id, nosniff, the request's headers, `extra`): a later name
 *  keeps its first place and takes the later value; both Vary values are kept. */
export function answer(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, status: number, body: Buffer | string, extra: Readonly<Record<string, string>> = NONE, lead: Readonly<Record<string, string>> = NONE): void {
  countAnswer(ctx, status);
  const head: Record<string, string> = {};
  for (const name in lead) head[name] = lead[name]!;
  if (status !== 204) head['Content-Type'] = JSON_TYPE; // 204 has no body, so no Content-Type either
  head['X-Request-Id'] = ctx.id;
  head['X-Content-Type-Options'] = NOSNIFF['X-Content-Type-Options'];
  const own = ctx.headers;
  for (const name in own) head[name] = own[name]!;
  for (const name in extra) head[name] = extra[name]!;
  if (own['Vary'] && extra['Vary']) head['Vary'] = `${extra['Vary']}, ${own['Vary']}`;
  sendOwned(res, req.method, status, head, body);
}

/** The {message, errors?} body of an HttpError, never cached. */
export function answerError(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, err: HttpError): void {
  // The rest of a body that is too large is never read: the connection cannot carry another request.
  const lead: Record<string, string> = err.code === 'body_too_large' ? { Connection: 'close' } : {};
  answer(req, res, ctx, err.status, JSON.stringify(err.body()), { 'Cache-Control': 'no-store', ...err.headers }, lead);
}

function acceptsEncoding(header: string, enc: string): boolean {
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== enc) return false;
    const q = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

// What an Accept-Encoding header accepts, parsed once per distinct header (clients send a handful of them).
const BR = 1, GZIP = 2;
const accepted = new Map<string, number>();
function acceptedEncodings(req: http.IncomingMessage): number {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return 0;
  let bits = accepted.get(header);
  if (bits === undefined) {
    bits = (acceptsEncoding(header, 'br') ? BR : 0) | (acceptsEncoding(header, 'gzip') ? GZIP : 0);
    if (accepted.size >= 256) accepted.clear(); // bounded: odd headers cannot grow it
    accepted.set(header, bits);
  }
  return bits;
}

/** The headers of a shard's answer for one route of one build, made once: identity, br and gzip variants. */
interface ShardHeads { lastModified: string; plain: Readonly<Record<string, string>>; br: Readonly<Record<string, string>> | null; gz: Readonly<Record<string, string>> | null }
const shardHeadsMade = new WeakMap<Shard, Map<Route, ShardHeads>>();
function shardHeads(shard: Shard, route: Route, lastModified: string): ShardHeads {
  let byRoute = shardHeadsMade.get(shard);
  if (!byRoute) shardHeadsMade.set(shard, (byRoute = new Map()));
  let heads = byRoute.get(route);
  if (heads?.lastModified !== lastModified) {
    const cors = route.group === 'public' ? PUBLIC_CORS : NONE;
    const plain = Object.freeze({ ETag: shard.etag, 'Cache-Control': route.cacheControl, Vary: 'Accept-Encoding', 'Last-Modified': lastModified, ...cors });
    heads = {
      lastModified,
      plain,
      br: shard.br ? Object.freeze({ ...plain, 'Content-Encoding': 'br' }) : null,
      gz: shard.gz ? Object.freeze({ ...plain, 'Content-Encoding': 'gzip' }) : null,
    };
    byRoute.set(route, heads);
  }
  return heads;
}

/** If-None-Match names this ETag (or `*`): the client's copy is current. */
function notModified(req: http.IncomingMessage, etag: string): boolean {
  const inm = req.headers['if-none-match'];
  return typeof inm === 'string' && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*');
}

/** A shard's answer: 304 on a matching ETag, else the stored br or gzip variant the client accepts, else the
 *  plain body; the headers of each variant are made once per shard and route. */
function answerShard(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, shard: Shard, route: Route, lastModified: string): void {
  const heads = shardHeads(shard, route, lastModified);
  if (notModified(req, shard.etag)) {
    answer(req, res, ctx, 304, '', heads.plain);
    return;
  }
  const accepts = heads.br || heads.gz ? acceptedEncodings(req) : 0;
  if (heads.br && accepts & BR) answer(req, res, ctx, 200, shard.br!, heads.br);
  else if (heads.gz && accepts & GZIP) answer(req, res, ctx, 200, shard.gz!, heads.gz);
  else answer(req, res, ctx, 200, shard.body, heads.plain);
}

/** Sends a route's reply: a shard of the build (404 when it has none), a custom answer that writes its own
 *  body, or a JSON body (304 on a matching ETag). Returns a promise only when it has to wait: shard routes
 *  over cached shards answer with no await (a microtask each) on the hot path. */
export function answerReply(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, route: Route, build: LoadedBuild | null, reply: Reply): void | Promise<void> {
  if (reply.kind === 'shard') {
    const shard = build!.shards.cached(reply.path);
    if (shard) return answerShard(req, res, ctx, shard, route, build!.lastModified);
    return build!.shards.get(reply.path).then((read) => {
      if (!read) throw new HttpError('no_data', reply.notFound);
      answerShard(req, res, ctx, read, route, build!.lastModified);
    });
  }
  if (reply.kind === 'custom') {
    // The answer writes its own head (files, ranges); the status and range it asks headers for say whether it counts.
    // (X-Quota-Remaining is set by that decision: the head is made after it.)
    return reply.send(req, res, (status, _contentRange, file) => {
      const head = (): Record<string, string> => ({ 'X-Request-Id': ctx.id, 'Cache-Control': route.cacheControl, ...ctx.headers });
      const deciding = countFileAnswer(ctx, status, file);
      return deciding ? deciding.then(head) : head();
    }).then(() => {});
  }
  const cors = route.group === 'public' ? PUBLIC_CORS : NONE;
  const headers = { 'Cache-Control': route.cacheControl, ...cors, ...reply.headers, ...(reply.etag ? { ETag: reply.etag } : {}) };
  const status = reply.etag && notModified(req, reply.etag) ? 304 : reply.status ?? 200;
  answer(req, res, ctx, status, hasBody(status) ? JSON.stringify(reply.body) : '', headers);
}
