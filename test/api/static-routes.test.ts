// The routes that read no query, over HTTP on a real server (no build needed: an empty artifacts folder): the static
// documents (/docs, its files, /v1/openapi.json) and the system answers (/v1/health, /v1/usage). One rule for all of
// them: any query is ignored, a malformed one too (`?%zz`, a broken UTF-8 escape, a repeated name); a key in it is
// refused with 401 as on every route. Before (review h71): /v1/openapi.json?%zz and /v1/health?%zz were 400 while
// /docs?%zz was 200, and /docs?key=... was 200 while /v1/openapi.json?key=... was 401. A data route keeps its checks
// (an unknown or malformed parameter is a 400). Other methods on /docs: 405 with Allow (was a 404 "No endpoint /docs"),
// OPTIONS 204.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(tmp('reii-static-')); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); removeTmpDirs(); });

const STATIC = ['/docs', '/docs/assets/init.js', '/docs/assets/swagger-ui.css', '/v1/openapi.json', '/v1/health', '/v1/usage'];
const IGNORED = ['?%zz', '?x=%E0%A4%A', '?%C3%28=1', '?x=1&x=2', '?_=1700000000', '?a=%00', '?;;&&=', '?city=Seattle;state=WA'];

interface Got { status: number; type: string; text: string; headers: Headers }
async function call(target: string, init: RequestInit = {}): Promise<Got> {
  const r = await fetch(`${srv.url}${target}`, { ...init, headers: { 'X-Service-Key': key, ...(init.headers as Record<string, string> | undefined) }, redirect: 'manual' });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text(), headers: r.headers };
}
const message = (g: Got): string => (JSON.parse(g.text) as { message: string }).message;

describe('routes that read no query', () => {
  test('every static and system route answers any query, malformed too, as it answers none', async () => {
    const bad: string[] = [];
    for (const path of STATIC) {
      const plain = await call(path);
      if (plain.status !== 200) bad.push(`${path}: ${plain.status}`);
      for (const q of IGNORED) {
        const got = await call(path + q);
        if (got.status !== 200 || got.text !== plain.text || got.type !== plain.type) bad.push(`${path}${q}: ${got.status} ${got.text.slice(0, 80)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test('a key in the query is a 401 on every one of them, beside a malformed escape too, named as sent', async () => {
    for (const path of STATIC) {
      for (const [q, field] of [['?key=abc', 'key'], ['?%zz&api_key=abc', 'api_key'], ['?TOKEN=x', 'TOKEN'], ['?api%5Fkey=1', 'api_key']] as const) {
        const got = await call(path + q);
        expect([path + q, got.status, got.type, JSON.parse(got.text)]).toEqual([path + q, 401, 'application/json; charset=utf-8', {
          message: 'API keys are not accepted in the query string: send the key in the X-Service-Key header',
          errors: [{ field, code: 'key_in_query', message: 'send the key in the X-Service-Key header, never in the URL' }],
        }]);
      }
    }
  });

  test('a data route keeps its checks: a malformed escape and an unknown parameter are 400s naming them', async () => {
    const broken = await call('/v1/coverage/summary?%zz');
    expect([broken.status, (JSON.parse(broken.text) as { errors: { field: string; code: string }[] }).errors]).toEqual([400, [{ field: '%zz', code: 'format', message: '%zz has a % not followed by two hex digits; percent-encode the UTF-8 bytes of the text' }]]);
    const unknown = await call('/v1/coverage/summary?x=1');
    expect([unknown.status, message(unknown)]).toEqual([400, 'Bad request: unknown query parameter "x"; this endpoint takes no query parameters']);
  });

  test('/docs and its files: another method is a 405 naming GET and HEAD, OPTIONS a 204 open to every origin, HEAD the head of GET', async () => {
    for (const path of ['/docs', '/docs/assets/init.js', '/docs/']) {
      for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
        const got = await call(path, { method });
        expect([path, method, got.status, got.headers.get('allow'), message(got)]).toEqual([path, method, 405, 'GET, HEAD', `${method} is not allowed on ${path}; use GET, HEAD`]);
      }
      const options = await call(path, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example' } });
      expect([path, options.status, options.headers.get('allow'), options.headers.get('access-control-allow-origin'), options.text]).toEqual([path, 204, 'GET, HEAD, OPTIONS', '*', '']);
    }
    const get = await call('/docs');
    const head = await call('/docs', { method: 'HEAD' });
    expect([head.status, head.text, head.headers.get('content-length'), head.type]).toEqual([200, '', String(Buffer.byteLength(get.text)), get.type]);
    // a /docs path that is no file stays a 404 of the contract, whatever the method
    for (const method of ['GET', 'POST']) expect((await call('/docs/assets/../../package.json', { method })).status).toBe(404);
  });
});
