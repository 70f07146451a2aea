// Answering a request once its steps have passed (api/app.ts): the head every answer carries (request id,
// rate window, quota; the call counted first), errors as {message, errors?}, shards with their ETag (304)
// and stored encodings, JSON replies, and custom replies that write their own body (export files) with
// the server's headers. Every head and body goes out through api/send.ts.
import type http from 'node:http';
import { HttpError } from './errors.ts';
import type { Ctx } from './context.ts';
import { countAnswer } from './limit-checks.ts';
import type { LoadedBuild } from './builds.ts';
import type { Reply, Route } from './route.ts';
import type { Shard } from './shards.ts';
import { hasBody, JSON_TYPE, NOSNIFF, send } from './send.ts';

/** Sends an answer with the request's headers, after deciding whether it counts toward the month.
 *  `lead`: headers that go before all others (Connection: close on an unread body). */
export function answer(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, status: number, body: Buffer | string, extra: Record<string, string> = {}, lead: Record<string, string> = {}): void {
  countAnswer(ctx, status, extra['Content-Range']);
  const vary: Record<string, string> = ctx.headers['Vary'] && extra['Vary'] ? { Vary: `${extra['Vary']}, ${ctx.headers['Vary']}` } : {};
  // 204 has no body, so no Content-Type either.
  send(res, req.method, status, { ...lead, ...(status === 204 ? {} : { 'Content-Type': JSON_TYPE }), 'X-Request-Id': ctx.id, ...NOSNIFF, ...ctx.headers, ...extra, ...vary }, body);
}

/** The {message, errors?} body of an HttpError, never cached. */
export function answerError(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, err: HttpError): void {
  // The rest of a body that is too large is never read: the connection cannot carry another request.
  const lead: Record<string, string> = err.code === 'body_too_large' ? { Connection: 'close' } : {};
  answer(req, res, ctx, err.status, JSON.stringify(err.body()), { 'Cache-Control': 'no-store', ...err.headers }, lead);
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

function answerShard(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, shard: Shard, cacheControl: string, lastModified: string, extra: Record<string, string>): void {
  const headers: Record<string, string> = { ETag: shard.etag, 'Cache-Control': cacheControl, Vary: 'Accept-Encoding', 'Last-Modified': lastModified, ...extra };
  if (notModified(req, shard.etag)) {
    answer(req, res, ctx, 304, '', headers);
    return;
  }
  let body = shard.body;
  if (shard.br && acceptsEncoding(req, 'br')) { body = shard.br; headers['Content-Encoding'] = 'br'; }
  else if (shard.gz && acceptsEncoding(req, 'gzip')) { body = shard.gz; headers['Content-Encoding'] = 'gzip'; }
  answer(req, res, ctx, 200, body, headers);
}

/** Sends a route's reply: a shard of the build (404 when it has none), a custom answer that writes its own
 *  body, or a JSON body (304 on a matching ETag). Returns a promise only when it has to wait: shard routes
 *  over cached shards answer with no await (a microtask each) on the hot path. */
export function answerReply(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, route: Route, build: LoadedBuild | null, reply: Reply): void | Promise<void> {
  const cors: Record<string, string> = route.group === 'public' ? { 'Access-Control-Allow-Origin': '*' } : {};
  if (reply.kind === 'shard') {
    const shard = build!.shards.cached(reply.path);
    if (shard) return answerShard(req, res, ctx, shard, route.cacheControl, build!.lastModified, cors);
    return build!.shards.get(reply.path).then((read) => {
      if (!read) throw new HttpError('no_data', reply.notFound);
      answerShard(req, res, ctx, read, route.cacheControl, build!.lastModified, cors);
    });
  }
  if (reply.kind === 'custom') {
    // The answer writes its own head (files, ranges); the status and range it asks headers for say whether it counts.
    return reply.send(req, res, (status, contentRange) => {
      countAnswer(ctx, status, contentRange);
      return { 'X-Request-Id': ctx.id, 'Cache-Control': route.cacheControl, ...ctx.headers };
    }).then(() => {});
  }
  const headers = { 'Cache-Control': route.cacheControl, ...cors, ...reply.headers, ...(reply.etag ? { ETag: reply.etag } : {}) };
  const status = reply.etag && notModified(req, reply.etag) ? 304 : reply.status ?? 200;
  answer(req, res, ctx, status, hasBody(status) ? JSON.stringify(reply.body) : '', headers);
}
