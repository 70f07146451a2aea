// Who is calling a keyed route: the key of the X-Service-Key header and its plan (README "Authentication").
// A key that fails counts against its client address (the public window and the failed-key throttle), so a
// stream of bad keys cannot lock out working ones; the plan must include the route's group.
import type http from 'node:http';
import { HttpError } from './errors.ts';
import { setRate, type Ctx, type KeyedCaller } from './context.ts';
import type { KeyCheck, KeyChecker, KeyRecord } from './keys.ts';
import { retryAfter, type AddressLimits } from './limit-checks.ts';
import { PLANS, planFor, type Plan } from './plans.ts';
import type { AnyRoute } from './route-match.ts';

/** The caller of a keyed route: 401 for a missing, unknown or revoked key (429 once its address has failed
 *  too often), 403 for a key on an unknown plan. Known keys answer without waiting. */
export function authenticate(keys: KeyChecker, limits: AddressLimits, ctx: Ctx, req: http.IncomingMessage, t: number): KeyedCaller | Promise<KeyedCaller> {
  const header = req.headers['x-service-key'];
  // node joins a header sent twice with ", " (as do clients that merge them; no key has a comma): said, not "not valid"
  if (typeof header === 'string' && header.includes(',')) {
    const sent = req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'x-service-key').length;
    return callerOf({ ok: false, code: 'key_invalid' }, limits, ctx, req, t, sent > 1
      ? `The X-Service-Key header was sent ${sent} times; send it once, with one key`
      : `The X-Service-Key header holds ${header.split(',').length} comma-separated values (a header sent more than once is joined that way); send one key, once`);
  }
  const checked = keys.check(Array.isArray(header) ? header[0] : header);
  // No closure for a key checked at once: the common case allocates nothing here.
  return checked instanceof Promise ? checked.then((check) => callerOf(check, limits, ctx, req, t)) : callerOf(checked, limits, ctx, req, t);
}

/** The caller of a checked key, or the HttpError of a key that failed (counted against the client's address). */
function callerOf(check: KeyCheck, limits: AddressLimits, ctx: Ctx, req: http.IncomingMessage, t: number, message?: string): KeyedCaller {
  if (!check.ok) {
    const ip = limits.proxies.clientOf(req);
    // The failed-key throttle applies only to keys that fail: a valid key is never refused by it, so a
    // stream of bad keys from one address (or one load balancer) cannot lock out working keys.
    const failures = limits.authFailures.hit(ip, limits.anon.failedAuthPer10Min, t);
    const minute = limits.anonLimiter.hit(ip, limits.anon.requestsPerMinute, t);
    // A 401 reports the address's public window; the throttle's 429 the throttle that refused (X-RateLimit-* beside
    // its Retry-After: the 10-minute window, none left; review 15 #8).
    setRate(ctx, failures.allowed ? minute : failures);
    if (!failures.allowed) throw new HttpError('auth_throttled', `Too many failed authentications from this address; retry after the window resets`, { headers: { 'Retry-After': retryAfter(failures.reset, t) } });
    throw new HttpError(check.code, message, { headers: { 'WWW-Authenticate': 'ApiKey header="X-Service-Key"' } });
  }
  const key = check.record;
  ctx.keyId = key.id;
  const plan = PLANS.get(key.plan);
  if (!plan) throw new HttpError('plan_required', `Key ${key.id} has an unknown plan "${key.plan}"`);
  return callerFor(key, plan);
}

// One {key, plan} object per key record (a reload makes new records; a record is never changed in place).
const callers = new WeakMap<KeyRecord, KeyedCaller>();
function callerFor(key: KeyRecord, plan: Plan): KeyedCaller {
  let caller = callers.get(key);
  if (caller?.plan !== plan) callers.set(key, (caller = { key, plan }));
  return caller;
}

/** The caller's plan includes the route's group, else 403 naming the lowest plan that does. */
export function checkPlan(route: AnyRoute, caller: KeyedCaller): void {
  if (!caller.plan.groups.has(route.group)) {
    throw new HttpError('plan_required', `${route.method} ${route.path} needs the ${planFor(route.group)} plan or higher; this key is on ${caller.plan.name}`);
  }
}
