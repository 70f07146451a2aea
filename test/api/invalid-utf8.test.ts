// A request whose text is no UTF-8 (a query escape such as %C3%28, a raw 0xFF byte in the target or in a JSON body)
// is a 400 naming the parameter or the body field, never a 500 and never an address changed behind the caller's back
// (a reviewer's leftover: the body's bad bytes were read as U+FFFD and the address valued as so changed). Raw bytes
// go over a plain socket to a real server on port 0.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

interface Answer { status: number; body: { message: string; errors?: { field: string; code: string; message: string }[] } }

/** One request written byte for byte: the request line and headers, then the body. */
function raw(head: Buffer, body: Buffer = Buffer.alloc(0)): Promise<Answer> {
  const port = Number(new URL(srv.url).port);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = net.connect(port, '127.0.0.1', () => s.end(Buffer.concat([head, body])));
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const json = text.slice(text.indexOf('\r\n\r\n') + 4); // the error answers here are JSON, sent whole or in one chunk
      try { resolve({ status, body: JSON.parse(json.slice(json.indexOf('{'), json.lastIndexOf('}') + 1)) as Answer['body'] }); } catch { resolve({ status, body: { message: json } }); }
    });
  });
}
const get = (target: Buffer): Promise<Answer> => raw(Buffer.concat([Buffer.from('GET '), target,
  Buffer.from(` HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${key}\r\nConnection: close\r\n\r\n`)]));
const post = (path: string, body: Buffer): Promise<Answer> => raw(Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${key}\r\n`
  + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body);
const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('text that is no UTF-8 is a 400 naming where it is', () => {
  it.each([
    ['%C3%28 (a lead byte and no continuation)', '/v1/property?address=12%20Main%20St%C3%28&zip=98103', 'address', 'is not UTF-8 text'],
    ['%FF', '/v1/address/autocomplete?q=400%20broad%FF', 'q', 'is not UTF-8 text'],
    ['%ED%A0%80 (a surrogate)', '/v1/geo/lookup?city=%ED%A0%80&state=WA', 'city', 'is not UTF-8 text'],
    ['%E0%A4%A (a cut escape)', '/v1/geo/lookup?city=%E0%A4%A&state=WA', 'city', 'has a % not followed by two hex digits'],
  ])('a query escape %s: 400, code format, the parameter named', async (_, target, field, why) => {
    const a = await get(Buffer.from(target));
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([{ field, code: 'format', message: expect.stringMatching(new RegExp(`^${field} ${why}`)) as string }]);
  });

  it('a raw byte over 0x7F in the target (0xFF, or even UTF-8 unescaped): the HTTP parser\'s 400, never read as "ÿ"', async () => {
    for (const bad of [[0xff], [0xc3, 0x28], [0xc3, 0xb1]]) {
      const a = await get(bytes('/v1/property?address=12Main', bad, 'St&zip=98103'));
      expect(a.status).toBe(400);
      expect(a.body.message).toBe('Malformed HTTP request: the request target holds a character that must be percent-encoded (a control character or a byte over 0x7F)');
    }
  });

  it('a JSON body with a raw 0xFF or a C3 28 pair in the address: 400 naming the field, never valued with U+FFFD', async () => {
    for (const bad of [[0xff], [0xc3, 0x28]]) {
      const body = bytes('{"address":"2251 League St', bad, '","zip":"19146"}');
      const a = await post('/v1/valuation/estimate', body);
      expect(a.status, JSON.stringify(a.body)).toBe(400);
      expect(a.body.errors).toEqual([{ field: 'address', code: 'json', message: expect.stringMatching(/^address is not UTF-8 text/) as string }]);
    }
    // a body field of an object (research's context.city) is named by its dotted name; outside any string, the body
    const nested = await post('/v1/research/query', bytes('{"query":"median price","context":{"city":"Se', [0xff], 'attle","state":"WA"}}'));
    expect(nested.status).toBe(400);
    expect(nested.body.errors?.[0]).toMatchObject({ field: 'context.city', code: 'json' });
    const outside = await post('/v1/valuation/estimate', bytes('{"address":"2251 League St",', [0xff], '"zip":"19146"}'));
    expect(outside.status).toBe(400);
    expect(outside.body.errors?.[0]).toMatchObject({ field: 'body', code: 'json' });
  });

  it('the same requests in UTF-8 are read as their text (no 400)', async () => {
    const city = await srv.get('/v1/geo/lookup?city=Ca%C3%B1on%20City&state=CO', key);
    expect([200, 404]).toContain(city.status);
    const a = await post('/v1/valuation/estimate', bytes('{"address":"2251 League St', [0xc3, 0xb1], '","zip":"19146"}'));
    expect(a.status, a.body.message).toBe(200);
  });
});
