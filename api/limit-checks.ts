// The limits step of a request (README "Limits"): a public call counts in its client address's window; a
// keyed call in its key's minute window, and it reports the month's quota. The headers every answer then
// carries (X-RateLimit-*, X-Quota-*, X-Limits-Degraded) are set here, and the 429s decided; an answer's
// status says at send time whether it counts toward the month (countAnswer).
import { HttpError } from './errors.ts';
import { setRate, type Ctx, type KeyedCaller } from './context.ts';
import type { KeyHit } from './limits.ts';
import type { WindowLimiter } from './rate-limit.ts';
import type { AnyRoute } from './route-match.ts';
import { nextMonthStart } from './usage.ts';
import type { TrustedProxies } from './client-address.ts';

/** The per-address limits of one server (per instance; README "Limits"). */
export interface AddressLimits {
  anonLimiter: WindowLimiter; // per client address, per minute
  authFailures: WindowLimiter; // failed authentications per client address, per 10 minutes
  anon: { requestsPerMinute: number; failedAuthPer10Min: number };
  proxies: TrustedProxies; // who the client is (the address the limits above are kept against)
}

/** Seconds until `reset` (Unix seconds), at least 1. */
export function retryAfter(reset: number, t: number): string {
  return String(Math.max(1, reset - Math.floor(t / 1000)));
}

/** A public call counts in its address's window: 429 when it is full. */
export function admitAddress(ctx: Ctx, limits: AddressLimits, ip: string, t: number): void {
  const w = limits.anonLimiter.hit(ip, limits.anon.requestsPerMinute, t);
  setRate(ctx, w);
  if (!w.allowed) throw new HttpError('rate_limited', `Limit of ${limits.anon.requestsPerMinute} requests per minute per address reached for public endpoints`, { headers: { 'Retry-After': retryAfter(w.reset, t) } });
}

/** A public call made with a valid key counts in the key's own minute window, not in its address's (which
 *  anyone's failed keys from the same address use up): 429 only when the key's window is full. Public calls
 *  never count toward the month. */
export function admitKeyedPublic(ctx: Ctx, caller: KeyedCaller, hit: KeyHit, t: number): void {
  ctx.keyId = caller.key.id;
  setRate(ctx, hit.window);
  if (hit.degraded) ctx.headers['X-Limits-Degraded'] = 'redis-unreachable';
  if (!hit.window.allowed) throw new HttpError('rate_limited', `Per-minute rate limit of ${perMinute(caller)} requests reached; retry after the window resets`, { headers: { 'Retry-After': retryAfter(hit.window.reset, t) } });
}

/** A key's per-minute limit: its own, else its plan's (null = unlimited). */
export function perMinute(caller: KeyedCaller): number | null {
  return caller.key.rpm ?? caller.plan.requestsPerMinute;
}

/** The headers of a keyed call after its hit: the key's window, degraded limits, the month's quota
 *  (X-Quota-Remaining is set when the answer is sent, after this call if it counts). */
export function setKeyHeaders(ctx: Ctx, caller: KeyedCaller, hit: KeyHit, t: number): void {
  setRate(ctx, hit.window);
  if (hit.degraded) ctx.headers['X-Limits-Degraded'] = 'redis-unreachable';
  const monthLimit = caller.plan.callsPerMonth;
  ctx.headers['X-Quota-Limit'] = monthLimit === null ? 'unlimited' : String(monthLimit);
  if (monthLimit === null) ctx.headers['X-Quota-Remaining'] = 'unlimited';
  else ctx.quota = { limit: monthLimit, used: hit.monthUsed };
  ctx.headers['X-Quota-Reset'] = String(nextMonthStart(t));
}

/** A keyed call past its minute window, or (unless the route is free) past its monthly quota: 429. */
export function enforceKeyLimits(route: AnyRoute, caller: KeyedCaller, hit: KeyHit, t: number): void {
  const w = hit.window;
  if (!w.allowed) throw new HttpError('rate_limited', `Per-minute rate limit of ${perMinute(caller)} requests reached; retry after the window resets`, { headers: { 'Retry-After': retryAfter(w.reset, t) } });
  const monthLimit = caller.plan.callsPerMonth;
  if (monthLimit !== null && hit.monthUsed >= monthLimit && !('free' in route)) {
    const reset = nextMonthStart(t);
    throw new HttpError('quota_exceeded', `Monthly quota of ${monthLimit} calls used up; it resets on ${new Date(reset * 1000).toISOString().slice(0, 10)}`, { headers: { 'Retry-After': String(reset - Math.floor(t / 1000)) } });
  }
}

/** Decides, once the answer's status is known and before it is sent, whether it counts; starts the
 *  count (or takes back one made ahead) and sets X-Quota-Remaining (calls left this month after this answer).
 *  Any 2xx counts. */
export function countAnswer(ctx: Ctx, status: number): void {
  settle(ctx, ctx.countIn !== null && status >= 200 && status < 300);
}

/** countAnswer for an answer that is (a part of) an export file (`file`: its ETag): a byte range (206) counts
 *  when it is the first part of that file the key gets that UTC day, from any instance of the store (Redis: every
 *  instance), whatever byte it starts at: the other parts of one download, resumed or parallel, count with it,
 *  and a range past byte 0 is no way round the quota. A whole file (200) always counts. Waits only for a shared store. */
export function countFileAnswer(ctx: Ctx, status: number, file: string | undefined): void | Promise<void> {
  if (ctx.countIn === null || status < 200 || status >= 300 || file === undefined || ctx.keyId === null) return countAnswer(ctx, status);
  const first = ctx.countIn.firstPartOfDay(ctx.keyId, file, ctx.t, status !== 206);
  if (typeof first === 'boolean') return settle(ctx, first);
  return first.then((f) => settle(ctx, f));
}

function settle(ctx: Ctx, counted: boolean): void {
  if (!ctx.decided && (counted || ctx.countedIn)) {
    ctx.decided = true;
    // Counted ahead: only an answer that does not count has something to do (take it back).
    const counting = ctx.countedIn ? (counted ? undefined : ctx.countedIn.uncount!(ctx.keyId!, ctx.t)) : ctx.countIn!.countSuccess(ctx.keyId!, ctx.t);
    if (counting) ctx.counting = counting;
  }
  if (ctx.quota) ctx.headers['X-Quota-Remaining'] = String(Math.max(0, ctx.quota.limit - ctx.quota.used - (counted ? 1 : 0)));
}
