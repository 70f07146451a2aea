// The contract through the typed client (client/): the answers it returns are the server's JSON bodies, valid
// against their schemas, and an error is a ReiiError carrying the status, the {message, errors?} body and the
// request id. The calls below are type-checked against client/types.ts by `npm run typecheck`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import crypto from 'node:crypto';
import { createClient, ReiiError, type FileBody, type Schema } from '../../client/index.ts';
import { artifactsDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
afterAll(async () => { await srv?.close(); });

describe('the typed client against a real server', () => {
  test('public and keyed GETs return the same body as a plain fetch, valid against the schema', async () => {
    const anon = createClient({ baseUrl: srv.url });
    const coverage: Schema<'CoverageSummary'> = await anon.get('/v1/coverage/summary');
    expect(coverage).toEqual(await (await srv.get('/v1/coverage/summary')).json());
    expect(schemaErrors('CoverageSummary', coverage)).toEqual([]);

    const key = srv.key('pro');
    const client = createClient({ baseUrl: `${srv.url}/`, key });
    const usage = await client.get('/v1/usage');
    expect(usage.plan).toBe('pro');
    expect(schemaErrors('Usage', usage)).toEqual([]);
    const lookup = await client.get('/v1/geo/lookup', { query: { city: 'Seattle', state: 'WA' } });
    expect(lookup).toEqual(await (await srv.get('/v1/geo/lookup?city=Seattle&state=WA', key)).json());
    expect(schemaErrors('CityLookup', lookup)).toEqual([]);
  });

  test('a POST with a typed body', async () => {
    const client = createClient({ baseUrl: srv.url, key: srv.key('builder') });
    const body = { zip: '98103', address: '4000 Stone Way N', sqft: 1800 };
    const estimate = await client.post('/v1/valuation/estimate', body);
    expect(schemaErrors('ValuationEstimate', estimate)).toEqual([]);
    expect(estimate).toEqual(await (await srv.post('/v1/valuation/estimate', body, srv.key('builder'))).json());
  });

  test('errors: a ReiiError with the status, the body and the request id; path parameters are filled in', async () => {
    const starter = createClient({ baseUrl: srv.url, key: srv.key('starter') });
    const denied = await starter.post('/v1/valuation/estimate', { zip: '98103', address: '1 Main St', sqft: 1500 }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(ReiiError);
    const err = denied as ReiiError;
    expect(err.status).toBe(403);
    expect(err.body?.message).toBe(err.message);
    expect(err.requestId).toMatch(/^req_/);
    expect(schemaErrors('Problem', err.body)).toEqual([]);

    const pro = createClient({ baseUrl: srv.url, key: srv.key('pro') });
    // @ts-expect-error the published state parameter is an enum of the real codes, so the types refuse this before the server does
    const invalid = await pro.get('/v1/geo/lookup', { query: { city: 'Seattle', state: 'Washington State' } }).catch((e: unknown) => e) as ReiiError;
    expect(invalid.status).toBe(400); // malformed: not a 2-letter state
    expect(invalid.body?.errors?.map((e) => e.field)).toContain('state');

    const gone = await pro.delete('/v1/webhooks/{id}', { params: { id: 'whe_nope' } }).catch((e: unknown) => e) as ReiiError;
    expect(gone).toBeInstanceOf(ReiiError);
    expect(gone.status).toBe(404);
    expect(srv.logs.some((l) => l['route'] === 'DELETE /v1/webhooks/{id}' && l['status'] === 404)).toBe(true);
  });

  // review 15 #9: an export file went through JSON.parse and came back null.
  test('an export file comes back as it was sent: CSV as text, Parquet as bytes (each its manifest sha256), a range as its part', async () => {
    const client = createClient({ baseUrl: srv.url, key: srv.key('scale') });
    const manifest = (await (await srv.get('/v1/export', srv.key('scale'))).json()) as { files: { dataset: string; format: string; sha256: string }[] };
    const sha = (format: string): string => manifest.files.find((f) => f.dataset === 'cities' && f.format === format)!.sha256;
    const parquet: FileBody = await client.get('/v1/export/{dataset}', { params: { dataset: 'cities' }, query: { format: 'parquet' } });
    expect(parquet).toBeInstanceOf(Uint8Array);
    expect(crypto.createHash('sha256').update(parquet).digest('hex')).toBe(sha('parquet'));
    const csv = await client.get('/v1/export/{dataset}', { params: { dataset: 'cities' }, query: { format: 'csv' } });
    expect(typeof csv).toBe('string');
    expect(crypto.createHash('sha256').update(csv as string).digest('hex')).toBe(sha('csv'));
    const partial = await client.get('/v1/export/{dataset}', { params: { dataset: 'cities' }, query: { format: 'csv' }, headers: { Range: 'bytes=0-9' } });
    expect(partial).toBe((csv as string).slice(0, 10));
  });

  test('the types refuse a path the API does not have and a query parameter an endpoint does not take', () => {
    const client = createClient({ baseUrl: srv.url });
    // @ts-expect-error not a path of the API
    const wrongPath = (): unknown => client.get('/v1/nope');
    // @ts-expect-error geo lookup has no `town` parameter
    const wrongParam = (): unknown => client.get('/v1/geo/lookup', { query: { town: 'Seattle' } });
    expect([typeof wrongPath, typeof wrongParam]).toEqual(['function', 'function']);
  });
});
