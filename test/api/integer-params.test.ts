// An integer in a query is written in digits (api/params.ts checkValue, the one parser of every route's query): a
// reviewer's leftover was `months=1e1` answered as months=10, and "0x10", "10.0", " 10", "+10" the same way. Each is a
// 400 `type` naming the parameter, on every integer query parameter the route table declares, over a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ROUTES } from '../../api/routes.ts';
import type { ParamSpec } from '../../api/params.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); });

/** A valid value of each other parameter a route needs (a zip for the trends route's zip-or-city rule). */
const FILL: Partial<Record<ParamSpec['type'], string>> = { zip: '98103', state: 'WA', string: 'Seattle' };
const integerParams = ROUTES.filter((r) => r.method === 'GET').flatMap((r) => (r.query ?? [])
  .filter((s) => s.type === 'integer').map((s) => ({ route: r, spec: s })));

const url = (path: string, query: readonly ParamSpec[], name: string, raw: string): string => {
  const q = new URLSearchParams();
  for (const s of query) {
    if (s.name === name) continue;
    if (s.required || (s.type === 'zip' && !query.some((o) => o.required))) q.set(s.name, s.name === 'q' ? '400 broad st' : FILL[s.type] ?? '');
  }
  return `${path}?${q.toString()}&${name}=${encodeURIComponent(raw)}`;
};

describe('integer query parameters in digits only', () => {
  it('the route table has the integer parameters this test covers (months on the market routes, limit on autocomplete)', () => {
    expect(integerParams.map((p) => `${p.route.path} ${p.spec.name}`).sort()).toEqual([
      '/v1/address/autocomplete limit', '/v1/market/comps months', '/v1/market/investor-overview months',
      '/v1/market/rehab-score months', '/v1/market/trends months',
    ]);
  });

  it.each(['1e1', '0x10', '10.0', ' 10', '10 ', '+10', '1_0', '٣'])('%j is a 400 type error naming the parameter on each route', async (raw) => {
    for (const { route, spec } of integerParams) {
      const valid = spec.name === 'limit' ? '5' : '12';
      const bad = raw.replace(/10/, valid);
      const r = await srv.get(url(route.path, route.query!, spec.name, bad), key);
      const body = await r.json() as { message: string; errors?: { field: string; code: string; message: string }[] };
      expect(r.status, `${route.path} ${spec.name}=${JSON.stringify(bad)}: ${body.message}`).toBe(400);
      const e = body.errors?.find((x) => x.field === spec.name);
      expect(e?.code, `${route.path} ${spec.name}`).toBe('type');
      expect(e?.message).toMatch(new RegExp(`^${spec.name} must be a whole number written in digits`));
    }
  });

  it('the same value in digits is no 400 (the route answers it, 200 or its 404 for no data)', async () => {
    for (const { route, spec } of integerParams) {
      const r = await srv.get(url(route.path, route.query!, spec.name, spec.name === 'limit' ? '5' : '12'), key);
      expect([200, 404], `${route.path} ${spec.name}`).toContain(r.status);
    }
  });

  it('a negative whole number is well-formed, out of range (422), as before', async () => {
    const r = await srv.get('/v1/market/comps?zip=98103&months=-4', key);
    expect(r.status).toBe(422);
    expect((await r.json() as { errors: { field: string; code: string }[] }).errors).toContainEqual(expect.objectContaining({ field: 'months', code: 'range' }));
  });
});
