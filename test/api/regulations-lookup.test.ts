// GET /v1/regulations/lookup (a shard route of api/routes.ts) on a real server over the shared real build: city,
// category and subcategory filters, the 422 that lists allowed subcategories, the weak ETag and 304, the 100-record cap.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';
import { CATEGORIES, rec } from '../helpers/legal-fixtures.ts';
import { publish } from '../../pipelines/publish.ts';
import { FORMAT_VERSION } from '../../warehouse/layout.ts';
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';

describe('GET /v1/regulations/lookup', () => {
  let srv: TestServer;
  let key: string;
  beforeAll(async () => {
    srv = await startTestServer(artifactsDir());
    key = srv.key('pro');
  });
  afterAll(async () => { await srv.close(); });

  async function lookup(q: string): Promise<RegulationRecord[]> {
    const res = await srv.get(`/v1/regulations/lookup?${q}`, key);
    expect(res.status, q).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    const body = (await res.json()) as RegulationRecord[];
    expect(schemaErrors('RegulationList', body)).toEqual([]);
    return body;
  }

  test('city is a case-insensitive partial match', async () => {
    const lower = await lookup('state=CA&city=francisco');
    expect(lower.length).toBeGreaterThanOrEqual(2);
    expect(lower.every((r) => r.city === 'San Francisco')).toBe(true);
    expect(await lookup('state=CA&city=FRANCISCO')).toEqual(lower);
  });

  test('category, subcategory, jurisdiction_level and county_fips filter; most specific first', async () => {
    const rc = await lookup('state=CA&category=rent_control');
    expect(rc.every((r) => r.category === 'rent_control')).toBe(true);
    expect(rc[0]!.jurisdiction_level).toBe('city');
    expect(rc.at(-1)!.jurisdiction_level).toBe('state');
    const cap = await lookup('state=CA&category=rent_control&subcategory=statewide_cap');
    expect(cap.map((r) => r.id)).toEqual(['ca-rent-control-statewide-cap']);
    const county = await lookup('state=CA&jurisdiction_level=county');
    expect(county.map((r) => r.id)).toEqual(['ca-county-los-angeles-rent-stabilization']);
    const mont = await lookup('state=MD&county_fips=24031');
    expect(mont.length).toBeGreaterThanOrEqual(2);
    expect(mont.every((r) => r.county_fips === '24031')).toBe(true);
    expect(mont[0]!.jurisdiction_level).toBe('city');
    const state = await lookup('state=TX');
    expect(state.every((r) => r.status === 'active' && r.state_code === 'TX')).toBe(true);
    expect(new Set(state.map((r) => r.category))).toEqual(new Set(CATEGORIES));
  });

  test('an unknown subcategory, or one of another category, is a 422 that lists the allowed values', async () => {
    const bad = async (q: string): Promise<string> => {
      const res = await srv.get(`/v1/regulations/lookup?${q}`, key);
      expect(res.status, q).toBe(422);
      const body = (await res.json()) as { errors: { field: string; code: string; message: string }[] };
      expect(body.errors.map((e) => e.field), q).toEqual(['subcategory']);
      return body.errors[0]!.message;
    };
    const unknown = await bad('state=TX&subcategory=nonpayment_notic');
    expect(unknown).toMatch(/unknown subcategory "nonpayment_notic"/);
    expect(unknown).toMatch(/nonpayment_notice/); // the allowed list
    const mismatch = await bad('state=TX&category=foreclosure&subcategory=nonpayment_notice');
    expect(mismatch).toMatch(/"nonpayment_notice" is not a subcategory of foreclosure; allowed for foreclosure: .*process/);
    expect(mismatch).not.toMatch(/security_deposit/);
    expect((await bad('state=TX&category=eviction&subcategory=nope'))).toMatch(/allowed for eviction: .*nonpayment_notice/);
    // every documented subcategory of a category is accepted
    expect((await lookup('state=TX&category=eviction&subcategory=nonpayment_notice')).map((r) => r.id)).toEqual(['tx-eviction-nonpayment-notice']);
    expect((await lookup('state=TX&subcategory=nonpayment_notice')).map((r) => r.id)).toEqual(['tx-eviction-nonpayment-notice']);
  });

  test('a county_fips of another state is a 422 naming both states, not an empty list', async () => {
    const res = await srv.get('/v1/regulations/lookup?state=CA&county_fips=36061', key);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: { field: string; code: string; message: string }[] };
    expect(body.errors).toEqual([{ field: 'county_fips', code: 'conflict', message: 'county 36061 is in NY (state FIPS 36), not in CA (06)' }]);
    expect((await srv.get('/v1/regulations/lookup?state=CA&county_fips=99001', key)).status).toBe(422); // no state has FIPS 99
    expect((await lookup('state=CA&county_fips=06037')).every((r) => r.county_fips === '06037')).toBe(true); // Los Angeles County
  });

  test('a weak ETag from the shard and the query; If-None-Match answers 304', async () => {
    const a = await srv.get('/v1/regulations/lookup?state=CA&category=rent_control', key);
    expect(a.status).toBe(200);
    const etag = a.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    expect(a.headers.get('last-modified')).toBeTruthy();
    const body = await a.json();
    // the same query normalised (parameter order, city case and spaces) has the same tag; another query another
    const same = await srv.get('/v1/regulations/lookup?category=rent_control&state=CA', key);
    expect(same.headers.get('etag')).toBe(etag);
    expect(await same.json()).toEqual(body);
    const cityA = await srv.get('/v1/regulations/lookup?state=CA&city=Francisco', key);
    const cityB = await srv.get('/v1/regulations/lookup?state=CA&city=%20francisco%20', key);
    expect(cityB.headers.get('etag')).toBe(cityA.headers.get('etag'));
    const other = await srv.get('/v1/regulations/lookup?state=CA&category=eviction', key);
    expect(other.headers.get('etag')).not.toBe(etag);
    const tx = await srv.get('/v1/regulations/lookup?state=TX&category=rent_control', key);
    expect(tx.headers.get('etag')).not.toBe(etag);
    // conditional requests
    const nm = await srv.get('/v1/regulations/lookup?state=CA&category=rent_control', key, { 'If-None-Match': etag });
    expect(nm.status).toBe(304);
    expect(nm.headers.get('etag')).toBe(etag);
    expect(nm.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(await nm.text()).toBe('');
    expect((await srv.get('/v1/regulations/lookup?state=CA&category=rent_control', key, { 'If-None-Match': `W/"x", ${etag}` })).status).toBe(304);
    const changed = await srv.get('/v1/regulations/lookup?state=CA&category=eviction', key, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(schemaErrors('RegulationList', await changed.json())).toEqual([]);
  });

  test('answers at most 100 records', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-regs-max-'));
    const dir = path.join(artifacts, 'builds', 'b1');
    fs.mkdirSync(path.join(dir, 'shards', 'regulations'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ format_version: FORMAT_VERSION, build_id: 'b1', as_of: '2026-11-21', built_at: '2026-11-21T06:00:00Z' }));
    const many = Array.from({ length: 150 }, (_, i) => rec('TX', 'zoning', 'enabling_authority', { zoning_is_local: true, enabling_statute_cited: true }, { id: `tx-zoning-${i}` }));
    fs.writeFileSync(path.join(dir, 'shards', 'regulations', 'TX.json'), JSON.stringify(many));
    publish(artifacts, dir);
    const other = await startTestServer(artifacts);
    try {
      const res = await other.get('/v1/regulations/lookup?state=TX', other.key('pro'));
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(100);
    } finally {
      await other.close();
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  });
});
