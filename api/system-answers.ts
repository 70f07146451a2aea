// The answers of the system routes (api/system-routes.ts): the OpenAPI document (built once), health (the
// build served, the limits backend) and a key's usage this month. Free: they never count toward the month.
import type { BuildHolder } from './builds.ts';
import type { KeyedCaller } from './context.ts';
import { perMinute } from './limit-checks.ts';
import type { LimitStore } from './limits.ts';
import { openApiDocument } from './openapi.ts';
import type { SystemRoute } from './system-routes.ts';
import { nextMonthStart } from './usage.ts';

let openApiBody: Buffer | null = null;

/** The body and headers of a system route's 200. `caller`: the key of /v1/usage (null on public routes). */
export async function systemAnswer(route: SystemRoute, holder: BuildHolder, limits: LimitStore, caller: KeyedCaller | null, t: number): Promise<{ body: Buffer | string; headers: Record<string, string> }> {
  if (route.path === '/v1/openapi.json') {
    openApiBody ??= Buffer.from(JSON.stringify(openApiDocument()));
    return { body: openApiBody, headers: { 'Cache-Control': route.cacheControl, 'Access-Control-Allow-Origin': '*' } };
  }
  let body: unknown;
  if (route.path === '/v1/health') {
    const build = holder.get();
    body = { status: build ? 'ok' : 'no_build', build_id: build?.buildId ?? null, as_of: build?.asOf ?? null, limits: limits.health() };
  } else {
    const { key, plan } = caller!;
    const limit = plan.callsPerMonth;
    const used = await limits.monthCount(key.id, t);
    const d = new Date(t);
    body = {
      plan: plan.name, period_start: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(nextMonthStart(t) * 1000).toISOString(), limit, used,
      remaining: limit === null ? null : Math.max(0, limit - used), per_minute_limit: perMinute(caller!),
    };
  }
  return { body: JSON.stringify(body), headers: { 'Cache-Control': route.cacheControl } };
}
