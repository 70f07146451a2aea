// Cross-origin requests from browsers (CORS). Public routes (the coverage summary, the OpenAPI document, health,
// /docs) are readable from any origin. Keyed routes are off by default: only the origins listed in
// REII_CORS_ORIGINS (exact `scheme://host[:port]`, or `*` for any) get Access-Control-Allow-Origin, and a
// preflight from one of them is answered for the key header. Every keyed answer says `Vary: Origin` when a list
// is set, so a shared cache never hands one origin's answer to another, and always `Vary: X-Service-Key`: a keyed
// answer is cached `private` for hours, and a browser must not serve one key's copy to a request with another key
// (review 15 #6).
import type http from 'node:http';
import type { PathRoutes } from './route-match.ts';

/** Request headers a browser may send cross-origin: the key, a JSON body, conditional requests. */
export const CORS_REQUEST_HEADERS = 'X-Service-Key, Content-Type, If-None-Match, Range';
/** Response headers a cross-origin script may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Quota-Limit, X-Quota-Remaining, X-Quota-Reset, X-Limits-Degraded, Retry-After, ETag, Content-Range, Content-Disposition, Location, Allow';
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';
const PUBLIC_ANSWER = Object.freeze({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS });
const VARY_KEY = Object.freeze({ Vary: 'X-Service-Key' });
const VARY_ORIGIN = Object.freeze({ Vary: 'Origin, X-Service-Key' });

export class CorsPolicy {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  /** `list`: the corsOrigins setting (comma-separated origins, `*`, or empty for none). */
  constructor(list: string) {
    const entries = list.split(',').map((x) => x.trim()).filter((x) => x !== '');
    this.any = entries.includes('*');
    this.origins = new Set(entries.filter((x) => x !== '*').map((x) => x.toLowerCase()));
  }

  /** Whether keyed routes answer cross-origin requests at all (any origin listed). */
  get keyedEnabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  /** The Access-Control-Allow-Origin a keyed route gives this Origin, or null. */
  private keyedOrigin(origin: string | undefined): string | null {
    if (!origin) return null;
    return this.any || this.origins.has(origin.toLowerCase()) ? origin : null;
  }

  /** Headers of an answer (success or error) of a route of `group`: shared, frozen objects except for an
   *  allowed keyed origin (the caller copies them into its answer, so no request allocates for CORS). */
  answerHeaders(req: http.IncomingMessage, group: string): Readonly<Record<string, string>> {
    if (group === 'public') return PUBLIC_ANSWER;
    if (!this.keyedEnabled) return VARY_KEY;
    const allowed = this.keyedOrigin(header(req, 'origin'));
    return allowed
      ? { 'Access-Control-Allow-Origin': allowed, 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS, Vary: 'Origin, X-Service-Key' }
      : VARY_ORIGIN;
  }

  /** Headers of the answer to OPTIONS on a path: a preflight is granted for a public path from any origin, for a
   *  keyed path only from a listed origin, and only for a method the path has. */
  preflightHeaders(req: http.IncomingMessage, at: PathRoutes): Record<string, string> {
    const method = header(req, 'access-control-request-method');
    const isPublic = at.routes.every((r) => r.group === 'public');
    const vary: Record<string, string> = isPublic ? {} : { Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' };
    const origin = isPublic ? '*' : this.keyedOrigin(header(req, 'origin'));
    if (!origin || (method !== undefined && !at.allow.split(', ').includes(method))) return vary;
    return {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': at.allow,
      'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
      ...vary,
    };
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

