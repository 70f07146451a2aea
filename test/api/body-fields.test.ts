// A POST body field the route does not take is a 400 naming it and the fields the route takes, as an unknown query
// parameter is (review: {"property_type": "condo"} on King County parcel 2473370890 answered the sfr valuation, 200,
// nothing said). Every POST route: the valuation, research (and its context object), webhook registration, and the
// webhook test event, which takes no body. Over the shared real build through a real server on port 0.
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { REPO } from '../helpers/paths.ts';
import { ROUTES } from '../../api/routes.ts';

const api = serveSharedBuild('pro', 100_000);

interface Problem { message: string; errors?: { field: string; code: string; message: string }[] }
const post = async (p: string, body: unknown): Promise<{ status: number; body: Problem & Record<string, unknown> }> => {
  const res = await api.post(p, body);
  return { status: res.status, body: await res.json() as never };
};

describe('the valuation', () => {
  const parcel = { zip: '98058', address: '2473370890' }; // King County parcel 2473370890 (zip 98058 in kc_house_data)
  it('the raw row of parcel 2473370890 is in zip 98058', () => {
    const text = zlib.gunzipSync(fs.readFileSync(path.join(REPO, '..', 'shared', 'data', 'king-county-wa-house-sales', 'kc_house_data.csv.gz'))).toString('utf8');
    expect(text.split('\n').find((l) => l.startsWith('2473370890,'))?.split(',')[16]).toBe('98058');
  });
  it('"property_type": "condo" is a 400 naming it and the fields the valuation takes; without it, 200', async () => {
    const ok = await post('/v1/valuation/estimate', parcel);
    expect(ok.status).toBe(200);
    const r = await post('/v1/valuation/estimate', { ...parcel, property_type: 'condo' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'property_type', code: 'unknown', message: 'unknown body field "property_type"; this endpoint takes zip, address, sqft, beds, baths, condition' }]);
    expect(r.body.message).toContain('unknown body field "property_type"');
  });
  it('a near name says which it meant; every unknown field is named at once', async () => {
    const r = await post('/v1/valuation/estimate', { ...parcel, Sqft: 1800, bed: 3 });
    expect(r.status).toBe(400);
    expect(r.body.errors?.map((e) => e.message)).toEqual([
      'unknown body field "Sqft" (did you mean sqft?); this endpoint takes zip, address, sqft, beds, baths, condition',
      'unknown body field "bed" (did you mean beds?); this endpoint takes zip, address, sqft, beds, baths, condition',
    ]);
  });
});

describe('research', () => {
  it('a top-level "zipcode" and a "context.zipcode" are 400s naming what each object takes', async () => {
    const top = await post('/v1/research/query', { query: 'median price in 98103', zipcode: '98103' });
    expect(top.status).toBe(400);
    expect(top.body.errors).toEqual([{ field: 'zipcode', code: 'unknown', message: 'unknown body field "zipcode"; this endpoint takes query, context, depth' }]);
    const inner = await post('/v1/research/query', { query: 'median price', context: { zipcode: '98103', city: 'Seattle' } });
    expect(inner.status).toBe(400);
    expect(inner.body.errors).toEqual([{ field: 'context.zipcode', code: 'unknown', message: 'unknown body field "context.zipcode"; context takes zip, city, state, period' }]);
    expect((await post('/v1/research/query', { query: 'median price', context: { zip: '98103' }, depth: 'quick' })).status).toBe(200);
  });
});

describe('webhooks', () => {
  it('registration: a "secret" sent is a 400 naming url, events, description', async () => {
    const r = await post('/v1/webhooks', { url: 'https://hooks.example.com/reii', events: ['build.published'], secret: 'whsec_mine' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'secret', code: 'unknown', message: 'unknown body field "secret"; this endpoint takes url, events, description' }]);
  });
  it('the test event takes no body: a field sent is a 400; an empty body or {} reaches the endpoint (404, no such endpoint)', async () => {
    const r = await post('/v1/webhooks/wh_AbCdEfGh1234/test', { event: 'build.published' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'event', code: 'unknown', message: 'unknown body field "event"; this endpoint takes no body fields' }]);
    for (const body of ['', '{}']) expect((await post('/v1/webhooks/wh_AbCdEfGh1234/test', body)).status).toBe(404);
  });
});

it('every POST route of the table is one of those above', () => {
  expect(ROUTES.filter((r) => r.method === 'POST').map((r) => r.path).sort()).toEqual(['/v1/research/query', '/v1/valuation/estimate', '/v1/webhooks', '/v1/webhooks/{id}/test']);
});
