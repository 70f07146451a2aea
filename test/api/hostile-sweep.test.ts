// Review h71's hostile-request sweep, over HTTP on a real server over the shared build: each request gets the specific
// 4xx that says what is wrong, as JSON {message, errors?}, never a 5xx or a hang (the raw corpus of
// test/fixtures/hostile/http.json checks only "no 5xx, JSON"; these name the status and the reason). What the sweep
// changed: a research body nested thousands deep holding a byte that is no UTF-8 was a 500 (the field-naming walk
// overflowed the call stack); a path parameter whose escapes are no UTF-8 (/v1/webhooks/%C0%AE) was a 404 "No endpoint";
// `OPTIONS *` was a 404 "No endpoint /*"; other methods on /docs were 404s (test/api/static-routes.test.ts).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

interface Got { status: number; headers: Record<string, string>; body: string }

/** Writes `head` then `body` (a Buffer, or `chunks` chunked pieces of `chunk`) on a new connection; reads the first
 *  answer (the server closes these connections) and how many body bytes were written before it came. */
function exchange(head: string, body: Buffer | { chunk: Buffer; chunks: number } = Buffer.alloc(0)): Promise<Got & { written: number }> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    let written = 0;
    let answered = false;
    const s = net.connect(srv.port, '127.0.0.1', () => {
      s.write(head);
      if (Buffer.isBuffer(body)) { s.write(body); written = body.length; return; }
      const pump = (): void => {
        for (let i = written / body.chunk.length; i < body.chunks && !answered; i++) {
          written += body.chunk.length;
          if (!s.write(`${body.chunk.length.toString(16)}\r\n`) || !s.write(body.chunk) || !s.write('\r\n')) { s.once('drain', pump); return; }
        }
        if (!answered) s.write('0\r\n\r\n');
      };
      pump();
    });
    s.on('data', (d: Buffer) => { answered = true; got = Buffer.concat([got, d]); });
    s.on('error', (e: NodeJS.ErrnoException) => { if (!answered) reject(e); }); // a reset after the answer: the rest unread
    s.on('close', () => {
      const text = got.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const headers: Record<string, string> = {};
      for (const line of text.slice(0, end).split('\r\n').slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(text.split(' ')[1]), headers, body: text.slice(end + 4), written });
    });
  });
}
const request = (line: string, headers: string[] = [], body = Buffer.alloc(0)): Promise<Got> =>
  exchange(`${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Service-Key: ${key}\r\n${headers.map((h) => `${h}\r\n`).join('')}${body.length ? `Content-Length: ${body.length}\r\n` : ''}\r\n`, body);
const post = (path: string, body: Buffer | string, type = 'application/json'): Promise<Got> => request(`POST ${path}`, [`Content-Type: ${type}`], Buffer.from(body));
const message = (g: Got): string => (JSON.parse(g.body) as { message: string }).message;
const fields = (g: Got): [string, string][] => ((JSON.parse(g.body) as { errors?: { field: string; code: string }[] }).errors ?? []).map((e) => [e.field, e.code]);

describe('hostile requests get a specific 4xx of the contract', () => {
  test('headers, methods and request targets', async () => {
    const cases: [Promise<Got>, number, RegExp, string?][] = [
      [request('GET /v1/health', [`X-Big: ${'a'.repeat(20_000)}`]), 431, /^Request headers too large$/],
      [request('BREW /v1/health'), 405, /^Method BREW is not allowed: this server answers GET, HEAD, POST, DELETE, OPTIONS$/, 'GET, HEAD, POST, DELETE, OPTIONS'],
      [request('TRACE /v1/health'), 405, /^TRACE is not allowed on \/v1\/health; use GET, HEAD$/, 'GET, HEAD'],
      [request('PUT /docs'), 405, /^PUT is not allowed on \/docs; use GET, HEAD$/, 'GET, HEAD'],
      [request('GET *'), 400, /^The request target \* is only for OPTIONS/],
      [request('GET /v1/../../etc/passwd'), 404, /^No endpoint \/v1\/\.\.\/\.\.\/etc\/passwd; see/],
      [request('GET /docs/assets/../../package.json'), 404, /^No endpoint /],
      [request('GET /docs/assets/..%2f..%2fpackage.json'), 404, /^No endpoint /],
      [request('GET /v1/export/..%2f..%2fetc%2fpasswd'), 422, /^Validation failed: dataset must be one of /],
      [request('DELETE /v1/webhooks/%C0%AE%C0%AE'), 400, /^The path has malformed percent-encoding: %C0%AE%C0%AE$/],
      [request('GET /v1/export/%zz'), 400, /^The path has malformed percent-encoding: %zz$/],
      [request('GET /v1/geo/lookup?city=%C0%AFSeattle&state=WA'), 400, /^The query has malformed percent-encoding: city=%C0%AFSeattle$/],
      [request('GET /v1/geo/lookup?city=Seattle&state=WA&state=WA'), 400, /^Bad request: state is sent twice; send it once$/],
      [request(`GET /v1/geo/lookup?city=${'a'.repeat(3900)}&state=WA`), 422, /^Validation failed: city must have at most 100 characters$/],
      [request(`GET /v1/geo/lookup?city=${'a'.repeat(5000)}&state=WA`), 414, /^The request URI is longer than 4096 bytes$/],
      [request('GET /v1/geo/lookup?city=Seattle;state=WA'), 400, /^Bad request: query parameters are separated by &, not ;/],
    ];
    for (const [pending, status, why, allow] of cases) {
      const g = await pending;
      expect([g.status, message(g)], why.source).toEqual([status, expect.stringMatching(why)]);
      expect(g.headers['content-type']).toBe('application/json; charset=utf-8');
      if (allow) expect(g.headers['allow']).toBe(allow);
    }
    expect(fields(await request('DELETE /v1/webhooks/%C0%AE%C0%AE'))).toEqual([['id', 'format']]);
  });

  test('POST /v1/research/query with bodies that are no object, nested deep, no UTF-8, of the wrong type, or 100 MB', async () => {
    const deep = (inner: string): Buffer => Buffer.concat([Buffer.from(`{"query":${'['.repeat(8000)}`), Buffer.from(inner, 'latin1'), Buffer.from(`${']'.repeat(8000)}}`)]);
    const cases: [Promise<Got>, number, RegExp, [string, string][]][] = [
      [post('/v1/research/query', '[1,2]'), 400, /^The body must be a JSON object$/, [['body', 'type']]],
      [post('/v1/research/query', '"median price in 98103"'), 400, /^The body must be a JSON object$/, [['body', 'type']]],
      [post('/v1/research/query', 'null'), 400, /^The body must be a JSON object$/, [['body', 'type']]],
      [post('/v1/research/query', '{"query":"x"}{"query":"y"}'), 400, /^The body is not valid JSON$/, [['body', 'json']]],
      [post('/v1/research/query', deep('')), 400, /^Bad request: query must be a string$/, [['query', 'type']]],
      // was a 500: the walk naming the field that holds the bad byte overflowed the call stack
      [post('/v1/research/query', deep('"\xff"')), 400, /^Bad request: query is not UTF-8 text \(byte 0xFF at offset 8010 of the body\)/, [['query', 'json']]],
      [post('/v1/research/query', Buffer.from(`${'['.repeat(8000)}"\xff"${']'.repeat(8000)}`, 'latin1')), 400, /^Bad request: body is not UTF-8 text \(byte 0xFF at offset 8001 of the body\)/, [['body', 'json']]],
      [post('/v1/research/query', Buffer.from(`{"query":"${'x'.repeat(16_400)}"}`)), 413, /^The request body is larger than 16384 bytes$/, []],
      [post('/v1/research/query', '{"query":"x"}', 'text/plain'), 415, /^Send the body as application\/json \(got text\/plain\)$/, []],
      [post('/v1/research/query', 'query=x', 'application/x-www-form-urlencoded'), 415, /got application\/x-www-form-urlencoded/, []],
      [post('/v1/research/query', '{"query":"x"}', 'multipart/form-data; boundary=z'), 415, /got multipart\/form-data/, []],
      [post('/v1/valuation/estimate', '{"address":"1301 2nd Ave","zip":{}}'), 400, /^Bad request: zip must be a string of 5 digits, not an object$/, [['zip', 'type']]],
    ];
    for (const [pending, status, why, errs] of cases) {
      const g = await pending;
      expect([g.status, message(g), fields(g)], why.source).toEqual([status, expect.stringMatching(why), errs]);
    }
    // 100 MB declared: refused from its Content-Length, nothing read
    const declared = await exchange(`POST /v1/research/query HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${100 * 2 ** 20}\r\n\r\n`);
    expect([declared.status, message(declared)]).toEqual([413, 'The request body is larger than 16384 bytes']);
    // 100 MB chunked: refused once past 16 KiB, the connection closed long before the 100 MB are sent
    const chunked = await exchange(`POST /v1/research/query HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, { chunk: Buffer.alloc(2 ** 16, 'a'), chunks: 1600 });
    expect([chunked.status, message(chunked), chunked.headers['connection']]).toEqual([413, 'The request body is larger than 16384 bytes', 'close']);
    expect(chunked.written).toBeLessThan(100 * 2 ** 20);
  });

  test('HEAD and OPTIONS on every path of the OpenAPI document and /docs: HEAD is GET without a body (or a 405 naming the methods), OPTIONS a 204 with Allow; OPTIONS * a 204', async () => {
    const doc = (await (await srv.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.entries(doc.paths).map(([p, ops]): [string, string[]] => [p.replace('{id}', 'wh_AbCdEfGh1234').replace('{dataset}', 'states'), Object.keys(ops).map((m) => m.toUpperCase())]);
    const bad: string[] = [];
    for (const [path, methods] of [...paths, ['/docs', ['GET']] as [string, string[]]]) {
      const allow = [...methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))].join(', ');
      const head = await request(`HEAD ${path}`);
      if (methods.includes('GET')) {
        const get = await request(`GET ${path}`);
        if (head.status !== get.status || head.body !== '' || head.status >= 500) bad.push(`HEAD ${path}: ${head.status} (GET ${get.status}), ${head.body.length} bytes`);
      } else if (head.status !== 405 || head.headers['allow'] !== allow || head.body !== '') bad.push(`HEAD ${path}: ${head.status} Allow ${head.headers['allow']}`);
      const options = await request(`OPTIONS ${path}`);
      if (options.status !== 204 || !options.headers['allow']?.startsWith(allow) || options.body !== '') bad.push(`OPTIONS ${path}: ${options.status} Allow ${options.headers['allow']}`);
    }
    expect(bad).toEqual([]);
    const star = await request('OPTIONS *');
    expect([star.status, star.headers['allow'], star.body]).toEqual([204, 'GET, HEAD, POST, DELETE, OPTIONS', '']);
  });
});
