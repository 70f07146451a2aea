// Hostile requests: traversal, keys in the URL, oversized headers, query and body, slow clients.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
beforeAll(async () => { srv = await startTestServer(artifactsDir(), { anonymous: { requestsPerMinute: 1000, failedAuthPer10Min: 1000 } }); });
afterAll(async () => { await srv.close(); });

/** Sends raw bytes and returns the raw response (for requests fetch() would normalise). */
function raw(request: string, waitMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(srv.port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => { out += d.toString('latin1'); });
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(out));
    socket.write(request);
    setTimeout(() => { socket.destroy(); resolve(out); }, waitMs);
  });
}

describe('path traversal', () => {
  for (const p of ['/v1/../../package.json', '/v1/%2e%2e/%2e%2e/package.json', '/v1/geo/..%2f..%2fpackage.json', '/v1/geo/lookup/../../../../etc/passwd', '/%2e%2e/warehouse.duckdb']) {
    test(p, async () => {
      const res = await raw(`GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res).toMatch(/^HTTP\/1\.1 404/);
      expect(res).not.toContain('"dependencies"');
      expect(res).toContain('application/json');
    });
  }
  test('a city that tries to climb out of the shard tree is a 404, not a file', async () => {
    const res = await srv.get(`/v1/geo/lookup?state=WA&city=${encodeURIComponent('../../../manifest')}`, srv.key('starter', 1000));
    expect(res.status).toBe(404);
  });
});

describe('keys outside the header', () => {
  for (const name of ['key', 'api_key', 'token', 'X-Service-Key']) {
    test(`?${name}= is refused and says to use the header`, async () => {
      const res = await srv.get(`/v1/geo/states?${name}=${srv.key('starter')}`, null);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toContain('X-Service-Key header');
    });
  }
});

describe('oversized input', () => {
  test('headers over 16 KiB -> 431 JSON', async () => {
    const res = await raw(`GET /v1/geo/states HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res).toMatch(/^HTTP\/1\.1 431/);
    expect(res).toContain('"message"');
  });
  test('query over 4 KiB -> 414', async () => {
    const res = await srv.get(`/v1/geo/states?x=${'a'.repeat(5000)}`, srv.key('starter', 1000));
    expect(res.status).toBe(414);
  });
  test('body over 16 KiB -> 413', async () => {
    const res = await srv.post('/v1/research/query', { query: 'q'.repeat(30_000) }, srv.key('pro', 1000));
    expect(res.status).toBe(413);
  });
  test('malformed HTTP -> 400 JSON, server still answers', async () => {
    const res = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 400/);
    expect((await srv.get('/v1/health', null)).status).toBe(200);
  });
});

describe('slow clients', () => {
  test('a client that never finishes its headers is cut off', async () => {
    const started = Date.now();
    const socket = net.connect(srv.port, '127.0.0.1');
    socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n'); // never sends the blank line
    const closed = await new Promise<string>((resolve) => {
      let out = '';
      socket.on('data', (d) => { out += d.toString(); });
      socket.on('close', () => resolve(out));
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(closed === '' || /^HTTP\/1\.1 408/.test(closed)).toBe(true);
  }, 40_000);
});

describe('no stack traces', () => {
  test('odd values produce clean errors', async () => {
    const key = srv.key('pro', 1000);
    for (const q of ['/v1/regulations/lookup?state=CA&state=NY', '/v1/geo/lookup?city=%00%ff&state=WA', '/v1/location/risk?lat=1e999&lng=0', '/v1/location/risk?lat=NaN&lng=NaN']) {
      const res = await srv.get(q, key);
      const text = await res.text();
      expect(res.status, q).toBeLessThan(500);
      expect(text).not.toMatch(/at \w+ \(|node:internal/);
    }
  });
});

describe('query names that are also object property names', () => {
  test('?constructor= and ?__proto__= are plain parameters, not inherited values', async () => {
    const key = srv.key('pro', 1000);
    const plain = await srv.get('/v1/geo/lookup?city=Seattle&state=WA', key);
    for (const extra of ['constructor=x', '__proto__=x', 'toString=1', 'city=Seattle&hasOwnProperty=1']) {
      const res = await srv.get(`/v1/geo/lookup?city=Seattle&state=WA&${extra}`, key);
      expect(res.status, extra).toBe(extra.startsWith('city=') ? 400 : 200);
      if (res.status === 200) expect(await res.text()).toBe(await plain.clone().text());
    }
  });
});
