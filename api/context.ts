// One request's state as it passes the steps of api/app.ts: its id, the route and key its access-log line
// names, and the headers its answer will carry (the rate window that applies, the quota) with the count of
// this call toward the key's month.
import crypto from 'node:crypto';
import type { KeyRecord } from './keys.ts';
import type { LimitStore } from './limits.ts';
import type { Plan } from './plans.ts';
import type { WindowState } from './rate-limit.ts';

/** The caller of a keyed route once authenticated (api/auth.ts). */
export interface KeyedCaller { key: KeyRecord; plan: Plan }

export interface Ctx {
  id: string;
  started: number;
  route: string | null;
  keyId: string | null;
  /** The answer's own headers, the rate window's first (a placeholder '' until a window is set: setRate). */
  headers: Record<string, string>;
  /** A keyed call with a monthly limit: the month's count before this call (X-Quota-Remaining is set on send). */
  quota: { limit: number; used: number } | null;
  /** The request's clock time (windows, the month it counts in). */
  t: number;
  /** Past auth, limits and the free system routes: the store in which a 2xx of this call counts toward the
   *  month of `keyId`. Null when the call cannot count. */
  countIn: LimitStore | null;
  /** Counted ahead with the key's window (a shared store, one round trip): the store to take it back from when
   *  the answer does not count. Null when nothing was counted ahead. */
  countedIn: LimitStore | null;
  /** Whether this call's count was settled: decided with the answer's head, before its body leaves, so a
   *  client that has the answer and then asks /v1/usage sees it counted. */
  decided: boolean;
  /** The count still under way (a shared store), awaited after the answer; null when it was immediate. */
  counting: Promise<void> | null;
}

// Request ids: a random per-process prefix and a counter (unique, and cheaper than random bytes per request).
const ID_PREFIX = crypto.randomBytes(6).toString('base64url');
let requestSeq = 0;
export const nextRequestId = (): string => `req_${ID_PREFIX}${(++requestSeq).toString(36)}`;

export function newCtx(t: number): Ctx {
  return {
    id: nextRequestId(), started: performance.now(), route: null, keyId: null,
    headers: { 'X-RateLimit-Limit': '', 'X-RateLimit-Remaining': '', 'X-RateLimit-Reset': '' },
    quota: null, t, countIn: null, countedIn: null, decided: false, counting: null,
  };
}

/** Whether a rate window was set for the answer (else the client address's window is reported: api/app.ts). */
export function hasRate(ctx: Ctx): boolean {
  return ctx.headers['X-RateLimit-Reset'] !== '';
}

/** X-RateLimit-Limit, -Remaining and -Reset of a window. */
export function rateHeaders(w: WindowState): Record<string, string> {
  return {
    'X-RateLimit-Limit': w.limit === null ? 'unlimited' : String(w.limit),
    'X-RateLimit-Remaining': w.remaining === null ? 'unlimited' : String(w.remaining),
    'X-RateLimit-Reset': String(w.reset),
  };
}

/** The window the answer reports from now on. */
export function setRate(ctx: Ctx, w: WindowState): void {
  const h = ctx.headers;
  h['X-RateLimit-Limit'] = w.limit === null ? 'unlimited' : String(w.limit);
  h['X-RateLimit-Remaining'] = w.remaining === null ? 'unlimited' : String(w.remaining);
  h['X-RateLimit-Reset'] = String(w.reset);
}

// The access log's time, formatted once per millisecond rather than once per request.
let isoAt = -1;
let isoText = '';
export function isoTime(ms: number): string {
  if (ms !== isoAt) { isoAt = ms; isoText = new Date(ms).toISOString(); }
  return isoText;
}
