// Small inputs a reviewer found answered silently or with the wrong words, over a real server on port 0 and the shared
// build: a JSON key sent twice (the last won), two X-Service-Key headers ("The API key is not valid"), a negative window
// in a research question (answered as 6 months without a word).
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';

const api = serveSharedBuild('pro', 100_000);

/** A raw request whose headers may repeat (fetch merges them): [status, body]. */
function raw(method: string, path: string, headers: Record<string, string | string[]>, body?: string): Promise<[number, { message: string; errors?: { field: string; code: string }[] }]> {
  return new Promise((resolve, reject) => {
    const req = http.request(api.server.url + path, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString('utf8'); });
      res.on('end', () => resolve([res.statusCode!, JSON.parse(text) as never]));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a JSON body key sent twice is a 400 naming it, as a repeated query parameter is', () => {
  it('{"sqft":1800,"sqft":900} in the valuation body; "zip" twice in the research context', async () => {
    const [status, body] = await raw('POST', '/v1/valuation/estimate', { 'Content-Type': 'application/json', 'X-Service-Key': api.key }, '{"zip":"19146","address":"2251 League St","sqft":1800,"sqft":900}');
    expect(status).toBe(400);
    expect(body.errors).toEqual([expect.objectContaining({ field: 'sqft', code: 'duplicate' })]);
    expect(body.message).toMatch(/sqft is sent twice/);
    const [s2, b2] = await raw('POST', '/v1/research/query', { 'Content-Type': 'application/json', 'X-Service-Key': api.key }, '{"query":"flood risk","context":{"zip":"98103","zip":"19146"}}');
    expect(s2).toBe(400);
    expect(b2.errors?.[0]?.field).toBe('context.zip');
    // the same keys in different objects are no duplicate (context takes no query: an unknown field, test/api/body-fields.test.ts)
    const [s3, b3] = await raw('POST', '/v1/research/query', { 'Content-Type': 'application/json', 'X-Service-Key': api.key }, '{"query":"flood risk in 98103","context":{"query":"x","zip":"98103"}}');
    expect(s3).toBe(400);
    expect(b3.errors).toEqual([expect.objectContaining({ field: 'context.query', code: 'unknown' })]);
    expect((await raw('GET', '/v1/market/comps?zip=98103&zip=98103', { 'X-Service-Key': api.key }))[0]).toBe(400);
  });
});

describe('two X-Service-Key headers', () => {
  it('are a 401 that says the header was sent twice, not that the key is invalid', async () => {
    const [status, body] = await raw('GET', '/v1/geo/states', { 'X-Service-Key': [api.key, api.key] });
    expect(status).toBe(401);
    expect(body.message).toBe('The X-Service-Key header was sent 2 times; send it once, with one key');
    expect((await raw('GET', '/v1/geo/states', { 'X-Service-Key': api.key }))[0]).toBe(200);
  });
});

describe('a negative window in a research question', () => {
  it('"the last -6 months" is answered as 6 months and says so; "the last 6 months" says nothing of it', async () => {
    const ask = async (query: string): Promise<string> => ((await (await api.post('/v1/research/query', { query })).json()) as { answer: string }).answer;
    const [minus, plain] = await Promise.all([ask('prices over the last -6 months in 98103'), ask('prices over the last 6 months in 98103')]);
    expect(minus).toContain('"-6 months" as the last 6 months (a window cannot be negative)');
    expect(plain).not.toContain('negative');
    expect(minus).toContain(plain.slice(0, 80));
  });

  it('a window outside the kept 3-24 months ("30 months", "last 5 years") is said, not answered silently with another', async () => {
    // 25-60 months: the monthly series' index change over them (warehouse/docs/research.md "Modifiers"); past 60: said
    const ask = async (query: string): Promise<string> => ((await (await api.post('/v1/research/query', { query })).json()) as { answer: string }).answer;
    const [thirty, tenYears, plain] = await Promise.all([ask('prices over the last 30 months in 98103'), ask('prices over the last 10 years in 98103'), ask('prices over the last 12 months in 98103')]);
    expect(thirty).toContain('"30 months" as the price index change over the 30 months (the monthly series holds 60)');
    expect(thirty).toContain('there is no 30-month index change');
    expect(tenYears).toContain('"over the last 10 years" without its window: sale counts, medians over a window, price per sqft, rehab and investor figures are kept for windows of 3 to 24 months, the monthly price series (its index change) for 60');
    expect(plain).not.toContain('without its window');
  });
});
