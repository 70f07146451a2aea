// What a request asks, read and checked against its route: the target (path and query, 414 / 400), the
// query parameters (api/query.ts: never a key, 401), the JSON body (415 / 413 / 400) and the values every parameter
// yields after its own rule and the route's cross-field rules (400 / 422, api/params.ts).
import { isUtf8 } from 'node:buffer';
import type http from 'node:http';
import { HttpError, validationError, type FieldError } from './errors.ts';
import { checkAll, type ParamSpec } from './params.ts';
import { cityWithState, stateRequired } from './city-state.ts';
import { semicolonSeparated } from './query.ts';
import type { LoadedBuild } from './builds.ts';
import type { Route, Values } from './route.ts';

export const MAX_BODY_BYTES = 16 * 1024;
export const MAX_URL_BYTES = 4096;

export interface Target { readonly pathname: string; readonly searchParams: URLSearchParams }

/** An origin-form target: the query is parsed when first asked for (a shard target answered before never asks). */
class OriginTarget implements Target {
  private params: URLSearchParams | null = null;
  constructor(readonly pathname: string, private readonly search: string) {}
  get searchParams(): URLSearchParams {
    return (this.params ??= new URLSearchParams(this.search));
  }
}

/** The path and query of a request target; absolute-form targets go through URL. */
function parseTarget(raw: string): Target {
  if (!raw.startsWith('/')) {
    const u = new URL(raw, 'http://localhost');
    return { pathname: u.pathname, searchParams: u.searchParams };
  }
  const q = raw.indexOf('?');
  const h = raw.indexOf('#');
  const end = h < 0 ? raw.length : h;
  return q < 0 || q > end ? new OriginTarget(raw.slice(0, end), '') : new OriginTarget(raw.slice(0, q), raw.slice(q + 1, end));
}

/** The request's target: 414 when too long, 400 when malformed. */
export function readTarget(req: http.IncomingMessage): Target {
  const rawUrl = req.url ?? '/';
  if (rawUrl.length > MAX_URL_BYTES) throw new HttpError('uri_too_long', `The request URI is longer than ${MAX_URL_BYTES} bytes`);
  try {
    return parseTarget(rawUrl);
  } catch {
    throw new HttpError('bad_request', 'The request URI is malformed');
  }
}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) { reject(new HttpError('body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`)); return; }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        reject(new HttpError('body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // a body cut off (the client closed, or node's parser refused a broken chunk and answered the 400 itself) is the
    // client's fault, not an unexpected failure: it was logged as an error "aborted" with no answer (h74fuzz)
    req.on('error', () => reject(new HttpError('bad_request', 'The request body ended before it was complete (the connection closed, or a chunk was malformed)')));
  });
}

/** A request body's media type (no parameters) and content coding, lower case ('' when not sent). */
const mediaType = (req: http.IncomingMessage): string => String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
const contentCoding = (req: http.IncomingMessage): string => String(req.headers['content-encoding'] ?? '').trim().toLowerCase();

/** The body as a JSON object: 415 unless sent as application/json, 413 past MAX_BODY_BYTES, 400 unless an object. */
async function readJsonBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const type = mediaType(req);
  if (type !== 'application/json') throw new HttpError('unsupported_media_type', `Send the body as application/json (got ${type || 'no Content-Type'})`);
  // A compressed body would be read as plain JSON (or fail as invalid JSON): refuse any coding but identity
  // (RFC 9110 15.5.16: 415 for an unsupported content coding).
  const coding = contentCoding(req);
  if (coding !== '' && coding !== 'identity') throw new HttpError('unsupported_media_type', `Content-Encoding ${coding.slice(0, 40)} is not supported: send the body uncompressed`);
  const raw = await readBody(req);
  if (!isUtf8(raw)) throw notUtf8(raw);
  // a UTF-8 byte order mark before the JSON (some Windows clients write one) is no part of the text: RFC 8259 8.1
  // lets a parser ignore it, and JSON.parse refused it as "not valid JSON" (review h67)
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError('bad_request', 'The body is not valid JSON', { errors: [{ field: 'body', code: 'json', message: 'the body is not valid JSON' }] });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError('bad_request', 'The body must be a JSON object', { errors: [{ field: 'body', code: 'type', message: 'the body must be a JSON object' }] });
  }
  // JSON.parse keeps the last of two equal keys ({"sqft":1800,"sqft":900} read 900): refused, as a repeated query parameter is
  const twice = duplicateKey(text);
  if (twice !== null) throw new HttpError('bad_request', `Bad request: ${twice} is sent twice in the body; send each field once`, { errors: [{ field: twice, code: 'duplicate', message: `${twice} is sent twice in the body` }] });
  return parsed as Record<string, unknown>;
}

/** 400 for a body that is no UTF-8 text (a raw 0xFF, a C3 28 pair): decoding would put U+FFFD in place of the bytes
 *  and an address would be valued as so changed. Names the body field whose string holds the first bad byte
 *  ("address", "context.city"), else the body; code json (RFC 8259: JSON between systems is UTF-8). */
function notUtf8(raw: Buffer): HttpError {
  const at = firstNonUtf8(raw);
  const text = raw.subarray(0, at).toString('utf8');
  const mark = '\uE000'; // a private-use character the body's own text may hold: then no field is named
  const field = text.includes(mark) ? null : fieldHolding(`${text}${mark}${raw.subarray(at + 1).toString('utf8')}`, mark);
  const where = field ?? 'body';
  const message = `${where} is not UTF-8 text (byte 0x${raw[at]!.toString(16).toUpperCase().padStart(2, '0')} at offset ${at} of the body): send the body encoded as UTF-8`;
  return new HttpError('bad_request', `Bad request: ${message}`, { errors: [{ field: where, code: 'json', message }] });
}

/** The offset of the first byte that starts no well-formed UTF-8 sequence (RFC 3629: no overlong form, surrogate or
 *  code point over U+10FFFF), or the length when there is none. */
function firstNonUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    // the second byte's range narrows after E0 (no overlong), ED (no surrogate), F0 (no overlong), F4 (<= U+10FFFF)
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80, hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || x < (k === 1 ? lo : 0x80) || x > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return i;
}

/** The dotted name of the body field whose string value holds `mark` ("address", "context.city"; an array's item is
 *  named by its array), or null when no value does (the mark outside a string, in a key, or the text no JSON). Walks
 *  with a stack of its own, in document order: a body nested thousands deep (16 KiB of `[`) overflowed the call stack,
 *  a 500 (review h71's sweep). The mark is in the text once, so a key holding it means no value does. */
function fieldHolding(text: string, mark: string): string | null {
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { return null; }
  const todo: [unknown, string][] = [[parsed, '']];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [v, name] = next;
    if (typeof v === 'string') { if (v.includes(mark) && name) return name; continue; }
    if (v === null || typeof v !== 'object') continue;
    const entries = Object.entries(v);
    if (entries.some(([k]) => k.includes(mark))) return null;
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      todo.push([x, Array.isArray(v) ? name : name ? `${name}.${k}` : k]);
    }
  }
  return null;
}

/** The first key an object of a valid JSON text holds twice, as a dotted name ("sqft", "context.zip"); null when none. */
export function duplicateKey(text: string): string | null {
  // one frame per open object or array: the keys seen, the last key (the name of a value opened under it)
  const stack: { keys: Set<string> | null; name: string; last: string; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      const name = top ? (top.keys ? `${top.name}${top.last}.` : top.name) : '';
      stack.push({ keys: c === '{' ? new Set() : null, name, last: '', expectKey: c === '{' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.keys) top.expectKey = true;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return `${top.name}${key}`;
        top.keys.add(key);
        top.last = key;
        top.expectKey = false;
      }
      i = j;
    }
  }
  return null;
}

/** A query parameter the route does not take is a 400 naming it and the ones it takes (review 15 #5: `month=12`
 *  or `MONTHS=3` was ignored and the default window answered as if asked for). Names are exact (case-sensitive). */
export function unknownParams(route: Route, query: Record<string, unknown>): FieldError[] {
  return unknownNames(route.query ?? [], query, 'query parameter', 'query parameters');
}

/** A field of a POST body the route does not take, top level or inside an object field ("context.zipcode"), is a 400
 *  naming it and the fields it takes, as an unknown query parameter is (review: {"property_type": "condo"} was
 *  valued as the record's sfr with a 200 and nothing said). Names are exact (case-sensitive). */
export function unknownBodyFields(specs: readonly ParamSpec[], body: Record<string, unknown>, prefix = ''): FieldError[] {
  const errors = unknownNames(specs, body, 'body field', 'body fields', prefix);
  for (const spec of specs) {
    const v = body[spec.name];
    if (spec.type === 'object' && spec.properties && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      errors.push(...unknownBodyFields(spec.properties, v as Record<string, unknown>, `${prefix}${spec.name}.`));
    }
  }
  return errors;
}

function unknownNames(specs: readonly ParamSpec[], given: Record<string, unknown>, what: string, whats: string, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  for (const name in given) {
    if (specs.some((s) => s.name === name)) continue;
    const full = prefix + name;
    const shown = full.length > 60 ? `${full.slice(0, 60)}...` : full;
    const near = specs.find((s) => s.name.toLowerCase() === name.toLowerCase() || s.name === `${name}s` || `${s.name}s` === name);
    const where = prefix ? `${prefix.slice(0, -1)} takes` : 'this endpoint takes';
    const allowed = specs.length ? `${where} ${specs.map((s) => s.name).join(', ')}` : `${where} no ${whats}`;
    errors.push({ field: shown, code: 'unknown', message: `unknown ${what} "${shown}"${near ? ` (did you mean ${prefix}${near.name}?)` : ''}; ${allowed}` });
  }
  return errors;
}

/** A POST route that takes no body (POST /v1/webhooks/{id}/test): a JSON object sent with fields is a 400 naming them
 *  (none is read); an empty body, `{}`, a body that is not JSON or not sent as application/json stays ignored, as before. */
function bodyFieldsOfBodyless(req: http.IncomingMessage): Promise<FieldError[]> | null {
  const coding = contentCoding(req);
  if (mediaType(req) !== 'application/json' || (coding !== '' && coding !== 'identity')) return null;
  if (Number(req.headers['content-length'] ?? 0) === 0 && req.headers['transfer-encoding'] === undefined) return null;
  return readBodyFields(req);
}
async function readBodyFields(req: http.IncomingMessage): Promise<FieldError[]> {
  let parsed: unknown;
  const raw = await readBody(req); // over 16 KiB: 413 as on every route (a 1 MB chunked body was dropped and the route answered)
  try { parsed = JSON.parse(raw.toString('utf8')); } catch { return []; } // not JSON: ignored, as before
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? unknownBodyFields([], parsed as Record<string, unknown>) : [];
}

/** The route's values from the query, the path and (for a POST with a body) the JSON body, every failure
 *  at once. Answers without waiting unless there is a body to read. */
export function readValues(route: Route, asked: Record<string, unknown>, params: Record<string, string>, req: http.IncomingMessage, build: LoadedBuild | null = null): Values | Promise<Values> {
  // `?city=Seattle;state=WA`: the separator is named alone (the other failures are of the one parameter it makes)
  const semicolon = semicolonSeparated(route.query ?? [], req.url ?? '');
  if (semicolon) throw validationError([semicolon]);
  // a city written with its state ("Seattle, WA"): the city, or a 422 when the state contradicts `state`
  const { query, errors: cityErrors } = cityWithState(route.query ?? [], asked);
  const checked = checkAll(route.query ?? [], query, true);
  const pathChecked = checkAll(route.params ?? [], params, true);
  const values = { ...checked.values, ...pathChecked.values } as Values;
  // a city sent without its state: the 400 names the states it is a city of
  const errors = [...pathChecked.errors, ...unknownParams(route, query), ...cityErrors, ...stateRequired(build, checked.errors, query)];
  const finish = (all: Values): Values => {
    if (errors.length === 0 && route.check) errors.push(...stateRequired(build, route.check(all), query)); // trends: a city without its state too
    if (errors.length) throw validationError(errors);
    return all;
  };
  if (route.method !== 'POST') return finish(values);
  const body = route.body;
  const bodyless = body ? null : bodyFieldsOfBodyless(req);
  if (!body) return bodyless ? bodyless.then((unknown) => { errors.push(...unknown); return finish(values); }) : finish(values);
  return readJsonBody(req).then((parsed) => {
    const fromBody = checkAll(body, parsed, false);
    errors.push(...unknownBodyFields(body, parsed), ...fromBody.errors);
    return finish({ ...values, ...fromBody.values });
  });
}
