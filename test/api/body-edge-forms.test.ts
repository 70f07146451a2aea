// JSON bodies at the edges of the format (review h67), over HTTP on a real server over the shared build:
// - a string holding a lone UTF-16 surrogate ("\ud800", valid JSON, no character) was valued as an address and echoed
//   in the notes; it is a 400 naming the field (422 inside the research context, as every malformed value there);
// - a body that starts with a UTF-8 byte order mark was "not valid JSON"; the mark is no part of the text (RFC 8259
//   8.1) and the body answers as without it;
// - a number past the doubles (1e400 parses as Infinity) was "must be a number"; it says it is too large, with the range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

const post = async (path: string, raw: string | Buffer): Promise<[number, Record<string, unknown>]> => {
  const r = await fetch(`${srv.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Key': key }, body: raw });
  return [r.status, await r.json() as Record<string, unknown>];
};
const ADDRESS = '{"zip":"19146","address":"2251 League St"}';

describe('JSON bodies at the edges', () => {
  it('a lone surrogate in a string field is refused naming it, in the valuation body and the research context', async () => {
    for (const [path, body, field] of [
      ['/v1/valuation/estimate', '{"zip":"19146","address":"\\ud800"}', 'address'],
      ['/v1/valuation/estimate', '{"zip":"19146","address":"2251 League St\\udc00"}', 'address'],
      ['/v1/research/query', '{"query":"median price","context":{"city":"Seattle\\ud83d"}}', 'context.city'],
    ] as const) {
      const [status, answer] = await post(path, body);
      // inside an object a malformed string is a disallowed value, 422 (api/params.ts checkAll, warehouse/docs/research.md)
      expect(status, body).toBe(field.includes('.') ? 422 : 400);
      expect(answer['errors'], body).toEqual([{ field, code: field.includes('.') ? 'invalid' : 'format', message: `${field} holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), which is no character: send the text as UTF-8` }]);
    }
    // a pair escaped in JSON is one character: the address is read (no record matches it: the zip's typical property)
    expect((await post('/v1/valuation/estimate', '{"zip":"19146","address":"2251 League St \\ud83d\\ude00"}'))[0]).toBe(200);
  });

  it('a byte order mark before the JSON: the same answer as without it', async () => {
    const want = await post('/v1/valuation/estimate', ADDRESS);
    expect(want[0]).toBe(200);
    const got = await post('/v1/valuation/estimate', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ADDRESS)]));
    expect({ ...got[1], generated_at: undefined }).toEqual({ ...want[1], generated_at: undefined });
    // a mark anywhere else is still no JSON
    expect((await post('/v1/valuation/estimate', `{\uFEFF"zip":"19146","address":"2251 League St"}`))[0]).toBe(400);
  });

  it('a number too large for a double: 400 saying so, with the range', async () => {
    const [status, answer] = await post('/v1/valuation/estimate', `{"zip":"19146","address":"2251 League St","sqft":1${'0'.repeat(400)}}`);
    expect(status).toBe(400);
    expect(answer['errors']).toEqual([{ field: 'sqft', code: 'type', message: 'sqft must be a finite number: the number sent is too large; it must be from 100 to 50000' }]);
    const r = await srv.get('/v1/location/risk?lat=-1e400&lng=-122.3', key);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'lat', code: 'type', message: 'lat must be a finite number: -1e400 is too far below zero; it must be from -90 to 90' }]);
  });
});
