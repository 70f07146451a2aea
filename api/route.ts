// What a route is: the shape of one row of the route table (api/routes.ts, api/webhooks/routes.ts,
// api/export/routes.ts) and of its answer. The server core (api/app.ts) reads these rows; it knows no endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FieldError } from './errors.ts';
import type { Group } from './plans.ts';
import type { LoadedBuild } from './builds.ts';
import type { ParamSpec } from './params.ts';

export type Values = Record<string, unknown>;

/** The server's headers for an answer of this status (and Content-Range): request id, limits, quota. `file`:
 *  what the answer is (a part of), an export file's ETag: its byte ranges count once per key per UTC day
 *  (api/limit-checks.ts countFileAnswer; a promise when that is decided in a shared store, Redis). */
export type HeadFor = (status: number, contentRange?: string, file?: string) => Record<string, string> | Promise<Record<string, string>>;

export type Reply =
  | { kind: 'shard'; path: string; notFound: string }
  /** `etag` (a weak validator of the body): the server answers a matching If-None-Match with 304. */
  | { kind: 'json'; body: unknown; status?: 200 | 201 | 202 | 204; headers?: Record<string, string>; etag?: string }
  /** Full control of the response after auth, limits and validation (file streaming with Range). `head` gives the
   *  server's headers for the status (and Content-Range) about to be sent; returns the status sent. */
  | { kind: 'custom'; send(req: IncomingMessage, res: ServerResponse, head: HeadFor): Promise<number> };

/** Who is calling (routes that keep per-account state, e.g. webhooks). */
export interface Caller {
  keyId: string | null;
  plan: string | null;
  /** The query string as sent (for answers that echo the caller's text). */
  query: URLSearchParams;
  /** The request (answers that depend on the server it came to: webhooks). */
  req: IncomingMessage;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Literal segments, or `{name}` for a path parameter declared in `params`. */
  path: string;
  group: Group;
  summary: string;
  params?: readonly ParamSpec[]; // path parameters
  query?: readonly ParamSpec[];
  body?: readonly ParamSpec[];
  /** Cross-field rules after each value passed its own: return the failures. */
  check?(v: Values): FieldError[];
  /** The parameter dependencies `check` enforces, published in the OpenAPI document (x-param-rules): each
   *  `together` group is given whole or not at all; at least one `anyOf` group is given whole; exactly one `oneOf`
   *  group is given whole and no name of another `oneOf` group is given; each `requires` name needs the names it lists. */
  paramRules?: {
    together?: readonly (readonly string[])[];
    anyOf?: readonly (readonly string[])[];
    oneOf?: readonly (readonly string[])[];
    requires?: Readonly<Record<string, readonly string[]>>;
  };
  cacheControl: string;
  response: string; // name of the response schema in api/schemas.ts
  /** False for routes that answer without a data build (account state such as webhooks). Default true. */
  needsBuild?: boolean;
  resolve(v: Values, build: LoadedBuild, caller: Caller): Promise<Reply> | Reply;
}
