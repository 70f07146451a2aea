// The route table's own rules (api/routes.ts) over a real server on the shared build: which shard a parameter
// selects, defaults, cross-field checks, the regulations filters and the uncovered-territory answer. The live
// modules are not loaded (quick start; their absence is itself a documented 404). Oracles: the contract's
// parameter rules and defaults, the documented subcategories (warehouse/regulations/SCHEMA.md), and for the
// filters, the unfiltered answer of the same state filtered here by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../../api/server.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { KeyStore } from '../../api/keys.ts';

let srv: RunningServer;
let state: string;
let key: string;
let buildId: string;

beforeAll(async () => {
  state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-routes-unit-'));
  key = new KeyStore(state).create({ plan: 'enterprise', name: 'routes', rpm: null }).key;
  buildId = (JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { build_id: string }).build_id;
  const settings = loadSettings({ artifacts: artifactsDir(), state, port: '0', host: '127.0.0.1', redisUrl: '' });
  srv = await startServer({ settings, accessLog: () => {}, log: () => {}, live: [] });
});
afterAll(async () => {
  await srv?.close();
  fs.rmSync(state, { recursive: true, force: true });
});

async function get<T = Record<string, unknown>>(p: string): Promise<{ status: number; body: T }> {
  const r = await fetch(srv.url + p, { headers: { 'X-Service-Key': key } });
  return { status: r.status, body: (await r.json()) as T };
}
type Problem = { message: string; errors?: { field: string; code: string; message: string }[] };

describe('territories the service does not cover', () => {
  test('every state-keyed endpoint answers a USPS territory with 404 naming it', async () => {
    for (const p of ['/v1/regulations/lookup?state=GU', '/v1/market/investor-overview?city=Hagatna&state=GU', '/v1/geo/lookup?city=Hagatna&state=GU',
      '/v1/geo/markets?state=GU', '/v1/legal/market-legal-risk?state=GU&city=Hagatna', '/v1/legal/landlord-profile?state=GU', '/v1/legal/tax-sale?state=GU']) {
      const r = await get<Problem>(p);
      expect(r.status, p).toBe(404);
      expect(r.body.message, p).toBe('GU is not covered: the service covers the 50 states and DC');
    }
  });
});

describe('parameters select the answer', () => {
  test('comps: property_type selects the type (default sfr); the 404 names the zip no sales source covers', async () => {
    const condo = await get('/v1/market/comps?zip=98103&property_type=condo');
    expect(condo.status).toBe(200);
    expect(condo.body).toMatchObject({ zip_code: '98103', property_type: 'condo' });
    const dflt = await get('/v1/market/comps?zip=98103');
    expect(dflt.body).toMatchObject({ zip_code: '98103', property_type: 'sfr' });
    const none = await get<Problem>('/v1/market/comps?zip=59801&property_type=land'); // a real zip (00001 is outside coverage: review 24 C)
    expect(none.status).toBe(404);
    expect(none.body.message).toMatch(/^No sales source covers zip 59801: /); // no source covers the zip: not "no land sales"
  });

  test('rehab: months selects the lookback (default 6); investor overview: default 12', async () => {
    const rehab = async (q: string): Promise<unknown> => (await get(`/v1/market/rehab-score?zip=37206${q}`)).body['rehab_momentum_score'];
    const [d, six, twelve, tf] = await Promise.all([rehab(''), rehab('&months=6'), rehab('&months=12'), rehab('&months=24')]);
    expect(d).toBe(six);
    expect(new Set([six, twelve, tf]).size).toBeGreaterThan(1); // the lookback changes the score
    const inv = async (q: string): Promise<unknown> => JSON.stringify((await get(`/v1/market/investor-overview?city=Denver&state=CO${q}`)).body);
    const [id, i6, i12] = await Promise.all([inv(''), inv('&months=6'), inv('&months=12')]);
    expect(id).toBe(i12);
    expect(i6).not.toBe(i12);
    const none = await get<Problem>('/v1/market/rehab-score?zip=59801'); // Missoula, MT (00001: outside coverage)
    expect(none.body.message).toMatch(/^No renovation data for zip 59801: no building permit source and no sales source/);
    // no place resolver loaded: the name is taken as given, and no source records a sale or filing there
    expect((await get<Problem>('/v1/market/investor-overview?city=Nowhere&state=CO')).body.message).toMatch(/^No investor data for Nowhere, CO: no sales source and no distress filing source/);
  });

  test('geo markets: tier keeps that tier only; the full list is every tier', async () => {
    const all = await get<{ count: number; markets: { market_tier: string; is_investor_active: boolean }[] }>('/v1/geo/markets?state=TX');
    const rural = await get<{ count: number; markets: { market_tier: string }[] }>('/v1/geo/markets?state=TX&tier=rural');
    expect(rural.status).toBe(200);
    expect(rural.body.count).toBeGreaterThan(0);
    expect(rural.body.markets.every((m) => m.market_tier === 'rural')).toBe(true);
    expect(rural.body.count).toBe(all.body.markets.filter((m) => m.market_tier === 'rural').length);
    expect(new Set(all.body.markets.map((m) => m.market_tier)).size).toBeGreaterThan(1);
    const active = await get<{ count: number; markets: { is_investor_active: boolean }[] }>('/v1/geo/markets?state=TX&investor_active=true');
    expect(active.body.count).toBe(all.body.markets.filter((m) => m.is_investor_active).length);
    const inactive = await get<{ count: number }>('/v1/geo/markets?state=TX&investor_active=false');
    expect(inactive.body.count).toBe(all.body.count); // false is "no filter", as documented
  });

  test('landlord profile: with a city the city\'s profile, without one the state\'s; 404 messages name what was asked', async () => {
    const city = await get('/v1/legal/landlord-profile?state=CA&city=Acton');
    expect(city.status).toBe(200);
    expect(city.body).toMatchObject({ state: 'CA', city: 'Acton' });
    const st = await get('/v1/legal/landlord-profile?state=CA');
    expect(st.body).toMatchObject({ state: 'CA', city: null });
    expect((await get<Problem>('/v1/legal/landlord-profile?state=CA&city=Nowhereville')).body.message).toBe('No landlord profile for Nowhereville, CA');
  });

  test('a city name with nothing to look up (slugs to nothing) is a clean 404, not an error', async () => {
    const r = await get<Problem>('/v1/geo/lookup?state=WA&city=%21%21%21');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('No city named !!! in WA');
    expect((await get<Problem>('/v1/legal/market-legal-risk?state=CA&city=Nowhereville')).body.message).toBe('No legal risk data for Nowhereville, CA');
    expect((await get<Problem>('/v1/geo/lookup?state=WA&city=Nowhereville')).body.message).toBe('No city named Nowhereville in WA');
  });

  test('location: zip, or lat and lng together; live lookups missing from a build are a 404 naming the build', async () => {
    const none = await get<Problem>('/v1/location/risk');
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([{ field: 'zip', code: 'required', message: 'give zip, or lat and lng' }]);
    expect((await get<Problem>('/v1/location/risk?lat=42.37')).body.errors).toEqual([{ field: 'lng', code: 'required', message: 'lat and lng go together' }]);
    expect((await get<Problem>('/v1/location/risk?lng=-71.1')).body.errors).toEqual([{ field: 'lat', code: 'required', message: 'lat and lng go together' }]);
    const point = await get<Problem>('/v1/location/risk?lat=42.37&lng=-71.1');
    expect(point.status).toBe(404);
    expect(point.body.message).toBe(`location data is not available in build ${buildId}`);
    const ac = await get<Problem>('/v1/address/autocomplete?q=3526%20HIGH');
    expect(ac.body.message).toBe(`autocomplete data is not available in build ${buildId}`);
    expect((await get('/v1/location/risk?zip=02139')).status).toBe(200);
    // a zip and a point may name different places: neither silently wins
    const both = await get<Problem>('/v1/location/risk?zip=98103&lat=40&lng=-75');
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([{ field: 'zip', code: 'conflict', message: 'give zip, or lat and lng, not both' }]);
  });
});

describe('regulations lookup', () => {
  type Reg = { category: string; subcategory: string; jurisdiction_level: string; county_fips: string | null; city: string | null; status: string };
  let all: Reg[];
  beforeAll(async () => {
    const r = await get<Reg[]>('/v1/regulations/lookup?state=CA');
    expect(r.status).toBe(200);
    all = r.body;
  });

  test('the unfiltered answer is the state\'s active records, at most 100, and mixes categories and levels', () => {
    expect(all.length).toBeGreaterThan(5);
    expect(all.length).toBeLessThanOrEqual(100);
    expect(all.every((r) => r.status === 'active')).toBe(true);
    expect(new Set(all.map((r) => r.category)).size).toBeGreaterThan(2);
    expect(new Set(all.map((r) => r.jurisdiction_level)).size).toBeGreaterThan(1);
  });

  test('each filter keeps exactly the records that match it', async () => {
    const cases: [string, (r: Reg) => boolean][] = [
      ['category=eviction', (r) => r.category === 'eviction'],
      ['category=eviction&subcategory=local_overlay', (r) => r.category === 'eviction' && r.subcategory === 'local_overlay'],
      ['subcategory=local_overlay', (r) => r.subcategory === 'local_overlay'],
      ['jurisdiction_level=city', (r) => r.jurisdiction_level === 'city'],
      ['county_fips=06037', (r) => r.county_fips === '06037'],
      // a known city: its state's records and its own by whole name (legal.md "API bodies")
      ['city=los%20ANGELES', (r) => r.jurisdiction_level === 'state' || r.city === 'Los Angeles'],
      // a name the build does not know: a record's city from the start of a word
      ['city=%20san%20', (r) => /(^|[^a-z0-9])san/.test((r.city ?? '').toLowerCase())],
      ['category=rent_control&jurisdiction_level=state', (r) => r.category === 'rent_control' && r.jurisdiction_level === 'state'],
    ];
    for (const [q, keep] of cases) {
      const r = await get<Reg[]>(`/v1/regulations/lookup?state=CA&${q}`);
      expect(r.status, q).toBe(200);
      const want = all.filter(keep);
      expect(want.length, `${q}: the case must select something and leave something out`).toBeGreaterThan(0);
      expect(want.length, q).toBeLessThan(all.length);
      expect(r.body, q).toEqual(want);
    }
  });

  test('subcategory: one of the documented ones, of the category when one is given; the 422 lists the allowed', async () => {
    const unknown = await get<Problem>('/v1/regulations/lookup?state=CA&subcategory=parking');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toHaveLength(1);
    expect(unknown.body.errors![0]).toMatchObject({ field: 'subcategory', code: 'enum' });
    expect(unknown.body.errors![0]!.message).toMatch(/^unknown subcategory "parking"; allowed: /);
    expect(unknown.body.errors![0]!.message).toContain('local_overlay');
    const wrongCat = await get<Problem>('/v1/regulations/lookup?state=CA&category=zoning&subcategory=local_overlay');
    expect(wrongCat.status).toBe(422);
    expect(wrongCat.body.errors![0]!.message).toMatch(/^"local_overlay" is not a subcategory of zoning; allowed for zoning: /);
    const unknownInCat = await get<Problem>('/v1/regulations/lookup?state=CA&category=zoning&subcategory=parking');
    expect(unknownInCat.body.errors![0]!.message).toMatch(/^unknown subcategory "parking"; allowed for zoning: /);
    const allowed = unknownInCat.body.errors![0]!.message.replace(/^.*allowed for zoning: /, '').split(', ');
    expect(allowed.length).toBeGreaterThan(0);
    for (const sub of allowed) expect((await get(`/v1/regulations/lookup?state=CA&category=zoning&subcategory=${sub}`)).status, sub).toBe(200);
  });

  test('the weak ETag depends on the query: different filters, different tags; the same query, the same tag', async () => {
    const tag = async (q: string): Promise<string | null> => (await fetch(`${srv.url}/v1/regulations/lookup?state=CA${q}`, { headers: { 'X-Service-Key': key } })).headers.get('etag');
    const a = await tag('&category=eviction');
    expect(a).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(await tag('&category=eviction')).toBe(a);
    const others = await Promise.all(['', '&category=zoning', '&category=eviction&jurisdiction_level=city', '&category=eviction&city=oakland', '&category=eviction&county_fips=06001', '&category=eviction&subcategory=local_overlay'].map(tag));
    expect(new Set([a, ...others]).size).toBe(7);
    expect(await tag('&category=eviction&city=%20OAKLAND%20')).toBe(await tag('&category=eviction&city=oakland')); // city compared case-blind
  });
});
