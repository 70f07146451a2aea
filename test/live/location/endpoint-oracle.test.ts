// Location risk against an independent oracle (test/helpers/oracle-location.ts: the raw FEMA, EPA, NRI and Gazetteer
// files and the formula of warehouse/docs/location.md), over HTTP on the shared real build: GET ?zip= (the zip
// shards), every zip shard on disk, and GET ?lat=&lng= (the live module).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destination } from '@turf/turf';
import { artifactsDir, readShard } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { type Body, BELMONT, CAMBRIDGE, interiorPoint, readFeatures, ANSWER_FIELDS } from '../../helpers/location-truth.ts';
import { type Expected, type LocationOracle, locationOracle, MILE } from '../../helpers/oracle-location.ts';

/** The zips compared over HTTP: every zip a flood map touches, and zips without a map (several kinds). */
function oracleZips(oracle: LocationOracle): string[] {
  // every zip the oracle finds touched by a map (Cambridge, Belmont County and the neighbours whose area reaches a polygon)
  const mapped = oracle.zips.filter((z) => oracle.zipFlood(z).maps.size > 0).map((z) => z.zip);
  const cambridge = oracle.zips.filter((z) => z.city === 'Cambridge' && z.state === 'MA').map((z) => z.zip);
  const belmont = oracle.zips.filter((z) => z.county === '39013').map((z) => z.zip);
  expect(cambridge.length).toBeGreaterThanOrEqual(5);
  expect(belmont.length).toBeGreaterThanOrEqual(10);
  // no map: Lawrence KS, Seattle, Hartford CT, Wilmington DE, Washington DC and Providence RI (ZCTA polygons),
  // Somerville MA; and zips with Superfund sites around them
  const others = ['66044', '98103', '06103', '19801', '20001', '02903', '02143', '07105', '08103', '55421', '97217'];
  // Connecticut (planning-region counties: the NRI score of the old county) and Valdez AK (a census area made in 2019)
  const nriCounty = ['06820', '06902', '06010', '06473', '06001', '06913', '06094', '99686', '99588'];
  return [...new Set([...cambridge, ...belmont, ...mapped, ...others, ...nriCounty])].sort();
}

/** The points compared over HTTP, each with why it is there. */
function oraclePoints(oracle: LocationOracle): [number, number, string][] {
  const points: [number, number, string][] = [];
  // an interior point of every feature of both maps (each zone class of each map)
  for (const file of [CAMBRIDGE, BELMONT]) {
    readFeatures(file).forEach((f, i) => { const p = interiorPoint(f); if (p) points.push([p[0], p[1], `${file} feature ${i}`]); });
  }
  // Cambridge squares (in the declared area, outside the polygons) and neighbours outside it
  points.push([42.3736, -71.119, 'Harvard Square'], [42.3652, -71.1037, 'Central Square'], [42.3884, -71.1191, 'Porter Square'],
    [42.3796, -71.0935, 'Somerville'], [42.3601, -71.124, 'Allston'], [42.396, -71.156, 'Belmont MA']);
  // Belmont County points inside the map's box but outside all its polygons (a complete layer: D there)
  let seed = 4242;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0, found = 0; i < 5000 && found < 3; i++) {
    const lat = 39.85 + rnd() * 0.32, lng = -81.24 + rnd() * 0.54;
    if (!oracle.polygonAt(lat, lng)) { points.push([lat, lng, 'Belmont box, no polygon']); found++; }
  }
  // no map: Lawrence KS, Seattle, Hartford and Darien CT (the old county's NRI score), Wilmington DE and Providence RI
  // (ZCTA polygons), Adak AK (a huge zip near the antimeridian); points whose nearest zip centroid is a PO-box zip's
  // (02238 Cambridge, 84199 Salt Lake City: GeoNames' points), which is never a point's zip
  points.push([38.9717, -95.2353, 'Lawrence KS'], [47.6062, -122.3321, 'Seattle'], [41.7637, -72.6851, 'Hartford CT'],
    [41.0768, -73.4853, 'Darien CT'], [39.7447, -75.5484, 'Wilmington DE'], [41.824, -71.4128, 'Providence RI'], [51.88, -176.65, 'Adak AK'],
    [42.37, -71.1, 'PO-box centroid, Cambridge'], [40.7259, -111.9394, 'PO-box centroid, Salt Lake City']);
  // an isolated counted site: 0.5 and 0.98 mi away (counted), 1.02 and 1.5 mi (not); and the middle of a cluster
  const lonely = oracle.sites.find((s) => s.lat > 30 && s.lng < -80 && oracle.sitesWithin(s.lat, s.lng, 5 * MILE).length === 1)!;
  for (const [mi, bearing] of [[0.5, 10], [0.98, 100], [1.02, 190], [1.5, 280]] as const) {
    const [lng, lat] = destination([lonely.lng, lonely.lat], mi, bearing, { units: 'miles' }).geometry.coordinates as [number, number];
    points.push([lat, lng, `${mi} mi from a lone site`]);
  }
  const cluster = oracle.sites.find((s) => oracle.sitesWithin(s.lat, s.lng, MILE).length >= 3)!;
  points.push([cluster.lat, cluster.lng, 'a cluster of sites']);
  // edge values: the poles and the antimeridian, mid-ocean, (0, 0): no zip reaches them
  points.push([90, 180, 'north pole'], [-90, -180, 'south pole'], [30, -40, 'mid-Atlantic'], [0, 0, 'null island']);
  return points;
}

describe('location risk against an independent oracle (raw files, the documented formula), over HTTP', () => {
  let oracle: LocationOracle;
  let server: TestServer;
  let key: string;
  let zipCases: { zip: string; want: Expected }[];
  let pointCases: { lat: number; lng: number; label: string; want: Expected | null }[];
  beforeAll(async () => {
    oracle = await locationOracle();
    // every expected answer is worked out before the server starts: it shares this process, and a long synchronous
    // stretch between requests would hold its keep-alive timers (a stale pooled connection, ECONNRESET)
    zipCases = oracleZips(oracle).map((zip) => ({ zip, want: oracle.expectedZip(zip) }));
    pointCases = oraclePoints(oracle).map(([lat, lng, label]) => ({ lat, lng, label, want: oracle.expectedPoint(lat, lng) }));
    server = await startTestServer(artifactsDir());
    key = server.key('starter', 100_000);
  });
  afterAll(async () => { await server?.close(); });

  const get = async (query: string): Promise<{ status: number; body: Body }> => {
    const r = await server.get(`/v1/location/risk?${query}`, key);
    return { status: r.status, body: (await r.json()) as Body };
  };
  // the additive superfund_basis and sems_non_npl_count_1mi are checked in superfund-basis.test.ts
  const spec = (b: Body): Expected => {
    // flood_map_loaded (additive): test/api/location-flood-map.test.ts
    const { flood_risk_notes: _notes, superfund_basis: _basis, sems_non_npl_count_1mi: _sems, flood_map_loaded: _loaded, ...rest } = b as Body & { superfund_basis?: string; sems_non_npl_count_1mi?: number | null; flood_map_loaded?: boolean };
    return rest;
  };

  it('the oracle reads what the docs describe: 1,374 counted NPL sites, the NRI county table, a floodplain-only and a complete map', () => {
    expect(oracle.sites).toHaveLength(1374); // location.md: 1,326 final + 48 proposed
    expect(oracle.nri.size).toBeGreaterThan(3000);
    expect(oracle.pieces.filter((p) => p.map === 0).map((p) => p.cls.key).sort()).toEqual(expect.arrayContaining(['AE', 'X-shaded']));
    expect(oracle.pieces.some((p) => p.map === 0 && p.cls.key === 'X-minimal')).toBe(false); // Cambridge: floodplains only
    expect(oracle.pieces.some((p) => p.map === 1 && p.cls.key === 'X-minimal')).toBe(true); // Belmont: a complete layer
    expect(oracle.polygons.size).toBeGreaterThan(150); // DE, DC, RI
  });

  it('GET ?zip= equals the oracle for Cambridge MA and Belmont County OH zips (flood maps), their neighbours and zips without a map', async () => {
    const seen = { zones: new Set<string>(), oldCounty: 0, successor: 0, sites: 0, medium: 0, low: 0 };
    const bad: string[] = [];
    for (const { zip, want } of zipCases) {
      const { status, body } = await get(`zip=${zip}`);
      expect(status, zip).toBe(200);
      if (JSON.stringify(spec(body)) !== JSON.stringify(want)) bad.push(`${zip}: got ${JSON.stringify(spec(body))}, oracle ${JSON.stringify(want)}`);
      expect(Object.keys(body)).toEqual(ANSWER_FIELDS);
      if (want.flood_zone === 'D') expect(body.flood_risk_notes, zip).toMatch(/undetermined/);
      seen.zones.add(want.flood_zone);
      if (want.confidence !== 'high') seen[want.confidence as 'medium' | 'low']++;
      if (want.superfund_count_1mi > 0) seen.sites++;
      const z = oracle.byZip.get(zip)!;
      if (z.state === 'CT' && z.nriCounty && z.nriCounty < '09100' && want.environmental_risk_score > 0) seen.oldCounty++;
      if (z.nriCounty === '02261') seen.successor++;
    }
    expect(bad).toEqual([]);
    // the comparison exercised every branch of the formula
    expect(zipCases.length).toBeGreaterThan(50);
    expect([...seen.zones].sort()).toEqual(expect.arrayContaining(['AE', 'D', 'X']));
    expect(seen.medium).toBeGreaterThan(0);
    expect(seen.low).toBeGreaterThan(0);
    expect(seen.sites).toBeGreaterThan(3);
    expect(seen.oldCounty).toBeGreaterThanOrEqual(8); // CT zips scored with their old county's NRI score
    expect(seen.successor).toBe(2);
  });

  it('every zip shard (the ?zip= body) equals the oracle: flood zone, Superfund count, NRI, score, confidence, as_of', async () => {
    const bad: string[] = [];
    let compared = 0, withSites = 0, polygonZips = 0, polygonWithSites = 0;
    for (const z of oracle.zips) {
      // the server shares this process: let its timers (and the HTTP client's keep-alive expiry) run between chunks
      if (compared % 2000 === 0) await new Promise((r) => setImmediate(r));
      const want = oracle.expectedZip(z.zip);
      const got = spec(readShard<Body>(`location/zip/${z.zip}.json`));
      if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${z.zip}: got ${JSON.stringify(got)}, oracle ${JSON.stringify(want)}`);
      compared++;
      if (want.superfund_count_1mi > 0) withSites++;
      if (oracle.polygons.has(z.zip)) { polygonZips++; if (want.superfund_count_1mi > 0) polygonWithSites++; }
    }
    expect(bad.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(40_000);
    expect(withSites).toBeGreaterThan(1000);
    // DE, DC and RI zips: Superfund sites within a mile of the ZCTA polygon (turf, geodesic) rather than of a disk
    expect(polygonZips).toBeGreaterThan(150);
    expect(polygonWithSites).toBeGreaterThan(20);
  });

  it('GET ?lat=&lng= equals the oracle: every flood polygon, outside them, unmapped places, around Superfund sites, edge values', async () => {
    const seen = { X: 0, AE: 0, A: 0, D: 0, sites: 0, missing: 0, clusters: 0 };
    const bad: string[] = [];
    for (const { lat, lng, label, want } of pointCases) {
      const { status, body } = await get(`lat=${lat}&lng=${lng}`);
      if (!want) {
        expect(status, label).toBe(404);
        expect((body as unknown as { message: string }).message, label).toMatch(/outside coverage/);
        seen.missing++;
        continue;
      }
      expect(status, label).toBe(200);
      if (JSON.stringify(spec(body)) !== JSON.stringify(want)) bad.push(`${label} (${lat}, ${lng}): got ${JSON.stringify(spec(body))}, oracle ${JSON.stringify(want)}`);
      if (want.flood_zone in seen) seen[want.flood_zone as 'X' | 'AE' | 'A' | 'D']++;
      if (want.superfund_count_1mi > 0) seen.sites++;
      if (want.superfund_count_1mi >= 3) seen.clusters++;
    }
    expect(bad).toEqual([]);
    // every kind of point was asked: both maps' zones, unmapped places, sites near and far, four places no zip reaches
    expect(seen).toMatchObject({ missing: 4, clusters: 1 });
    for (const k of ['X', 'AE', 'A', 'D', 'sites'] as const) expect(seen[k], k).toBeGreaterThan(0);
    expect(pointCases.find((c) => c.label === '0.98 mi from a lone site')!.want!.superfund_count_1mi).toBe(1);
    expect(pointCases.find((c) => c.label === '1.02 mi from a lone site')!.want!.superfund_count_1mi).toBe(0);
  });
});
