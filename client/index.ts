// A small typed client for the REII API: every path, query parameter, body and answer typed from the OpenAPI
// document (./types.ts, generated). Uses the platform's fetch (Node 18+, browsers); no dependencies.
import type { components, paths } from './types.ts';

export type { components, paths };
/** A schema of the document by name: `Schema<'Usage'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

type Method = 'get' | 'post' | 'delete';
/** The paths that have an operation for `M`. */
export type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined | never ? never : P }[keyof paths];
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Params<O, K extends 'query' | 'path'> = O extends { parameters: { [k in K]?: infer Q } } ? ([Q] extends [never] | [undefined] ? never : Q) : never;
/** A file answer (GET /v1/export/{dataset}): the text of a text format (CSV, NDJSON), the bytes of a binary one (Parquet). */
export type FileBody = string | Uint8Array;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : R extends { content?: never } ? null : R extends { content: object } ? FileBody : unknown;
/** The body of the operation's success answer (200, 201, 202 or 204). */
export type Answer<O> = O extends { responses: infer R }
  ? 200 extends keyof R ? JsonOf<R[200]> : 201 extends keyof R ? JsonOf<R[201]> : 202 extends keyof R ? JsonOf<R[202]> : 204 extends keyof R ? null : unknown
  : never;
type RequestBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** What a call takes besides the path: its query and path parameters (only where the operation has them). */
export type Options<O> = ([Params<O, 'query'>] extends [never] ? { query?: never } : { query?: Params<O, 'query'> })
  & ([Params<O, 'path'>] extends [never] ? { params?: never } : { params: Params<O, 'path'> })
  & { headers?: Record<string, string>; signal?: AbortSignal };

/** An answer other than 2xx: the status, the API's {message, errors?} body and the request id to quote. */
export class ReiiError extends Error {
  readonly status: number;
  readonly body: Schema<'Problem'> | null;
  readonly requestId: string | null;
  readonly retryAfter: number | null;
  constructor(status: number, body: Schema<'Problem'> | null, headers: Headers) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'ReiiError';
    this.status = status;
    this.body = body;
    this.requestId = headers.get('x-request-id');
    const ra = headers.get('retry-after');
    this.retryAfter = ra === null ? null : Number(ra);
  }
}

export interface ClientOptions {
  /** Where the service runs: `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The API key, sent as X-Service-Key (never in the URL); public endpoints need none. */
  key?: string;
  fetch?: typeof globalThis.fetch;
}

export interface Client {
  get<P extends PathsWith<'get'>>(path: P, ...opts: OptArgs<Op<P, 'get'>>): Promise<Answer<Op<P, 'get'>>>;
  post<P extends PathsWith<'post'>>(path: P, body: RequestBody<Op<P, 'post'>>, ...opts: OptArgs<Op<P, 'post'>>): Promise<Answer<Op<P, 'post'>>>;
  delete<P extends PathsWith<'delete'>>(path: P, ...opts: OptArgs<Op<P, 'delete'>>): Promise<Answer<Op<P, 'delete'>>>;
}
/** The options argument: required when the path has parameters, optional otherwise. */
type OptArgs<O> = [Params<O, 'path'>] extends [never] ? [opts?: Options<O>] : [opts: Options<O>];

export function createClient(options: ClientOptions): Client {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  async function call(method: string, path: string, body: unknown, given?: unknown): Promise<never> {
    const opts = (given ?? {}) as { query?: Record<string, unknown>; params?: Record<string, unknown>; headers?: Record<string, string>; signal?: AbortSignal };
    let target = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = opts.params?.[name];
      if (v === undefined || v === null) throw new TypeError(`path parameter ${name} is missing for ${path}`);
      return encodeURIComponent(String(v));
    });
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined || v === null) continue;
      for (const one of Array.isArray(v) ? v : [v]) qs.append(k, String(one));
    }
    if ([...qs.keys()].length) target += `?${qs}`;
    const headers: Record<string, string> = { Accept: 'application/json, */*;q=0.5', ...opts.headers };
    if (options.key) headers['X-Service-Key'] = options.key;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await doFetch(base + target, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal });
    // A file (an export) is returned as it came: its text for a text type, its bytes otherwise (review 15 #9: it
    // went through JSON.parse and came back null).
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (res.ok && type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      return (type.startsWith('text/') || type === 'application/x-ndjson' ? await res.text() : new Uint8Array(await res.arrayBuffer())) as never;
    }
    const text = await res.text();
    let parsed: unknown = null;
    if (text) { try { parsed = JSON.parse(text); } catch { parsed = null; } }
    if (!res.ok) throw new ReiiError(res.status, parsed as Schema<'Problem'> | null, res.headers);
    return parsed as never;
  }
  return {
    get: (path, ...opts) => call('GET', path, undefined, opts[0]),
    post: (path, body, ...opts) => call('POST', path, body, opts[0]),
    delete: (path, ...opts) => call('DELETE', path, undefined, opts[0]),
  };
}
