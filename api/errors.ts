// The one error body of the API: {message, errors?}, errors[] = {field, code, message} (DESIGN.md "Errors").
// Every error the server sends is made here, its status the catalog's (no other status is sent for an error: the
// /docs page's table and the OpenAPI document's responses are checked against this catalog, test/api/error-catalog.test.ts);
// the catalog below is mirrored in README.md ("Errors").
import type { FieldError } from '../warehouse/live.ts';

export type { FieldError };

export const ERRORS = {
  bad_request: { status: 400, message: 'The request is malformed' },
  validation_failed: { status: 422, message: 'Parameters failed validation' },
  key_missing: { status: 401, message: 'Send your API key in the X-Service-Key header' },
  key_invalid: { status: 401, message: 'The API key is not valid' },
  key_revoked: { status: 401, message: 'The API key has been revoked' },
  key_in_query: { status: 401, message: 'API keys are not accepted in the query string: send the key in the X-Service-Key header' },
  plan_required: { status: 403, message: 'Your plan does not include this endpoint' },
  not_found: { status: 404, message: 'No such endpoint' },
  no_data: { status: 404, message: 'No data for this request' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  request_timeout: { status: 408, message: 'The request was not received in time' },
  body_too_large: { status: 413, message: 'The request body is too large' },
  uri_too_long: { status: 414, message: 'The request URI is too long' },
  unsupported_media_type: { status: 415, message: 'Send the body as application/json' },
  range_not_satisfiable: { status: 416, message: 'The Range asked for is not within the file' },
  expectation_failed: { status: 417, message: 'Only Expect: 100-continue is supported' },
  headers_too_large: { status: 431, message: 'Request headers too large' },
  rate_limited: { status: 429, message: 'Per-minute rate limit exceeded' },
  quota_exceeded: { status: 429, message: 'Monthly quota used up' },
  auth_throttled: { status: 429, message: 'Too many failed authentication attempts from this address' },
  internal: { status: 500, message: 'Unexpected failure; retry with exponential backoff' },
  no_build: { status: 503, message: 'No data build has been published yet' },
  store_unavailable: { status: 503, message: 'The webhook state store is unavailable; retry after Retry-After' },
  upstream_timeout: { status: 504, message: 'The answer took too long; retry with a different set of query parameters' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message?: string, opts: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    // an answer to the client, not a fault: no stack trace is captured (it cost 20-45 us a 404, h19loc's profile)
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message ?? ERRORS[code].message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.status = ERRORS[code].status;
    this.errors = opts.errors;
    this.headers = opts.headers ?? {};
  }

  body(): { message: string; errors?: FieldError[] } {
    return this.errors?.length ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

/** The field codes of a missing or malformed value (400); any other code is a well-formed value that failed (422). */
const MALFORMED = new Set(['required', 'type', 'format', 'json', 'unknown', 'object', 'duplicate']);

/** 400 when any failure is a missing or malformed value, else 422 (DESIGN.md's split). */
export function validationError(errors: FieldError[]): HttpError {
  const malformed = errors.some((e) => MALFORMED.has(e.code));
  const what = errors.map((e) => e.message).join('; ');
  return malformed
    ? new HttpError('bad_request', `Bad request: ${what}`, { errors })
    : new HttpError('validation_failed', `Validation failed: ${what}`, { errors });
}
