// The query string of a request: its parameters by name (api/request.ts checks them against the route), a key sent in
// it (401 on every route, those that read no query too), percent-escapes that are no UTF-8 text (400), and parameters
// separated by `;` instead of `&` (400).
//
// `;` as the separator (`?city=Seattle;state=WA`): URLSearchParams reads one parameter, city "Seattle;state=WA", and
// the answer was about that (a 400 "state is required", a zip "not 5 digits"), never about the separator. Such a query
// is a 400 that says so, on every endpoint that takes query parameters: a literal `;` (not `%3B`, which is a `;` meant
// inside a value) followed by a parameter name the endpoint takes and `=`.
import { HttpError, type FieldError } from './errors.ts';
import type { ParamSpec } from './params.ts';

const KEY_PARAMS = new Set(['key', 'api_key', 'apikey', 'token', 'access_token', 'x-service-key', 'service_key']);

/** 400 for a query whose percent-encoding is no UTF-8 text (city=%E0%A4%A, address=%C3%28), naming the parameter
 *  (code format): URLSearchParams would read it as replacement characters, a changed address. (A raw byte over 0x7F in
 *  the target never gets here: Node's HTTP parser refuses the request, a 400 "Malformed HTTP request".) */
export function checkQueryEncoding(rawUrl: string): void {
  const q = rawUrl.indexOf('?');
  if (q < 0 || rawUrl.indexOf('%', q) < 0) return;
  for (const part of rawUrl.slice(q + 1).split(/[&#]/)) {
    if (!part.includes('%')) continue;
    try { decodeURIComponent(part.replace(/\+/g, ' ')); } catch {
      const rawName = part.split('=')[0]!.slice(0, 60);
      let name = rawName;
      try { name = decodeURIComponent(rawName.replace(/\+/g, ' ')); } catch { /* the name itself is undecodable: shown as sent */ }
      const why = /%(?![0-9A-Fa-f]{2})/.test(part) ? 'has a % not followed by two hex digits' : 'is not UTF-8 text: its percent-escapes decode to no character';
      throw new HttpError('bad_request', `The query has malformed percent-encoding: ${part.slice(0, 60)}`,
        { errors: [{ field: name, code: 'format', message: `${name} ${why}; percent-encode the UTF-8 bytes of the text` }] });
    }
  }
}

/** 401 for an API key sent in the query string, whatever else the query holds: read from the raw target, so a route
 *  that reads no query (the docs, the OpenAPI document, health, usage) refuses it too, a malformed escape beside it
 *  ignored (a name whose escape is broken is compared as sent). */
export function refuseKeyInQuery(rawUrl: string): void {
  const q = rawUrl.indexOf('?');
  if (q < 0) return;
  const h = rawUrl.indexOf('#', q);
  for (const part of rawUrl.slice(q + 1, h < 0 ? undefined : h).split('&')) {
    const raw = part.split('=', 1)[0]!.replace(/\+/g, ' ');
    let name = raw;
    try { name = decodeURIComponent(raw); } catch { /* compared as sent */ }
    if (KEY_PARAMS.has(name.toLowerCase())) throw keyInQuery(name);
  }
}
const keyInQuery = (name: string): HttpError => new HttpError('key_in_query', undefined, { errors: [{ field: name, code: 'key_in_query', message: 'send the key in the X-Service-Key header, never in the URL' }] });

/** The query parameters by name (a repeated one as a list); a key sent in the URL is refused. */
export function readQuery(searchParams: URLSearchParams, rawUrl: string): Record<string, unknown> {
  checkQueryEncoding(rawUrl);
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // no inherited names: ?constructor=x is a plain parameter
  for (const [name, v] of searchParams) {
    if (KEY_PARAMS.has(name.toLowerCase())) throw keyInQuery(name);
    query[name] = name in query ? [query[name], v] : v;
  }
  return query;
}

const decoded = (s: string): string => {
  try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; }
};
const shown = (s: string): string => (s.length > 80 ? `${s.slice(0, 80)}...` : s);

/** The 400 of a query that separates the parameters the route takes with `;`, or null. */
export function semicolonSeparated(specs: readonly ParamSpec[], rawUrl: string): FieldError | null {
  const q = rawUrl.indexOf('?');
  if (q < 0 || specs.length === 0 || rawUrl.indexOf(';', q) < 0) return null;
  const h = rawUrl.indexOf('#', q);
  const names = new Set(specs.map((s) => s.name));
  for (const part of rawUrl.slice(q + 1, h < 0 ? undefined : h).split('&')) {
    const pieces = part.split(';');
    const next = pieces.slice(1).map((p) => decoded(p.split('=', 1)[0]!));
    if (!pieces.slice(1).some((p, i) => p.includes('=') && names.has(next[i]!))) continue;
    const field = decoded(pieces[0]!.split('=', 1)[0]!);
    const meant = pieces.map(decoded).join('&');
    const message = `query parameters are separated by &, not ;: "${shown(decoded(part))}" is read as one parameter, ${field}; send ${shown(meant)}`;
    return { field, code: 'format', message };
  }
  return null;
}
