// HTTP details of `reii sources pull` (pull.ts): the retry policy (exponential backoff with jitter, Retry-After
// honoured up to 2 minutes), which errors a retry cannot fix, header parsing, and the wording of errors and statuses
// in the report and the log.

export interface RetryConfig {
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
}

const MAX_RETRY_AFTER_MS = 120_000;

export function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

export function parseContentRange(v: string | undefined): { start: number; end: number; total: number | null } | null {
  const m = v ? /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(v.trim()) : null;
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

/** Retry-After in ms (delta seconds or an HTTP date), or null. */
export function parseRetryAfter(v: string | undefined, now = Date.now()): number | null {
  if (!v) return null;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

export function delayFor(attempt: number, retryAfterMs: number | null, cfg: RetryConfig): number {
  const exp = Math.min(cfg.maxBackoffMs, cfg.backoffMs * 2 ** (attempt - 1));
  const jittered = Math.round(exp / 2 + Math.random() * (exp / 2));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// Errors that retrying cannot fix: bad arguments, local disk trouble, a name that does not resolve.
const FATAL_CODES = new Set([
  'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_URL', 'UND_ERR_HEADERS_OVERFLOW',
  'ENOSPC', 'EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ENOTDIR', 'EDQUOT', 'EMFILE', 'ENOTFOUND',
]);

export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return !(typeof code === 'string' && FATAL_CODES.has(code));
}

export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const cause = err.cause instanceof Error ? err.cause : null;
  const causeCode = cause ? (cause as NodeJS.ErrnoException).code : undefined;
  const what: Record<string, string> = {
    UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
    UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response headers',
    UND_ERR_BODY_TIMEOUT: 'timed out waiting for body data',
    UND_ERR_SOCKET: 'connection closed by the server',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'body shorter than its Content-Length',
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
  };
  const c = code && what[code] ? code : causeCode && what[causeCode] ? causeCode : null;
  if (c) {
    const host = (err as { hostname?: unknown }).hostname ?? (cause as { hostname?: unknown } | null)?.hostname;
    return `${what[c]}${typeof host === 'string' ? ` ${host}` : ''} (${c})`;
  }
  const msg = err.message || cause?.message || 'error';
  return code ? `${msg} (${code})` : msg;
}

export function reason(status: number): string {
  const r: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 410: 'Gone', 429: 'Too Many Requests',
    500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  return r[status] ? ` ${r[status]}` : '';
}
