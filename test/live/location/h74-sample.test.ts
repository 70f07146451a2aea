// A seeded random audit of GET /v1/location/risk over a real server, against the independent oracle of
// test/helpers/oracle-location.ts (the raw FEMA GeoJSON files with turf, EPA's npl_sites.csv with its own haversine, the
// Gazetteer, the NRI table, the formula of warehouse/docs/location.md). Per market, 20 points drawn by mulberry32 with a
// fixed seed in the market's box and 20 of its zips; 20 NPL sites, each asked at a seeded bearing and distance (the
// count within 1 mile recomputed from EPA's coordinates); and the zips whose notes name a site EPA lists at an address
// in the zip beyond the 1-mile count: the distance each note gives is the haversine from the zip's point to EPA's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destination } from '@turf/turf';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { type Body } from '../../helpers/location-truth.ts';
import { type Expected, type LocationOracle, locationOracle, MILE } from '../../helpers/oracle-location.ts';
import { rng } from '../../../scripts/rng.ts';

const SEED = 0x74100;
/** Each market's box (south, west, north, east) and how its zips are told: the two flood maps' areas and the sales markets. */
const MARKETS: { name: string; box: [number, number, number, number]; zip: (z: { city: string; state: string; county: string | null }) => boolean }[] = [
  { name: 'Cambridge MA (FEMA map)', box: [42.352, -71.16, 42.404, -71.064], zip: (z) => z.state === 'MA' && ['Cambridge', 'Somerville', 'Boston', 'Watertown', 'Belmont', 'Arlington'].includes(z.city) },
  { name: 'Belmont County OH (FEMA map: the Bridgeport study it is clipped to, location.md "Mapped area")', box: [40.0387, -80.7555, 40.0851, -80.7311], zip: (z) => z.county === '39013' },
  { name: 'King County WA', box: [47.3, -122.45, 47.78, -121.95], zip: (z) => z.county === '53033' },
  { name: 'New York City', box: [40.55, -74.15, 40.9, -73.75], zip: (z) => ['36005', '36047', '36061', '36081', '36085'].includes(z.county ?? '') },
  { name: 'Philadelphia', box: [39.9, -75.25, 40.1, -75.0], zip: (z) => z.county === '42101' },
  { name: 'Sacramento', box: [38.45, -121.55, 38.7, -121.3], zip: (z) => z.county === '06067' },
  { name: 'Denver', box: [39.62, -105.1, 39.8, -104.85], zip: (z) => z.county === '08031' },
  { name: 'Hartford CT', box: [41.7, -72.75, 41.82, -72.62], zip: (z) => z.state === 'CT' && ['Hartford', 'West Hartford', 'East Hartford', 'Wethersfield', 'Newington'].includes(z.city) },
];
const PER = 20;

function pick<T>(all: T[], n: number, rand: () => number): T[] {
  const left = [...all];
  const out: T[] = [];
  while (out.length < n && left.length) out.push(left.splice(Math.floor(rand() * left.length), 1)[0]!);
  return out;
}
const spec = (b: Body): Expected => {
  const { flood_risk_notes: _n, superfund_basis: _b, sems_non_npl_count_1mi: _s, flood_map_loaded: _l, ...rest } = b as Body & Record<string, unknown>;
  return rest;
};

describe('location risk: a seeded sample of points and zips per market against the raw FEMA and EPA files (h74)', () => {
  let oracle: LocationOracle;
  let server: TestServer;
  let key: string;
  const rand = rng(SEED);
  const points: { lat: number; lng: number; label: string; want: Expected | null }[] = [];
  const zips: { zip: string; market: string; want: Expected }[] = [];
  const nearSites: { lat: number; lng: number; label: string; want: Expected | null; count: number }[] = [];
  const beyond: { zip: string; sites: { epa_id: string; name: string; distance: number }[] }[] = [];

  beforeAll(async () => {
    oracle = await locationOracle();
    // every expectation is worked out before the server (in this process) starts answering
    for (const m of MARKETS) {
      const [s, w, n, e] = m.box;
      for (let i = 0; i < PER; i++) {
        const lat = Number((s + rand() * (n - s)).toFixed(6)), lng = Number((w + rand() * (e - w)).toFixed(6));
        points.push({ lat, lng, label: `${m.name} point ${i}`, want: oracle.expectedPoint(lat, lng) });
      }
      const mine = oracle.zips.filter((z) => m.zip(z)).map((z) => z.zip).sort();
      expect(mine.length, m.name).toBeGreaterThanOrEqual(5);
      for (const zip of pick(mine, PER, rand)) zips.push({ zip, market: m.name, want: oracle.expectedZip(zip) });
    }
    // around seeded NPL sites: a bearing and a distance of 0.2 to 1.8 miles; a point within 5 m of a mile from any site
    // is left out (the coordinate's 6 decimals decide it)
    for (const site of pick([...oracle.sites].sort((a, b) => a.epa_id.localeCompare(b.epa_id)), PER, rand)) {
      const miles = 0.2 + rand() * 1.6, bearing = rand() * 360 - 180;
      const [lng0, lat0] = destination([site.lng, site.lat], miles, bearing, { units: 'miles' }).geometry.coordinates as [number, number];
      const lat = Number(lat0.toFixed(6)), lng = Number(lng0.toFixed(6));
      if (oracle.sitesWithin(lat, lng, MILE + 5).length !== oracle.sitesWithin(lat, lng, MILE - 5).length) continue;
      nearSites.push({ lat, lng, label: `${miles.toFixed(2)} mi from ${site.epa_id}`, want: oracle.expectedPoint(lat, lng), count: oracle.sitesWithin(lat, lng, MILE).length });
    }
    const named = oracle.zips.filter((z) => z.lat !== null).map((z) => ({ zip: z.zip, sites: oracle.zipSites(z.zip).addressBeyond })).filter((z) => z.sites.length > 0);
    beyond.push(...pick(named.sort((a, b) => a.zip.localeCompare(b.zip)), PER, rand));
    server = await startTestServer(artifactsDir());
    key = server.key('starter', 100_000);
  });
  afterAll(async () => { await server?.close(); });

  const get = async (query: string): Promise<{ status: number; body: Body }> => {
    const r = await server.get(`/v1/location/risk?${query}`, key);
    return { status: r.status, body: (await r.json()) as Body };
  };

  it('20 seeded points per market: flood zone, label, Superfund count, score, confidence and as_of equal the oracle', async () => {
    const bad: string[] = [];
    const zones = new Set<string>();
    let withSites = 0;
    for (const p of points) {
      const { status, body } = await get(`lat=${p.lat}&lng=${p.lng}`);
      if (!p.want) { expect(status, p.label).toBe(404); continue; }
      expect(status, p.label).toBe(200);
      if (JSON.stringify(spec(body)) !== JSON.stringify(p.want)) bad.push(`${p.label} (${p.lat}, ${p.lng}): got ${JSON.stringify(spec(body))}, oracle ${JSON.stringify(p.want)}`);
      zones.add(p.want.flood_zone);
      if (p.want.superfund_count_1mi > 0) withSites++;
    }
    expect(bad).toEqual([]);
    expect(points).toHaveLength(MARKETS.length * PER);
    expect([...zones].sort()).toEqual(expect.arrayContaining(['D', 'X'])); // mapped and unmapped points were asked
    expect(withSites).toBeGreaterThan(0);
  });

  it('20 seeded zips per market: the ?zip= answer equals the oracle', async () => {
    const bad: string[] = [];
    for (const z of zips) {
      const { status, body } = await get(`zip=${z.zip}`);
      expect(status, z.zip).toBe(200);
      if (JSON.stringify(spec(body)) !== JSON.stringify(z.want)) bad.push(`${z.market} ${z.zip}: got ${JSON.stringify(spec(body))}, oracle ${JSON.stringify(z.want)}`);
    }
    expect(bad).toEqual([]);
    expect(zips.length).toBeGreaterThanOrEqual(MARKETS.length * 10);
  });

  it('points around 20 seeded NPL sites: the count within 1 mile is the haversine count of EPA\'s coordinates', async () => {
    const bad: string[] = [];
    let counted = 0;
    for (const p of nearSites) {
      const { status, body } = await get(`lat=${p.lat}&lng=${p.lng}`);
      if (!p.want) { expect(status, p.label).toBe(404); continue; }
      expect(status, p.label).toBe(200);
      expect(p.want.superfund_count_1mi).toBe(p.count);
      if (JSON.stringify(spec(body)) !== JSON.stringify(p.want)) bad.push(`${p.label}: got ${JSON.stringify(spec(body))}, oracle ${JSON.stringify(p.want)}`);
      if (p.count > 0) counted++;
    }
    expect(bad).toEqual([]);
    expect(nearSites.length).toBeGreaterThanOrEqual(PER - 3);
    expect(counted).toBeGreaterThanOrEqual(3);
    expect(counted).toBeLessThan(nearSites.length); // some beyond the mile too
  });

  it('a zip\'s note names each NPL site EPA lists at its address beyond the count, at the haversine distance from the zip\'s point', async () => {
    expect(beyond.length).toBeGreaterThanOrEqual(10);
    for (const z of beyond) {
      const { status, body } = await get(`zip=${z.zip}`);
      expect(status).toBe(200);
      for (const s of z.sites) {
        const at = body.flood_risk_notes.indexOf(`(EPA ${s.epa_id}`);
        expect(at, `${z.zip} names ${s.epa_id}: ${body.flood_risk_notes}`).toBeGreaterThan(0);
        const miles = /(\d+(?:\.\d+)?) miles? from the zip's point/.exec(body.flood_risk_notes.slice(at))?.[1];
        expect({ zip: z.zip, site: s.epa_id, miles: Number(miles) }).toEqual({ zip: z.zip, site: s.epa_id, miles: Number((s.distance / MILE).toFixed(1)) });
      }
    }
  });

});
