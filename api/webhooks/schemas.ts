// JSON Schemas of the webhook routes' answers and of the event payloads (spread into api/schemas.ts SCHEMAS),
// and the OpenAPI 3.1 top-level `webhooks` map that describes each event a receiver gets.
import { EVENT_TYPES } from './store.ts';

type Schema = Record<string, unknown>;
const str = { type: 'string' };
const num = { type: 'number' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const nullable = (t: string): Schema => ({ type: [t, 'null'] });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties), additional = false): Schema => ({ type: 'object', properties, required, additionalProperties: additional });
/** The id the service gives an endpoint (routes.ts ENDPOINT_ID_PATTERN, without the spaces a request may add). */
const endpointId = { type: 'string', pattern: '^wh_[A-Za-z0-9]{12}$' };
const events = { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, minItems: 1, uniqueItems: true };

const LastDelivery = {
  oneOf: [
    { type: 'null' },
    obj({ event_id: str, type: str, attempted_at: str, ok: bool, status_code: nullable('integer'), error: nullable('string') }),
  ],
};

const envelope = (type: string, data: Schema, description: string): Schema => ({
  type: 'object', description, additionalProperties: false,
  required: ['type', 'timestamp', 'data', 'version', 'id'],
  properties: {
    type: { type: 'string', const: type },
    version: { type: 'integer', const: 1, description: 'Payload version; additive changes keep 1' },
    id: { type: 'string', description: 'Stable event id (evt_<build>_<kind>_<key>); equals the webhook-id header and is the same on every retry' },
    timestamp: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC time the event was raised (the Standard Webhooks payload field)' },
    data,
  },
});

const buildIds = { build_id: str, previous_build_id: nullable('string') };

export const WEBHOOK_SCHEMAS: Record<string, Schema> = {
  WebhookEndpointCreated: obj({
    id: endpointId, url: str, events, description: nullable('string'),
    secret: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/=]+$', description: 'Signing secret, shown only in this answer' },
    status: { type: 'string', enum: ['active'] }, created_at: str,
  }),
  WebhookEndpoint: obj({
    id: endpointId, url: str, events, description: nullable('string'), status: { type: 'string', enum: ['active', 'disabled'] },
    disabled_reason: nullable('string'), disabled_at: nullable('string'), created_at: str,
    consecutive_failures: int, pending_messages: int,
    dead_messages: { type: 'integer', minimum: 0, description: 'Messages given up on (retries exhausted, or the endpoint disabled): the dead letters' },
    last_delivery: LastDelivery,
  }),
  WebhookEndpointList: obj({ count: int, endpoints: { type: 'array', items: { $ref: '#/components/schemas/WebhookEndpoint' } } }),
  WebhookTestQueued: obj({ event_id: str, type: { type: 'string', const: 'webhook.test' }, endpoint_id: endpointId, status: { type: 'string', const: 'queued' } }),
  WebhookEventBuildPublished: envelope('build.published', obj({
    ...buildIds, as_of: nullable('string'), built_at: nullable('string'),
    shards: obj({ total: num, by_family: { type: 'object', additionalProperties: num } }),
    tables: { type: 'object', additionalProperties: num, description: 'Rows per warehouse table (main schema)' },
    rejected_rows: num,
    changes: obj({ rehab_labels: int, regulations: int }),
  }), 'A new build went live'),
  WebhookEventRehabLabelChanged: envelope('market.rehab_label_changed', obj({
    ...buildIds, zip_code: str, city: nullable('string'), state: nullable('string'), months: int,
    previous_label: str, label: str, previous_score: nullable('number'), rehab_momentum_score: nullable('number'), as_of: nullable('string'),
  }), "A zip's 6-month rehab momentum label changed between the previous and the new build"),
  WebhookEventRegulationChanged: envelope('regulation.changed', obj({
    ...buildIds, change: { type: 'string', enum: ['added', 'changed', 'expired'] }, regulation_id: str,
    state: nullable('string'), jurisdiction_level: nullable('string'), county_fips: nullable('string'), city: nullable('string'),
    category: nullable('string'), subcategory: nullable('string'), title: nullable('string'), status: nullable('string'),
    effective_date: nullable('string'), source_url: nullable('string'),
    changed_fields: { type: 'array', items: str }, previous_hash: nullable('string'), hash: nullable('string'),
  }), 'A regulation record was added, changed or expired between builds'),
  WebhookEventTest: envelope('webhook.test', obj({ endpoint_id: str, message: str }), 'Sent on request by POST /v1/webhooks/{id}/test'),
};

const SIGNATURE_HEADERS = {
  'webhook-id': { required: true, description: 'Message id (= payload id), the same on every retry: de-duplicate on it', schema: { type: 'string' } },
  'webhook-timestamp': { required: true, description: 'Unix seconds of this attempt; reject if more than 5 minutes from your clock', schema: { type: 'integer' } },
  'webhook-signature': { required: true, description: 'Space-separated list of v1,<base64 HMAC-SHA256(base64-decoded secret after whsec_, "<id>.<timestamp>.<raw body>")>', schema: { type: 'string' } },
};

function webhookOperation(type: string, schema: string, summary: string): Record<string, unknown> {
  return {
    post: {
      operationId: `webhook_${type.replace(/\W+/g, '_')}`,
      summary,
      description: 'Signed per Standard Webhooks v1 (warehouse/docs/webhooks.md). Answer any 2xx within 15 s; anything else (redirects included: they are not followed) is retried on the documented schedule.',
      'x-plan': 'pro',
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, h]) => ({ name, in: 'header', ...h })),
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
      responses: { '2XX': { description: 'Received; any other status (or a timeout) is retried' }, '410': { description: 'Gone: disables the endpoint' } },
    },
  };
}

/** The OpenAPI 3.1 top-level `webhooks` map. */
export const WEBHOOKS_OPENAPI: Record<string, unknown> = {
  'build.published': webhookOperation('build.published', 'WebhookEventBuildPublished', 'A new build went live'),
  'market.rehab_label_changed': webhookOperation('market.rehab_label_changed', 'WebhookEventRehabLabelChanged', "A zip's rehab label changed"),
  'regulation.changed': webhookOperation('regulation.changed', 'WebhookEventRegulationChanged', 'A regulation record was added, changed or expired'),
  'webhook.test': webhookOperation('webhook.test', 'WebhookEventTest', 'A test event'),
};

/** Statuses the generic OpenAPI generator writes as 200: 201, 202 and 204 for the webhook routes. */
export function patchWebhookPaths(paths: Record<string, Record<string, unknown>>): void {
  const move = (p: string, method: string, status: string, description: string, keepBody = true): void => {
    const op = paths[p]?.[method] as { responses?: Record<string, unknown> } | undefined;
    if (!op?.responses?.['200']) return;
    const ok = op.responses['200'] as Record<string, unknown>;
    delete op.responses['200'];
    op.responses = { [status]: keepBody ? { ...ok, description } : { description, headers: ok['headers'] }, ...op.responses };
  };
  move('/v1/webhooks', 'post', '201', 'Created; the secret is shown only here');
  move('/v1/webhooks/{id}', 'delete', '204', 'Deleted', false);
  move('/v1/webhooks/{id}/test', 'post', '202', 'Queued');
  // Every webhook operation reads the webhook store: 503 with Retry-After while it is unreachable (Redis down).
  for (const [p, ops] of Object.entries(paths)) {
    if (!p.startsWith('/v1/webhooks')) continue;
    for (const op of Object.values(ops) as { responses?: Record<string, unknown> }[]) {
      if (op.responses) op.responses['503'] = { $ref: '#/components/responses/StoreUnavailable' };
    }
  }
}
