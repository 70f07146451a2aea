// Hostile and malformed requests over every route the server's own OpenAPI document publishes, sent as raw HTTP on a
// socket (so nothing is normalised by a client library): each parameter missing, empty, repeated, 10k long, of the
// wrong type, numbers at their edges, unicode and control characters, broken percent-escapes, traversal in path
// parameters, unknown parameters, every other method, bodies that are no JSON, of the wrong shape, nested 10k deep,
// over the limit, of the wrong content type, and hostile headers. The rule checked is the ground rule of DESIGN.md
// "Errors": never a 5xx, a status the operation declares, the error body of the contract whose message names the
// parameter or the problem, and the server answering a good request afterwards. The draws that vary (the unicode
// and junk values) come from a seeded generator, so a failure repeats. Client-side socket timeouts only.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';

interface Param { name: string; in: 'query' | 'path' | 'header'; required: boolean; schema: Record<string, unknown> }
interface Operation { parameters?: Param[]; requestBody?: unknown; responses: Record<string, unknown>; 'x-param-rules'?: { oneOf?: string[][]; requires?: Record<string, string[]> } }
interface Doc { paths: Record<string, Record<string, Operation>> }
interface Reply { status: number; headers: Record<string, string>; body: string }

let srv: TestServer;
let doc: Doc;
let key: string;
let port: number;

beforeAll(async () => {
  srv = await startTestServer(artifactsDir(), { anonymous: { requestsPerMinute: 1_000_000, failedAuthPer10Min: 1_000_000 } });
  key = srv.key('enterprise');
  port = Number(new URL(srv.url).port);
  doc = (await (await srv.get('/v1/openapi.json')).json()) as Doc;
});
afterAll(async () => {
  await srv.close();
  removeTmpDirs();
});

/** One raw request on its own connection; the reply read to the server's close (or a 30 s client-side give-up). */
function raw(request: string | Buffer, opts: { head?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    sock.setTimeout(30_000, () => { sock.destroy(); reject(new Error('no answer within 30 s (hang)')); });
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', () => {});
    sock.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) { reject(new Error(`no HTTP answer (connection closed after ${all.length} bytes)`)); return; }
      const lines = all.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(lines[0]!.split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) { const i = l.indexOf(':'); headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim(); }
      let body: Buffer = all.subarray(end + 4);
      if (opts.head) body = Buffer.alloc(0);
      else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
      resolve({ status, headers, body: body.toString('utf8') });
    });
    sock.write(request);
  });
}

function unchunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', at);
    if (eol < 0) break;
    const n = parseInt(b.subarray(at, eol).toString('latin1'), 16);
    if (!n) break;
    out.push(b.subarray(eol + 2, eol + 2 + n));
    at = eol + 2 + n + 2;
  }
  return Buffer.concat(out);
}

function request(method: string, target: string, opts: { headers?: string[]; body?: string | Buffer; keyed?: boolean } = {}): Buffer {
  const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
  const head = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close',
    ...(opts.keyed === false ? [] : [`X-Service-Key: ${key}`]),
    ...(body ? [`Content-Length: ${body.length}`] : []),
    ...(opts.headers ?? [])];
  return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), body ?? Buffer.alloc(0)]);
}

/** A small seeded generator (mulberry32): the same junk every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = seeded(74);
const JUNK_CHARS = ['a', 'Z', '9', ' ', 'é', 'ß', '東', '京', '😀', '\u200f', '\u202e', '\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\ufeff', '\ud800', "'", '"', ';', '%', '&', '=', '<', '>', '\\', '/', '\n', '\t'];
function junk(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += JUNK_CHARS[Math.floor(rand() * JUNK_CHARS.length)];
  return s;
}
/** Percent-encodes a JS string as UTF-8, lone surrogates included (as their CESU bytes: no UTF-8 text). */
function pct(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) { out += '%ED%' + (0xa0 | ((cp >> 6) & 0x1f)).toString(16).toUpperCase() + '%' + (0x80 | (cp & 0x3f)).toString(16).toUpperCase(); continue; }
    out += /[A-Za-z0-9\-_.~]/.test(ch) ? ch : [...Buffer.from(ch, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
  }
  return out;
}

const exampleOf = (p: Param): string => {
  const ex = (p.schema['examples'] as unknown[] | undefined)?.[0] ?? (p.schema['enum'] as unknown[] | undefined)?.[0];
  return Array.isArray(ex) ? ex.join(',') : String(ex);
};

/** The good query of an operation: its required parameters and the first group its rules ask for, at their examples. */
function goodQuery(op: Operation): Map<string, string> {
  const q = new Map<string, string>();
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  for (const p of params) if (p.required) q.set(p.name, exampleOf(p));
  const rules = op['x-param-rules'];
  const first = rules?.oneOf?.[0] ?? [];
  for (const n of [...first, ...first.flatMap((x) => rules?.requires?.[x] ?? [])]) q.set(n, exampleOf(params.find((p) => p.name === n)!));
  return q;
}
const goodPath = (path: string, op: Operation): string => path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(exampleOf(op.parameters!.find((p) => p.name === n)!)));
const qs = (pairs: [string, string?][]): string => (pairs.length ? '?' + pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&') : '');

const GOOD_BODIES: Record<string, string> = {
  '/v1/valuation/estimate': JSON.stringify({ zip: '98103', address: '1301 2nd Ave' }),
  '/v1/research/query': JSON.stringify({ query: 'eviction notice period in Washington' }),
  '/v1/webhooks': JSON.stringify({ url: 'https://hooks.example.com/reii', events: ['build.published'] }),
  '/v1/webhooks/{id}/test': '{}',
};

/** Whether the operation's answer of this status is JSON (the export files are not). */
function declaresJson(op: Operation, status: number): boolean {
  const resp = op.responses[String(status)] as { content?: Record<string, unknown> } | undefined;
  return !resp?.content || 'application/json' in resp.content;
}

/** The checks of every hostile answer; returns what is wrong, '' when nothing. */
function problem(what: string, r: Reply, op: Operation | undefined, opts: { names?: string; head?: boolean } = {}): string {
  const fail = (why: string): string => `${what} -> ${r.status} ${why}: ${r.body.slice(0, 200)}`;
  if (!(r.status >= 200 && r.status < 500)) return fail('not 2xx-4xx');
  if (op && !(String(r.status) in op.responses) && r.status !== 405) return fail('a status the operation does not declare');
  if (r.status === 204 || opts.head || r.status === 304) return '';
  if (r.status < 300 && op && !declaresJson(op, r.status)) return '';
  if (!/^application\/json/.test(r.headers['content-type'] ?? '')) return fail(`content-type ${r.headers['content-type']}`);
  let body: { message?: unknown; errors?: { field: string; code: string; message: string }[] };
  try { body = JSON.parse(r.body) as typeof body; } catch { return fail('body no JSON'); }
  if (r.status < 400) return '';
  if (typeof body.message !== 'string' || !body.message) return fail('no message');
  if (r.status === 405 && !r.headers['allow']) return fail('405 without Allow');
  if ((r.status === 400 || r.status === 422) && opts.names) {
    const named = body.message.includes(opts.names) || (body.errors ?? []).some((e) => e.field === opts.names || e.field.startsWith(opts.names + '.'));
    if (!named) return fail(`message does not name ${opts.names}`);
  }
  return '';
}

const operations = (): [string, string, Operation][] => Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms).map(([m, op]) => [p, m.toUpperCase(), op] as [string, string, Operation]));

/** After a group of hostile requests: health and each GET route's good request still answer. */
async function stillAnswers(): Promise<string[]> {
  const out: string[] = [];
  for (const [path, method, op] of operations()) {
    if (method !== 'GET') continue;
    const t = goodPath(path, op) + qs([...goodQuery(op).entries()].map(([k, v]) => [k, encodeURIComponent(v)]));
    const r = await raw(request('GET', t)).catch(lost);
    if (r.status !== 200) out.push(`GET ${t} after the sweep -> ${r.status} ${r.body.slice(0, 120)}`);
  }
  return out;
}

// Values for a query parameter: what is sent and whether the parameter must then be named by a 4xx.
const NUMBERS = ['-1', '0', '-0', '99999999999999999999999', '1e309', '-1e309', 'NaN', 'Infinity', '-Infinity', '0x10', '1.5', '1e3', '+5', '%2B5', '%205', '5%20', '1_000', '1,000', 'true', 'abc'];
const ESCAPES = ['%zz', '%', '%0', '%00', '%C0%AE', '%C0%80', '%E0%80%AF', '%ED%A0%80', '%F8%88%80%80%80', '%FF', '%C3%28', 'a%00b', '%E2%80%8F', '%7F', '%C2%85', '%EF%BB%BF'];
// line breaks are text (a question may span lines): trimmed, never a 400, never a header of the answer
const UNICODE = ['%0D%0AX-Injected:%201', 'Z%C3%BCrich', '%E6%9D%B1%E4%BA%AC', '%F0%9F%98%80', 'a%CC%81', '%EF%BC%A1%EF%BC%A2'];

describe('h74 fuzz: every query parameter of every route', () => {
  test('missing, empty, repeated, over-long, wrong type, edge numbers, unicode, control characters and broken escapes: never 5xx, the parameter named', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const [path, method, op] of operations()) {
      const target = goodPath(path, op);
      const good = goodQuery(op);
      const body = method === 'POST' ? GOOD_BODIES[path] : undefined;
      const headers = body ? ['Content-Type: application/json'] : [];
      const send = async (what: string, pairs: [string, string?][], names?: string, refused = false): Promise<void> => {
        sent++;
        const t = target + qs(pairs);
        try {
          const r = await raw(request(method, t, { headers, body }));
          const p = problem(`${method} ${t.slice(0, 160)}`, r, op, { names });
          if (p) failures.push(`${what}: ${p}`);
          else if (r.headers['x-injected'] !== undefined) failures.push(`${what}: ${method} ${t.slice(0, 160)} -> a header injected`);
          else if (refused && r.status !== 400) failures.push(`${what}: ${method} ${t.slice(0, 160)} -> ${r.status}, not 400`);
        } catch (e) { failures.push(`${what}: ${method} ${t.slice(0, 160)} -> ${(e as Error).message}`); }
      };
      const params = (op.parameters ?? []).filter((p) => p.in === 'query');
      const base = (): [string, string?][] => [...good.entries()].map(([k, v]) => [k, encodeURIComponent(v)]);
      const others = (name: string): [string, string?][] => base().filter(([k]) => k !== name);
      for (const p of params) {
        if (p.required) await send('missing', others(p.name), p.name, true);
        await send('empty', [...others(p.name), [p.name, '']], p.name, true);
        await send('blank', [...others(p.name), [p.name, '%20%20']], p.name, true);
        await send('repeated', [...others(p.name), [p.name, encodeURIComponent(good.get(p.name) ?? exampleOf(p))], [p.name, '2']], p.name, true);
        await send('over-long 10k', [...others(p.name), [p.name, 'a'.repeat(10_000)]]);
        await send('over-long 3k', [...others(p.name), [p.name, 'a'.repeat(3_000)]]);
        for (const v of [...NUMBERS, ...UNICODE]) await send(`value ${v}`, [...others(p.name), [p.name, v]], p.name);
        for (const v of ESCAPES) await send(`escape ${v}`, [...others(p.name), [p.name, v]], p.name, true);
        for (let i = 0; i < 6; i++) await send('seeded junk', [...others(p.name), [p.name, pct(junk(1 + Math.floor(rand() * 40)))]], p.name);
        await send('bare name', [...others(p.name), [p.name]], p.name, true);
      }
      await send('unknown parameter', [...base(), ['zz_unknown', '1']], 'zz_unknown', !free(path));
      await send('unknown parameter, broken escape in its name', [...base(), ['%zz', '1']]);
      await send('semicolon separator', [[base().map(([k, v]) => `${k}=${v}`).join(';'), '1']]);
      await send('key in the query', [...base(), ['key', key]]);
    }
    failures.push(...await stillAnswers());
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 900_000);
});

const lost = (e: Error): Reply => ({ status: 0, headers: {}, body: e.message });
/** The routes that read no query and ignore any (README "Errors": /v1/health, /v1/openapi.json, /v1/usage). */
const free = (path: string): boolean => ['/v1/health', '/v1/openapi.json', '/v1/usage'].includes(path);
const allowedOf = (path: string): string[] => Object.keys(doc.paths[path]!).map((m) => m.toUpperCase());

describe('h74 fuzz: methods, path parameters, bodies and headers', () => {
  test('every other method on every path: 405 naming the methods allowed, OPTIONS 204, HEAD answered like GET without a body', async () => {
    const failures: string[] = [];
    for (const path of Object.keys(doc.paths)) {
      const op0 = Object.values(doc.paths[path]!)[0]!;
      const target = goodPath(path, op0) + qs([...goodQuery(op0).entries()].map(([k, v]) => [k, encodeURIComponent(v)]));
      const allowed = allowedOf(path);
      for (const m of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE']) {
        if (allowed.includes(m)) continue;
        const head = m === 'HEAD';
        const r = await raw(request(m, target, { headers: m === 'POST' || m === 'PUT' || m === 'PATCH' ? ['Content-Type: application/json'] : [], body: m === 'POST' || m === 'PUT' || m === 'PATCH' ? '{}' : undefined }), { head }).catch(lost);
        const p = problem(`${m} ${target.slice(0, 120)}`, r, undefined, { head });
        if (p) { failures.push(p); continue; }
        if (m === 'OPTIONS') { if (r.status !== 204 || !r.headers['allow']) failures.push(`OPTIONS ${target} -> ${r.status} allow=${r.headers['allow']}`); continue; }
        if (head && allowed.includes('GET')) { if (r.status >= 400 && r.status !== 401) failures.push(`HEAD ${target} -> ${r.status}`); continue; }
        if (r.status !== 405) { failures.push(`${m} ${target} -> ${r.status}, not 405`); continue; }
        const allow = (r.headers['allow'] ?? '').split(/,\s*/);
        for (const a of allowed) if (!allow.includes(a)) failures.push(`${m} ${target}: Allow "${r.headers['allow']}" leaves out ${a}`);
        if (!head && !(JSON.parse(r.body) as { message: string }).message.includes(m)) failures.push(`${m} ${target}: 405 message does not name ${m}: ${r.body}`);
      }
    }
    failures.push(...await stillAnswers());
    expect(failures).toEqual([]);
  }, 300_000);

  test('path parameters: traversal, escapes, NUL, over-long: 4xx naming the parameter or the path, never a file', async () => {
    const failures: string[] = [];
    const VALUES = ['..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2e%2e%2f%2e%2e%2fwarehouse.duckdb', '....%2F%2F', '..%5C..%5Cwindows', '%00', 'a%00b', '%zz', '%C0%AE%C0%AE', '%ED%A0%80',
      '%E2%80%8F', '%01', 'a'.repeat(3000), 'a'.repeat(10_000), '%20', 'current', 'manifest.json', 'warehouse.duckdb', '..%00', '~root', '%F0%9F%98%80', '-1', '0', '1e309'];
    for (const [path, method, op] of operations()) {
      if (!path.includes('{')) continue;
      for (const v of VALUES) {
        const target = path.replace(/\{\w+\}/, v) + qs([...goodQuery(op).entries()].map(([k, x]) => [k, encodeURIComponent(x)]));
        const body = method === 'POST' ? '{}' : undefined;
        const r = await raw(request(method, target, { headers: body ? ['Content-Type: application/json'] : [], body })).catch(lost);
        const p = problem(`${method} ${target.slice(0, 120)}`, r, op);
        if (p) failures.push(p);
        else if (r.status < 400) failures.push(`${method} ${target.slice(0, 120)} -> ${r.status}: a traversal answered`);
      }
    }
    // traversal in the path itself, outside a parameter
    for (const t of ['/v1/../v1/health', '/v1/%2e%2e/etc/passwd', '/../../etc/passwd', '/v1/export/..%2F..%2Fstate.db', '//v1//health', '/v1/health%00', '/v1/geo/lookup/', '/V1/HEALTH', '/docs/assets/..%2F..%2Fpackage.json', '/docs/assets/%2e%2e/%2e%2e/package.json']) {
      const r = await raw(request('GET', t)).catch(lost);
      const p = problem(`GET ${t}`, r, undefined);
      if (p) failures.push(p);
      else if (r.status === 200 && /"name"\s*:\s*"reii|root:/.test(r.body)) failures.push(`GET ${t} -> a file outside the served ones`);
    }
    failures.push(...await stillAnswers());
    expect(failures).toEqual([]);
  }, 300_000);

  test('bodies: not JSON, wrong shapes, 10k deep, over the limit, wrong content types, on every POST and on GETs', async () => {
    const failures: string[] = [];
    const deepArr = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObj = '{"a":'.repeat(3_000) + '1' + '}'.repeat(3_000);
    const BODIES: [string, string, string[]][] = [
      ['not JSON', 'hello', ['Content-Type: application/json']],
      ['truncated JSON', '{"query": "x', ['Content-Type: application/json']],
      ['JSON array', '[]', ['Content-Type: application/json']],
      ['JSON number', '1', ['Content-Type: application/json']],
      ['JSON string', '"x"', ['Content-Type: application/json']],
      ['JSON null', 'null', ['Content-Type: application/json']],
      ['JSON true', 'true', ['Content-Type: application/json']],
      ['empty body', '', ['Content-Type: application/json']],
      ['nested 10k arrays', deepArr, ['Content-Type: application/json']],
      ['nested 3k objects', deepObj, ['Content-Type: application/json']],
      ['over the limit', JSON.stringify({ query: 'x'.repeat(20_000) }), ['Content-Type: application/json']],
      ['1 MB', '{"a":"' + 'x'.repeat(1_000_000) + '"}', ['Content-Type: application/json']],
      ['text/plain', '{}', ['Content-Type: text/plain']],
      ['form', 'a=1', ['Content-Type: application/x-www-form-urlencoded']],
      ['no content type', '{}', []],
      ['json with a charset', '{}', ['Content-Type: application/json; charset=latin1']],
      ['gzip', '{}', ['Content-Type: application/json', 'Content-Encoding: gzip']],
      ['two content types', '{}', ['Content-Type: application/json', 'Content-Type: text/plain']],
      ['BOM then JSON', '\ufeff{}', ['Content-Type: application/json']],
      ['NUL bytes', '\u0000\u0000', ['Content-Type: application/json']],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'), ['Content-Type: application/json']],
      ['wrong shape: every field a number', '{"query":1,"zip":2,"address":3,"url":4,"events":5,"context":6}', ['Content-Type: application/json']],
      ['wrong shape: every field an object', '{"query":{},"zip":{},"address":{},"url":{},"events":{},"context":{}}', ['Content-Type: application/json']],
      ['wrong shape: every field an array', '{"query":[],"zip":[],"address":[],"url":[],"events":[[]],"context":[]}', ['Content-Type: application/json']],
      ['numbers at the edge', '{"zip":"98103","address":"1301 2nd Ave","sqft":1e309,"beds":-1,"baths":1e400}', ['Content-Type: application/json']],
      ['huge number', '{"zip":"98103","address":"1301 2nd Ave","sqft":' + '9'.repeat(5000) + '}', ['Content-Type: application/json']],
      ['duplicate key', '{"query":"a","query":"b","zip":"1","zip":"2"}', ['Content-Type: application/json']],
      ['__proto__', '{"__proto__":{"x":1},"constructor":{"prototype":{"y":1}}}', ['Content-Type: application/json']],
    ];
    for (const [path, method, op] of operations()) {
      const target = goodPath(path, op) + qs([...goodQuery(op).entries()].map(([k, v]) => [k, encodeURIComponent(v)]));
      for (const [what, body, headers] of BODIES) {
        const buf = Buffer.from(body, what === 'invalid UTF-8' ? 'latin1' : 'utf8');
        const r = await raw(request(method, target, { headers, body: buf }), { head: method === 'HEAD' }).catch(lost);
        const p = problem(`${method} ${target.slice(0, 100)} body ${what}`, r, op);
        if (p) failures.push(p);
        else if (method === 'POST' && r.status < 300 && !['BOM then JSON', 'empty body', 'no content type', 'json with a charset'].includes(what) && path !== '/v1/webhooks/{id}/test') failures.push(`${method} ${target} body ${what} -> ${r.status}: accepted`);
      }
      // a chunked body says no length: 1 MB of it is refused whole (a GET of /v1/openapi.json had its 200 cut by the
      // reset of the unread rest), a small one is read and the route answers as without it
      for (const [what, size] of [['chunked 1 MB', 16], ['chunked 1 KB', 0]] as const) {
        const chunks = size ? Array.from({ length: size }, () => `10000\r\n${'x'.repeat(65536)}\r\n`).join('') : `400\r\n${'{'.repeat(1024)}\r\n`;
        const req = Buffer.concat([request(method, target, { headers: ['Content-Type: application/json', 'Transfer-Encoding: chunked'] }), Buffer.from(chunks + '0\r\n\r\n')]);
        const r = await raw(req, { head: method === 'HEAD' }).catch(lost);
        const p = problem(`${method} ${target.slice(0, 100)} body ${what}`, r, op);
        if (p) failures.push(p);
        else if (size && r.status !== 413) failures.push(`${method} ${target.slice(0, 100)} body ${what} -> ${r.status}, not 413`);
      }
      if (method === 'POST') {
        // a Content-Length that lies, a chunked body with a broken chunk: 400, or the server waits (the client gives up) but never crashes
        for (const [what, req] of [
          ['Content-Length not a number', `POST ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`],
          ['Content-Length and chunked', `POST ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
          ['broken chunk', `POST ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
          ['negative Content-Length', `POST ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}`],
        ] as const) {
          const r = await raw(req).catch(lost);
          const p = problem(`${method} ${path} ${what}`, r, undefined);
          if (p) failures.push(p);
        }
      }
    }
    failures.push(...await stillAnswers());
    expect(failures).toEqual([]);
  }, 600_000);

  test('hostile headers: huge, a key sent twice, bad keys, header injection: 4xx with a specific message, never 5xx', async () => {
    const failures: string[] = [];
    const HEADERS: [string, string[], boolean, RegExp][] = [
      ['huge header', [`X-Junk: ${'a'.repeat(20_000)}`], true, /header/i],
      ['many headers', Array.from({ length: 500 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}`), true, /header/i],
      ['key sent twice', [`X-Service-Key: ${key}`], true, /more than once|twice|once/i],
      ['bad key', ['X-Service-Key: nope'], false, /key/i],
      ['empty key', ['X-Service-Key: '], false, /key/i],
      ['10k key', [`X-Service-Key: ${'k'.repeat(10_000)}`], false, /key/i],
      ['key with latin-1 bytes', ['X-Service-Key: ries_live_\u00e9\u00ff'], false, /key/i],
      ['key with a control character', ['X-Service-Key: ries\u0001live'], false, /key|malformed/i],
      ['key in Authorization', [`Authorization: Bearer ${key}`], false, /key/i],
      ['lower-case key header twice', [`x-service-key: ${key}`, `x-service-key: ${key}`], false, /more than once|twice|once/i],
      ['host twice', ['Host: other'], true, /Host header was sent more than once/],
      ['Expect unknown', ['Expect: 100-continue-please'], true, /expect/i],
      ['If-None-Match junk', [`If-None-Match: ${'"x",'.repeat(500)}`], true, /./],
      ['Range junk', ['Range: bytes=zz-yy'], true, /./],
      ['Accept-Encoding junk', ['Accept-Encoding: \u00ff;q=NaN'], true, /./],
      ['X-Forwarded-For junk', ['X-Forwarded-For: ::::, 999.1.1.1, \u00ff'], true, /./],
      ['Origin junk', ['Origin: javascript:alert(1)'], true, /./],
    ];
    for (const [path, method, op] of operations()) {
      const target = goodPath(path, op) + qs([...goodQuery(op).entries()].map(([k, v]) => [k, encodeURIComponent(v)]));
      const body = method === 'POST' ? GOOD_BODIES[path] : undefined;
      for (const [what, headers, keyed, words] of HEADERS) {
        const r = await raw(request(method, target, { headers: [...(body ? ['Content-Type: application/json'] : []), ...headers], body, keyed })).catch(lost);
        const p = problem(`${method} ${target.slice(0, 100)} ${what}`, r, op);
        if (p) { failures.push(p); continue; }
        if (r.status >= 400 && !words.test((JSON.parse(r.body) as { message: string }).message)) failures.push(`${method} ${target.slice(0, 100)} ${what} -> ${r.status} message not specific: ${r.body.slice(0, 200)}`);
      }
    }
    failures.push(...await stillAnswers());
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('h74 fuzz: every field of every JSON body', () => {
  test('each field missing, null, of every wrong JSON type, empty, 10k long, with control characters or a lone surrogate, numbers at their edges; unknown fields: 4xx naming the field, never 5xx', async () => {
    const failures: string[] = [];
    interface BodySchema { required?: string[]; properties?: Record<string, { anyOf?: { type?: string; properties?: Record<string, unknown> }[]; type?: string }> }
    for (const [path, method, op] of operations()) {
      const schema = (op.requestBody as { content?: { 'application/json'?: { schema?: BodySchema } } } | undefined)?.content?.['application/json']?.schema;
      if (!schema?.properties || !GOOD_BODIES[path] || path.includes('{')) continue;
      const target = goodPath(path, op);
      const good = JSON.parse(GOOD_BODIES[path]!) as Record<string, unknown>;
      const post = async (what: string, text: string, field: string, refused: boolean): Promise<void> => {
        const r = await raw(request(method, target, { headers: ['Content-Type: application/json'], body: Buffer.from(text) })).catch(lost);
        // a value the field takes may be refused for another field (the example webhook host resolves to nothing here)
        const p = problem(`${method} ${target} ${what} ${text.slice(0, 80)}`, r, op, refused ? { names: field } : {});
        if (p) failures.push(p);
        else if (refused && r.status < 400) failures.push(`${method} ${target} ${what} -> ${r.status}, accepted`);
      };
      const withField = (name: string, json: string): string => {
        const rest = Object.entries(good).filter(([k]) => k !== name).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
        return `{${[...rest, `${JSON.stringify(name)}:${json}`].join(',')}}`;
      };
      for (const [name, prop] of Object.entries(schema.properties)) {
        const required = schema.required?.includes(name) ?? false;
        const types = new Set((prop.anyOf ?? [prop]).map((x) => x.type));
        if (required) await post(`${name} missing`, JSON.stringify(Object.fromEntries(Object.entries(good).filter(([k]) => k !== name))), name, true);
        const WRONG: [string, string][] = [['null', 'null'], ['true', 'true'], ['0', '0'], ['-1', '-1'], ['1e309', '1e309'], ['-1e309', '-1e309'], ['huge digits', '9'.repeat(400)], ['1.5', '1.5'],
          ['a string', '"x"'], ['empty string', '""'], ['blank', '"   "'], ['10k string', JSON.stringify('a'.repeat(10_000))], ['NaN text', '"NaN"'], ['Infinity text', '"Infinity"'],
          ['an array', '[]'], ['an array of junk', '[1,{},null]'], ['an object', '{}'], ['a nested object', '{"a":{"b":{"c":1}}}'],
          ['NUL', '"a\\u0000b"'], ['bidi override', '"\\u202e123"'], ['lone surrogate', '"\\ud800"'], ['C1 control', '"\\u0085"'], ['line breaks', '"a\\r\\nb"']];
        for (const [what, json] of WRONG) {
          // a value of a type the field takes may be answered (a 2xx or a 404 of no data); any other is refused
          const jsonType = json === 'null' ? 'null' : json === 'true' ? 'boolean' : json.startsWith('"') ? 'string' : json.startsWith('[') ? 'array' : json.startsWith('{') ? 'object' : 'number';
          const takes = types.has(jsonType) || (jsonType === 'number' && types.has('integer') && /^-?\d+$/.test(json)) || (jsonType === 'null' && !required);
          await post(`${name} = ${what}`, withField(name, json), name, !takes && !(jsonType === 'string' && (json === '""' || json === '"   "') && !required));
        }
      }
      await post('unknown field', withField('zz_unknown', '1'), 'zz_unknown', true);
      await post('a field named __proto__', withField('__proto__', '{"polluted":1}'), '__proto__', true);
      await post('a field sent twice', `{${Object.entries(good).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')},${JSON.stringify(Object.keys(good)[0])}:${JSON.stringify(Object.values(good)[0])}}`, Object.keys(good)[0]!, true);
      if (schema.properties['context']) await post('context 10k deep', withField('context', '{"zip":'.repeat(10_000) + '1' + '}'.repeat(10_000)), 'context', true);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    failures.push(...await stillAnswers());
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('h74 fuzz: the server log of the whole sweep', () => {
  // Runs after the sweeps above (tests of a file run in order): a failure the client never saw is still a failure.
  // The broken-chunk POSTs had logged four unexpected errors "aborted", with no answer line, while node's parser
  // answered the client its 400 (api/request.ts readBody).
  test('no unexpected failure logged, no 5xx answered, every answer logged with its status', () => {
    expect(srv.logs.length).toBeGreaterThan(4000);
    expect(srv.logs.filter((l) => l['level'] === 'error' || typeof l['status'] !== 'number' || (l['status'] as number) >= 500)).toEqual([]);
  });
});
