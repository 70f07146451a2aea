// /v1/webhooks: register, list and delete a key's endpoints, and queue a test event (pro plan and up).
// Spread into ROUTES by api/routes.ts. Each answer runs with the webhook service of the server the request
// came to (caller.req); the bodies are ordinary JSON replies.
import { HttpError, validationError } from '../errors.ts';
import type { Caller, Reply, Route, Values } from '../route.ts';
import { checkTarget } from './ssrf.ts';
import { MAX_ENDPOINTS_PER_KEY, serviceFor, TEST_EVENTS_PER_MINUTE, type WebhookService } from './service.ts';
import { EVENT_TYPES, type SubscribableEvent } from './store.ts';

const NO_STORE = 'no-store';
/** Retry-After of a 503 while the webhook store is unreachable: ioredis reconnects within a second of Redis's return. */
const STORE_RETRY_AFTER_S = 5;
/** Every endpoint id the service makes (service.ts create): "wh_" and 12 letters or digits. An id of another
 *  form names no endpoint: it is answered 404 like an unknown one (the route enforces the pattern that way). */
export const ENDPOINT_ID_PATTERN = '^\\s*wh_[A-Za-z0-9]{12}\\s*$';
const ID_RE = new RegExp(ENDPOINT_ID_PATTERN);
const ID_PARAM = { name: 'id', type: 'string', required: true, min: 1, max: 64, pattern: ENDPOINT_ID_PATTERN, description: 'Webhook endpoint id: wh_ and 12 letters or digits (any other form is answered 404, as an unknown id)' } as const;

/** The answer of `fn`, run with the webhook service of the server the request came to. */
async function withService(caller: Caller, fn: (svc: WebhookService) => Promise<{ status: 200 | 201 | 202 | 204; body?: unknown; headers?: Record<string, string> }>): Promise<Reply> {
  const svc = serviceFor(caller.req);
  if (!svc) throw new HttpError('internal', 'Webhooks are not running on this server');
  let out: Awaited<ReturnType<typeof fn>>;
  try {
    out = await fn(svc);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // The store failed (Redis unreachable past its command timeout, a locked state.db past its busy timeout): a
    // passing outage, so 503 with Retry-After, said as such without the store's own message (it names hosts and files).
    throw new HttpError('store_unavailable', `The webhook state store is unavailable; retry after ${STORE_RETRY_AFTER_S} s, with exponential backoff`, { headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) } });
  }
  return { kind: 'json', status: out.status, body: out.body ?? null, headers: out.headers };
}

function keyOf(caller: { keyId: string | null }): string {
  if (!caller.keyId) throw new HttpError('key_missing');
  return caller.keyId;
}

async function ownOr404(svc: WebhookService, keyId: string, id: unknown) {
  const e = typeof id === 'string' && ID_RE.test(id) ? await svc.ownEndpoint(keyId, id.trim()) : undefined;
  if (!e) throw new HttpError('no_data', `No webhook endpoint ${String(id)} for this key`);
  return e;
}

export const WEBHOOK_ROUTES: readonly Route[] = [
  {
    method: 'POST', path: '/v1/webhooks', group: 'webhooks', cacheControl: NO_STORE, response: 'WebhookEndpointCreated', needsBuild: false,
    summary: 'Register a webhook endpoint; the signing secret (whsec_...) is in this answer only (201)',
    body: [
      { name: 'url', type: 'string', required: true, min: 8, max: 2048, pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://', description: 'https (or http) URL that receives POSTed events; must resolve to public addresses' },
      { name: 'events', type: 'string_array', required: true, min: 1, max: EVENT_TYPES.length, enum: EVENT_TYPES, description: `Event types to receive: ${EVENT_TYPES.join(', ')}` },
      { name: 'description', type: 'string', min: 1, max: 200, description: 'Optional label' },
    ],
    resolve(v: Values, _build, caller) {
      const keyId = keyOf(caller);
      return withService(caller, async (svc) => {
        if ((await svc.endpointsOf(keyId)).length >= MAX_ENDPOINTS_PER_KEY) {
          throw validationError([{ field: 'url', code: 'limit', message: `at most ${MAX_ENDPOINTS_PER_KEY} endpoints per key; delete one first` }]);
        }
        const target = await checkTarget(String(v['url']), svc.allowPrivate);
        if (!target.ok) throw validationError([{ field: 'url', code: target.code, message: target.message }]);
        const made = await svc.create(keyId, target.url.toString(), v['events'] as SubscribableEvent[], typeof v['description'] === 'string' ? v['description'] : null);
        if (!made) throw validationError([{ field: 'url', code: 'limit', message: `at most ${MAX_ENDPOINTS_PER_KEY} endpoints per key; delete one first` }]);
        const { endpoint, secret } = made;
        return {
          status: 201,
          headers: { Location: `/v1/webhooks/${endpoint.id}` },
          body: { id: endpoint.id, url: endpoint.url, events: endpoint.events, description: endpoint.description, secret, status: endpoint.status, created_at: endpoint.created_at },
        };
      });
    },
  },
  {
    method: 'GET', path: '/v1/webhooks', group: 'webhooks', cacheControl: NO_STORE, response: 'WebhookEndpointList', needsBuild: false,
    summary: "This key's webhook endpoints with status and last delivery (never the secret)",
    resolve(_v, _build, caller) {
      const keyId = keyOf(caller);
      return withService(caller, async (svc) => {
        const endpoints = await svc.endpointsOf(keyId);
        return { status: 200, body: { count: endpoints.length, endpoints } };
      });
    },
  },
  {
    method: 'DELETE', path: '/v1/webhooks/{id}', group: 'webhooks', cacheControl: NO_STORE, response: 'Problem', needsBuild: false,
    summary: 'Delete a webhook endpoint and its undelivered messages (204)',
    params: [ID_PARAM],
    resolve(v, _build, caller) {
      const keyId = keyOf(caller);
      return withService(caller, async (svc) => {
        const e = await ownOr404(svc, keyId, v['id']);
        await svc.remove(keyId, e.id);
        return { status: 204 };
      });
    },
  },
  {
    method: 'POST', path: '/v1/webhooks/{id}/test', group: 'webhooks', cacheControl: NO_STORE, response: 'WebhookTestQueued', needsBuild: false,
    summary: 'Queue a webhook.test event for an endpoint (202)',
    params: [ID_PARAM],
    resolve(v, _build, caller) {
      const keyId = keyOf(caller);
      return withService(caller, async (svc) => {
        const e = await ownOr404(svc, keyId, v['id']);
        if (e.status !== 'active') {
          throw validationError([{ field: 'id', code: 'disabled', message: `endpoint ${e.id} is disabled (${e.disabled_reason ?? 'no reason'}); register it again` }]);
        }
        const w = await svc.takeTestEvent(keyId);
        if (!w.allowed) throw new HttpError('rate_limited', `At most ${TEST_EVENTS_PER_MINUTE} test events per minute per key; retry after the window resets`, { headers: { 'Retry-After': String(Math.max(1, w.reset - Math.floor(Date.now() / 1000))) } });
        const ev = await svc.sendTest(e);
        return { status: 202, body: { event_id: ev.id, type: ev.type, endpoint_id: e.id, status: 'queued' } };
      });
    },
  },
];
