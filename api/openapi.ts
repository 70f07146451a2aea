// GET /v1/openapi.json: an OpenAPI 3.1 document generated from the same route table and parameter
// specs the server validates with; plans from api/plans.json in x-plan.
import { ROUTES } from './routes.ts';
import type { Route } from './route.ts';
import { SYSTEM_ROUTES } from './system-routes.ts';
import { SCHEMAS } from './schemas.ts';
import { PLANS, planFor } from './plans.ts';
import { STATE_CODES, UNCOVERED_CODES, ZIP_PATTERN, type ParamSpec } from './params.ts';
import { WEBHOOKS_OPENAPI, patchWebhookPaths } from './webhooks/schemas.ts'; // issue 10
import { patchExportPaths } from './export/schemas.ts'; // issue 10
import { escapeRegExp } from '../warehouse/regexp.ts';

/** The live answers time-boxed by REII_LIVE_TIMEOUT_MS (live/valuation, live/research: a 504 upstream_timeout past it). */
const TIME_BOXED = new Set(['/v1/valuation/estimate', '/v1/research/query']);

/** The pattern of a text the server trims before checking (params.ts checkValue): its trimmed length within
 *  [min, max] (no max when long text is cut instead), or one of its `enum` with any spaces around it. A blank
 *  value matches too for an optional body property (it is then taken as absent), never for a query parameter: a
 *  query parameter sent blank is a 400. */
function trimmedPattern(s: ParamSpec, inQuery: boolean): string {
  const body = s.enum
    ? `\\s*(?:${s.enum.map(escapeRegExp).join('|')})\\s*`
    : `\\s*(?=\\S)[\\s\\S]{${Math.max(1, s.min ?? 1)},${s.truncateAt !== undefined || s.max === undefined ? '' : s.max}}(?<=\\S)\\s*`;
  return s.required || inQuery ? `^${body}$` : `^(?:\\s*|${body})$`;
}

/** Realistic values by parameter name, present in the builds over ../shared/data (Seattle, King County WA), so
 *  requests generated from the document reach the data paths; enums give their first member, numbers their
 *  default or minimum. test/api/openapi-fuzz.test.ts checks that each GET answers 2xx with them. */
const EXAMPLES: Record<string, unknown> = {
  // q: an indexed street address (King County's records have no street address, and a place alone such as 'Seattle'
  // answers only addresses indexed there: none)
  state: 'WA', city: 'Seattle', zip: '98103', county_fips: '53033', lat: 47.6097, lng: -122.3331, q: '1289 Lexington Ave',
  address: '1301 2nd Ave', query: 'eviction notice period in Washington', sqft: 1800, beds: 3, baths: 2,
  url: 'https://hooks.example.com/reii', description: 'production listener', id: 'wh_AbCdEfGh1234',
  // King County parcel 7129300520 (its first sale in kc_house_data) and its property_id (the property_id() macro)
  parcel_id: '7129300520', property_id: '67792757b63bcd35',
};

function exampleOf(s: ParamSpec): unknown {
  if (s.name in EXAMPLES) return EXAMPLES[s.name];
  if (s.enum?.length) return s.type === 'string_array' ? [s.enum[0]] : s.enum[0];
  if (s.default !== undefined) return s.default;
  if (s.type === 'integer' || s.type === 'number') return s.min ?? 1;
  if (s.type === 'boolean') return true;
  return undefined;
}

function paramSchema(s: ParamSpec, inQuery = false): Record<string, unknown> {
  const schema = paramSchemaOnly(s, inQuery);
  const ex = exampleOf(s);
  return ex === undefined ? schema : { ...schema, examples: [ex] };
}

function paramSchemaOnly(s: ParamSpec, inQuery: boolean): Record<string, unknown> {
  switch (s.type) {
    case 'zip': return { type: 'string', pattern: ZIP_PATTERN };
    case 'county_fips': return { type: 'string', pattern: '^\\d{5}$' };
    // Covered states, and the USPS codes the service knows but does not cover (answered 404, not 422).
    case 'state': return { type: 'string', enum: [...STATE_CODES, ...UNCOVERED_CODES] };
    case 'integer': case 'number': return { type: s.type, minimum: s.min, maximum: s.max, default: s.default };
    case 'boolean': return { type: 'boolean' };
    case 'string_array': return { type: 'array', items: s.enum ? { type: 'string', enum: s.enum } : { type: 'string' }, minItems: s.min, maxItems: s.max, uniqueItems: true };
    case 'enum': return { type: 'string', enum: s.enum, default: s.default };
    // An unknown key is a 400 (request.ts unknownBodyFields); a null or blank property is taken as absent (params.ts checkValue).
    case 'object': return { type: 'object', additionalProperties: false, properties: Object.fromEntries((s.properties ?? []).map((q) => [q.name, { anyOf: [paramSchema(q), { type: 'null' }, { const: '' }], description: q.description }])) };
    case 'string': {
      const trimmed = trimmedPattern(s, inQuery);
      return s.pattern ? { type: 'string', allOf: [{ pattern: trimmed }, { pattern: s.pattern }] } : { type: 'string', pattern: trimmed };
    }
  }
}

const ERROR_RESPONSES = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '404': { $ref: '#/components/responses/NotFound' },
  '422': { $ref: '#/components/responses/Unprocessable' },
  '429': { $ref: '#/components/responses/TooManyRequests' },
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};
/** A keyed call's success also carries the month's quota (api/limit-checks.ts); a public one only the minute's. */
const QUOTA_HEADERS = {
  'X-Quota-Limit': { $ref: '#/components/headers/X-Quota-Limit' },
  'X-Quota-Remaining': { $ref: '#/components/headers/X-Quota-Remaining' },
  'X-Quota-Reset': { $ref: '#/components/headers/X-Quota-Reset' },
};

/** The OpenAPI document's own answer (not a data schema of api/schemas.ts). */
const OPENAPI_DOCUMENT_SCHEMA = {
  type: 'object',
  description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0)',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: { type: 'object', required: ['title', 'version'] },
    servers: { type: 'array', items: { type: 'object' } },
    paths: { type: 'object' },
    webhooks: { type: 'object' },
    components: { type: 'object' },
    security: { type: 'array' },
  },
};

type OperationSource = Pick<Route, 'method' | 'path' | 'group' | 'summary' | 'query' | 'body' | 'cacheControl' | 'response'> & { params?: Route['params']; needsBuild?: boolean; free?: true; paramRules?: Route['paramRules'] };

function operation(r: OperationSource): Record<string, unknown> {
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/^\/v1/, '').replace(/[{}]/g, '').replace(/[^a-zA-Z]+(.)/g, (_, c: string) => c.toUpperCase())}`,
    summary: r.summary,
    tags: [r.group],
    'x-plan': r.group === 'public' ? null : planFor(r.group),
    'x-cache-control': r.cacheControl,
    parameters: [
      ...(r.params ?? []).map((q) => ({ name: q.name, in: 'path', required: true, description: q.description, schema: paramSchema(q, true) })),
      ...(r.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required === true, description: q.description, schema: paramSchema(q, true) })),
    ],
    responses: {
      '200': { description: 'OK', headers: r.group === 'public' ? RATE_HEADERS : { ...RATE_HEADERS, ...QUOTA_HEADERS }, content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.response}` } } } },
      // A public route needs no key, yet a key sent in the query string is a 401 on every route (api/app.ts
      // refuseKeyInQuery), and any route answers 400 to a request node's parser or the Host check refuses, a public
      // data route to an unknown or malformed parameter too (h74fuzz: GET /v1/coverage/summary?zz=1 answered an
      // undeclared 400, GET /v1/health?key=... an undeclared 401).
      ...(r.group === 'public' ? { '400': ERROR_RESPONSES['400'], '401': ERROR_RESPONSES['401'], '429': ERROR_RESPONSES['429'] } : ERROR_RESPONSES),
      // Any path answers other methods with 405 and Allow.
      '405': { $ref: '#/components/responses/MethodNotAllowed' },
      // Any request whose target is over the URI limit (api/request.ts).
      '414': { $ref: '#/components/responses/UriTooLong' },
      // Any request: not received in time, headers over 16 KiB, an Expect other than 100-continue (api/app.ts).
      '408': { $ref: '#/components/responses/RequestTimeout' },
      '417': { $ref: '#/components/responses/ExpectationFailed' },
      '431': { $ref: '#/components/responses/HeadersTooLarge' },
      // A cacheable GET answers If-None-Match with 304 when its answer carries an ETag (shards, the regulations lookup;
      // the response's description names the live answers, which carry none).
      ...(r.method === 'GET' && !r.cacheControl.includes('no-store') ? { '304': { $ref: '#/components/responses/NotModified' } } : {}),
      // Any request with a body over 16 KiB, a GET's too (api/app.ts); 415 where a body is read.
      '413': { $ref: '#/components/responses/PayloadTooLarge' },
      ...(r.body ? { '415': { $ref: '#/components/responses/UnsupportedMediaType' } } : {}),
      // Any request: an unexpected failure (the message carries the request id).
      '500': { $ref: '#/components/responses/Internal' },
      // Data answers need a published build; the system routes (free) and account state (needsBuild false) do not.
      ...(!r.free && r.needsBuild !== false ? { '503': { $ref: '#/components/responses/ServiceUnavailable' } } : {}),
      // The time-boxed live answers (REII_LIVE_TIMEOUT_MS): past the budget, 504 upstream_timeout.
      ...(TIME_BOXED.has(r.path) ? { '504': { $ref: '#/components/responses/GatewayTimeout' } } : {}),
    },
  };
  if (r.group === 'public') op['security'] = [];
  // Query parameter dependencies (OpenAPI has no keyword for them): answered 400 "required" when one is missing,
  // 422 "conflict" when parameters that exclude each other are given together.
  if (r.paramRules) op['x-param-rules'] = r.paramRules;
  if (r.body) {
    op['requestBody'] = {
      required: true,
      // An optional property given as null is taken as absent (params.ts checkValue); an unknown property is a 400
      // naming the ones the route takes (request.ts unknownBodyFields).
      content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: r.body.filter((b) => b.required).map((b) => b.name), properties: Object.fromEntries(r.body.map((b) => [b.name, b.required ? { ...paramSchema(b), description: b.description } : { anyOf: [paramSchema(b), { type: 'null' }], description: b.description }])) } } },
    };
  }
  return op;
}

const problem = (description: string, headers: Record<string, unknown> = {}): Record<string, unknown> => ({ description, headers: { ...RATE_HEADERS, ...headers }, content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } });
const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of [...ROUTES, ...SYSTEM_ROUTES]) (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  patchWebhookPaths(paths); // issue 10: 201/202/204 answers
  patchExportPaths(paths); // issue 10: file answers (206, 304, 416)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Real Estate Investor Intelligence Service',
      version: '1.0.0',
      description: 'Market, legal, valuation and location-risk intelligence for US real-estate investors. Errors are {message, errors?}; 400 = missing or malformed, 422 = well-formed but not allowed, 404 = no data.',
      'x-plans': [...PLANS.values()].map((p) => ({ name: p.name, calls_per_month: p.callsPerMonth, requests_per_minute: p.requestsPerMinute, groups: [...p.groups].sort() })),
    },
    servers: [{ url: '/' }],
    security: [{ serviceKey: [] }],
    paths,
    webhooks: WEBHOOKS_OPENAPI, // issue 10: the events a webhook endpoint receives
    components: {
      securitySchemes: { serviceKey: { type: 'apiKey', in: 'header', name: 'X-Service-Key' } },
      schemas: { ...SCHEMAS, OpenApiDocument: OPENAPI_DOCUMENT_SCHEMA },
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed in the current minute ("unlimited" for unlimited keys); on the failed-key throttle\'s 429, the failures allowed per 10 minutes (Remaining and Reset then describe that window)', schema: { type: 'string' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current minute', schema: { type: 'string' } },
        'X-RateLimit-Reset': { description: 'Unix seconds (UTC) when the minute window resets', schema: { type: 'integer' } },
        'X-Quota-Limit': { description: 'Calls allowed this calendar month (UTC)', schema: { type: 'string' } },
        'X-Quota-Remaining': { description: 'Calls left this month (2xx answers count)', schema: { type: 'string' } },
        'X-Quota-Reset': { description: 'Unix seconds of 00:00 UTC on the 1st of next month', schema: { type: 'integer' } },
        'X-Request-Id': { description: 'Request id, also in the access log', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
        Allow: { description: 'The methods this path answers', schema: { type: 'string' } },
      },
      responses: {
        BadRequest: problem('A required parameter is missing, a value is malformed, or a query parameter is one the endpoint does not take (code unknown)'),
        Unauthorized: problem('Key missing, invalid or revoked'),
        Forbidden: problem('The key\'s plan does not include this endpoint; the message names the plan needed'),
        NotFound: problem('Valid request, no data'),
        Unprocessable: problem('Well-formed but not allowed'),
        TooManyRequests: problem('Per-minute limit, monthly quota or failed-key throttle exceeded; see Retry-After. A caller refused again before the Retry-After of its previous 429 ran out gets this answer after a hold of 1 s (REII_REFUSAL_HOLD_MS)', RETRY_AFTER),
        MethodNotAllowed: problem('This method is not answered on this path; Allow lists the methods that are', { Allow: { $ref: '#/components/headers/Allow' } }),
        PayloadTooLarge: problem('The request body is over 16 KiB'),
        UriTooLong: problem('The request URI (path and query) is longer than the server reads'),
        UnsupportedMediaType: problem('The body is not sent as application/json'),
        NotModified: { description: 'Not modified: If-None-Match named the ETag of the current answer (no body). Shard answers and the regulations lookup carry an ETag; live answers (autocomplete, property, a lat/lng location risk, the scorecard) carry none and are never 304', headers: { ...RATE_HEADERS, ETag: { schema: { type: 'string' } } } },
        RequestTimeout: problem('The request was not received within REII_REQUEST_TIMEOUT_MS; the connection is closed'),
        ExpectationFailed: problem('An Expect header other than exactly 100-continue; the connection is closed'),
        HeadersTooLarge: problem('The request headers are over 16 KiB'),
        Internal: problem('Unexpected failure; retry with exponential backoff (the message names the request id)'),
        ServiceUnavailable: problem('No data build has been published yet; see Retry-After', RETRY_AFTER),
        GatewayTimeout: problem('The answer took longer than its budget (REII_LIVE_TIMEOUT_MS, 5000 ms by default); retry with a different set of query parameters, after Retry-After (code upstream_timeout)', RETRY_AFTER),
        StoreUnavailable: problem('The webhook state store (Redis with REII_REDIS_URL, else state.db) is unavailable for now; see Retry-After', RETRY_AFTER),
      },
    },
  };
}
