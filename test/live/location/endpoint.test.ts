// Location risk by point through the live module (live/location/endpoint.ts, loaded in-process over the shared real
// build's live/location/ files): flood zones against the raw FEMA polygons (turf), Superfund counts against a
// haversine in the test, zip location against the raw Gazetteer centroids and ZCTA polygons. The same endpoint over
// HTTP against the independent oracle: endpoint-oracle.test.ts; request validation: endpoint-validation.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { booleanPointInPolygon, destination } from '@turf/turf';
import { latLngToCell } from 'h3-js';
import { buildDir, warehouseRows } from '../../helpers/build.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import location, { LocationEngine } from '../../../live/location/endpoint.ts';
import type { LiveAnswer, LiveInstance } from '../../../warehouse/live.ts';
import { RES } from '../../../live/location/rules.ts';
import type { FloodData } from '../../../live/location/data.ts';
import {
  BELMONT, type Body, CAMBRIDGE, docZone, type GeoFeature, haversine, interiorPoint, LABELS, readFeatures, sourcesDir, ANSWER_FIELDS,
} from '../../helpers/location-truth.ts';
import { locationOracle } from '../../helpers/oracle-location.ts';

const MILE_M = 1609.344;
const zoneOf = (f: GeoFeature): string => String(f.properties['fld_zone'] ?? f.properties['FLD_ZONE']);

/** Ground truth straight from the source file: the highest-risk feature containing the point (null: none). */
function truthZone(features: GeoFeature[], lat: number, lng: number): { zone: string; rank: number } | null {
  let best: { zone: string; rank: number } | null = null;
  for (const f of features) {
    const p = f.properties;
    const cls = docZone(p['fld_zone'] ?? p['FLD_ZONE'], p['zone_subty'] ?? p['ZONE_SUBTY'])!;
    if ((!best || cls.order > best.rank) && booleanPointInPolygon([lng, lat], f)) best = { zone: cls.zone, rank: cls.order };
  }
  return best;
}

function body(a: LiveAnswer): Body {
  if (!a.ok) throw new Error(`expected 200, got ${a.code}: ${a.message}`);
  return a.body as Body;
}

describe('location risk over the real build', () => {
  let inst: LiveInstance<{ lat: number; lng: number }>;
  let engine: LocationEngine;
  let cambridge: GeoFeature[];
  let belmont: GeoFeature[];
  const ask = async (lat: number, lng: number): Promise<LiveAnswer> => inst.handle({ lat, lng });
  let zipsJson: { zips: [string, number, number, number, string, string][] };
  /** Brute force over zips.json: the size-weighted nearest centroid (distance / equivalent radius) among zips reaching the point. */
  const areaZipBrute = (lat: number, lng: number, keep: (z: [string, number, number, number, string, string]) => boolean = () => true): [string, number, number, number, string, string, number] | null => {
    let best: [string, number, number, number, string, string] | null = null;
    let bestScore = Infinity;
    for (const z of zipsJson.zips) {
      const d = haversine(lat, lng, z[1], z[2]);
      if (keep(z) && d <= Math.max(16_000, 2 * z[3]) && d / z[3] < bestScore) { bestScore = d / z[3]; best = z; }
    }
    return best ? [...best, bestScore] : null;
  };
  let camBox: number[] | undefined;
  /** Outside the floodplains: the best zip is Cambridge's, or (inside the raw file's box) a Cambridge zip within 5% of it. */
  const inCambridgeByZip = (lat: number, lng: number): boolean => {
    const isCam = (z: [string, number, number, number, string, string]): boolean => z[4] === 'Cambridge' && z[5] === 'MA';
    const z = areaZipBrute(lat, lng);
    if (!z) return false;
    if (isCam(z as never)) return true;
    const box = camBox ??= cambridge.flatMap((f) => JSON.stringify(f.geometry.coordinates).match(/-?\d+\.?\d*/g)!.map(Number))
      .reduce((b, v, i) => (i % 2 === 0 ? [Math.min(b[0]!, v), b[1]!, Math.max(b[2]!, v), b[3]!] : [b[0]!, Math.min(b[1]!, v), b[2]!, Math.max(b[3]!, v)]), [Infinity, Infinity, -Infinity, -Infinity]);
    if (lng < box[0]! || lng > box[2]! || lat < box[1]! || lat > box[3]!) return false;
    const alt = areaZipBrute(lat, lng, isCam);
    return !!alt && alt[6] <= z[6] * 1.05;
  };

  beforeAll(async () => {
    const dir = buildDir();
    inst = await location.load({ dir, buildId: path.basename(dir), asOf: '', settings: loadSettings() });
    engine = LocationEngine.fromDir(path.join(dir, 'live', 'location'));
    cambridge = readFeatures(CAMBRIDGE);
    belmont = readFeatures(BELMONT);
    // centroids and equivalent radii from the raw Gazetteer (the oracle), not the build's own live/location/zips.json
    zipsJson = { zips: (await locationOracle()).zips.filter((z) => z.lat !== null && z.lng !== null && z.area).map((z) => [z.zip, z.lat!, z.lng!, z.radius, z.city, z.state]) };
  });

  it('answers a point inside a Cambridge AE polygon with AE (High, SFHA notes, mapped)', async () => {
    const ae = cambridge.filter((f) => zoneOf(f) === 'AE');
    expect(ae.length).toBeGreaterThan(0);
    let checked = 0;
    for (const f of ae) {
      const p = interiorPoint(f);
      if (!p) continue;
      const [lat, lng] = p;
      if (truthZone(cambridge, lat, lng)?.zone !== 'AE') continue;
      const b = body(await ask(lat, lng));
      expect(b.flood_zone).toBe('AE');
      expect(b.flood_risk_label).toBe('High');
      expect(b.flood_risk_notes).toMatch(/Special Flood Hazard Area/);
      expect(b.state).toBe('MA');
      expect(b.confidence).not.toBe('low');
      expect(b.as_of).toBe('2025-07-08');
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('answers a Cambridge point outside every polygon with the minimal-hazard answer of a mapped area', async () => {
    // Harvard, Central, Porter Square (Inman Square, ~250 m from the Somerville line, is nearest Somerville's 02143 now that PO-box 02238 is no point's zip: location.md Caveats)
    let checked = 0;
    for (const [lat, lng] of [[42.3736, -71.1190], [42.3652, -71.1037], [42.3884, -71.1191]] as const) {
      if (truthZone(cambridge, lat, lng)) continue; // precondition: in no polygon of the file
      const b = body(await ask(lat, lng));
      expect(b).toMatchObject({ flood_zone: 'X', flood_risk_label: 'Minimal', state: 'MA' });
      expect(b.flood_risk_notes).toMatch(/minimal flood hazard, outside every flood-hazard polygon/);
      expect(b.flood_risk_notes).toMatch(/maps only the floodplains of the City of Cambridge, MA; this point lies there by its zip \d{5} \(Cambridge, MA\)/);
      expect(b.confidence).toBe('medium'); // mapped, zip from the nearest centroid (no MA ZCTA polygons)
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('answers D outside the declared area of the Cambridge map: Somerville, Allston, Belmont MA', async () => {
    for (const [lat, lng, city] of [[42.3796, -71.0935, 'Somerville'], [42.3601, -71.124, 'Allston'], [42.396, -71.156, 'Belmont']] as const) {
      expect(truthZone(cambridge, lat, lng), `${city} point in no Cambridge polygon`).toBeNull();
      const b = body(await ask(lat, lng));
      expect(b, city).toMatchObject({ flood_zone: 'D', confidence: 'low', state: 'MA' });
      expect(b.flood_risk_notes).toMatch(/no FEMA flood map was loaded for this area/);
      expect(b.flood_risk_notes).toMatch(/covers only the City of Cambridge, MA/);
    }
  });

  it('answers a point in an unmapped state with zone D, a "no map loaded" note and low confidence', async () => {
    const b = body(await ask(38.9717, -95.2353)); // Lawrence, KS
    expect(b).toMatchObject({ flood_zone: 'D', state: 'KS', confidence: 'low' });
    expect(LABELS).toContain(b.flood_risk_label);
    expect(b.flood_risk_notes).toMatch(/no FEMA flood map was loaded for this area/);
  });

  it('matches the source polygons on random points in both mapped areas (turf over the raw files)', async () => {
    const outside = [0, 0];
    let seed = 12345;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    for (const [features, box, complete] of [
      [cambridge, [-71.16, 42.35, -71.06, 42.405], false],
      [belmont, [-81.24, 39.85, -80.70, 40.172], true],
    ] as const) {
      for (let i = 0; i < 600; i++) {
        const lng = box[0] + rnd() * (box[2] - box[0]);
        const lat = box[1] + rnd() * (box[3] - box[1]);
        // Belmont is mapped only inside its Bridgeport detailed study (location.md "Mapped area"): outside it, no polygon
        const studied = features !== belmont || (lng >= -80.7555 && lng <= -80.7311 && lat >= 40.0387 && lat <= 40.0851);
        const truth = studied ? truthZone(features as GeoFeature[], lat, lng) : undefined;
        const hit = engine.flood.classify(lat, lng);
        if (truth) expect(hit.cls.zone, `${lat},${lng}`).toBe(truth.zone);
        else if (complete) expect(hit.cls.zone, `${lat},${lng}`).toBe('D'); // a complete map's polygons are its extent
        else {
          // outside the floodplains of a floodplain-only map: X exactly when the point's zip is a Cambridge, MA zip
          // (brute force here: the size-weighted nearest centroid among the zips that reach the point)
          const a = body(await ask(lat, lng));
          expect(a.flood_zone, `${lat},${lng} zip ${areaZipBrute(lat, lng)?.[0]}`).toBe(inCambridgeByZip(lat, lng) ? 'X' : 'D');
          outside[a.flood_zone === 'X' ? 0 : 1]! += 1;
        }
      }
    }
    expect(outside[0]).toBeGreaterThan(20); // both answers occur in the Cambridge box
    expect(outside[1]).toBeGreaterThan(20);
  });

  it('decides boundary cells exactly: a point just inside vs just outside an AE edge', async () => {
    const flood = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'location', 'flood.json'), 'utf8')) as FloodData;
    let pairs = 0;
    outer: for (const [pos, poly] of flood.polygons.entries()) {
      if (poly.zone !== 'AE' || !poly.bbox || poly.bbox[0] > -71) continue; // Cambridge AE pieces
      const ring = poly.rings[0]!;
      for (let i = 0; i + 1 < ring.length; i += 7) {
        const [x0, y0] = ring[i]!, [x1, y1] = ring[i + 1]!;
        const len = Math.hypot(x1! - x0!, y1! - y0!);
        if (len < 1e-5) continue;
        const mx = (x0! + x1!) / 2, my = (y0! + y1!) / 2;
        const nx = -(y1! - y0!) / len, ny = (x1! - x0!) / len; // unit normal (degrees)
        const eps = 1e-6; // ~0.1 m
        const a: [number, number] = [my + ny * eps, mx + nx * eps];
        const b: [number, number] = [my - ny * eps, mx - nx * eps];
        const ta = truthZone(cambridge, a[0], a[1]), tb = truthZone(cambridge, b[0], b[1]);
        const [inside, outside] = ta?.zone === 'AE' && tb?.zone !== 'AE' ? [a, b] : tb?.zone === 'AE' && ta?.zone !== 'AE' ? [b, a] : [null, null];
        if (!inside || !outside) continue;
        const cell = latLngToCell(inside[0], inside[1], RES.flood);
        const entry = (flood.cells[cell] ?? []).find((e) => e >> 1 === pos);
        if (entry === undefined || (entry & 1) === 1) continue; // want a boundary (partial) cell of this piece
        expect(engine.flood.classify(inside[0], inside[1]).cls.zone).toBe('AE');
        const out = body(await ask(outside[0], outside[1]));
        expect(out.flood_zone).not.toBe('AE');
        // outside every polygon: minimal X only when the point's zip puts it in Cambridge (the map's declared area)
        expect(out.flood_zone).toBe(truthZone(cambridge, outside[0], outside[1])?.zone ?? (inCambridgeByZip(outside[0], outside[1]) ? 'X' : 'D'));
        if (++pairs >= 20) break outer;
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(10);
  });

  it('counts NPL sites within exactly 1 mile: 0.5 mi away counts, 1.5 mi away does not (haversine in the test)', async () => {
    const sites = await warehouseRows<{ epa_id: string; lat: number; lng: number; npl_status: string; counted: boolean }>(
      `select epa_id, lat, lng, npl_status, counted from superfund_sites`);
    const counted = sites.filter((s) => s.counted);
    expect(counted.every((s) => s.npl_status === 'final' || s.npl_status === 'proposed')).toBe(true);
    expect(sites.some((s) => s.npl_status === 'deleted' && !s.counted)).toBe(true);
    const countNear = (lat: number, lng: number): number => counted.filter((s) => haversine(lat, lng, s.lat, s.lng) <= MILE_M).length;
    // an isolated site in the lower 48: no other counted site within 5 miles
    const site = counted.find((s) => s.lat > 25 && s.lat < 49 && s.lng > -124 && s.lng < -67
      && counted.every((o) => o === s || haversine(s.lat, s.lng, o.lat, o.lng) > 5 * MILE_M))!;
    expect(site).toBeDefined();
    for (const bearing of [0, 90, 200, 315]) {
      const near = destination([site.lng, site.lat], 0.5, bearing, { units: 'miles' }).geometry.coordinates as [number, number];
      const far = destination([site.lng, site.lat], 1.5, bearing, { units: 'miles' }).geometry.coordinates as [number, number];
      const bn = body(await ask(near[1], near[0]));
      const bf = body(await ask(far[1], far[0]));
      expect(countNear(near[1], near[0])).toBe(1);
      expect(bn).toMatchObject({ superfund_nearby: true, superfund_count_1mi: 1 });
      expect(countNear(far[1], far[0])).toBe(0);
      expect(bf).toMatchObject({ superfund_nearby: false, superfund_count_1mi: 0 });
    }
    // and in general: random points around sites (clusters too) agree with the brute-force haversine count
    let seed = 99;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    for (let i = 0; i < 400; i++) {
      const s = counted[Math.floor(rnd() * counted.length)]!;
      const [lng, lat] = destination([s.lng, s.lat], rnd() * 2, rnd() * 360, { units: 'miles' }).geometry.coordinates as [number, number];
      expect(engine.sites.within(lat, lng).length, `${lat},${lng}`).toBe(countNear(lat, lng));
    }
  });

  it('derives the zip from a ZCTA polygon where loaded (Delaware), else the nearest centroid for its size', async () => {
    const de = JSON.parse(fs.readFileSync(path.join(sourcesDir(), 'zcta-boundaries-2010', 'de_delaware_zip_codes_geo.min.json'), 'utf8')) as { features: GeoFeature[] };
    const known = new Set((await warehouseRows<{ zip: string }>(`select zip from zips where state_code = 'DE'`)).map((r) => r.zip));
    let checked = 0;
    for (const f of de.features.slice(0, 40)) {
      const zip = String(f.properties['ZCTA5CE10']);
      if (!known.has(zip)) continue;
      const p = interiorPoint(f);
      if (!p) continue;
      const [lat, lng] = p;
      const hit = engine.zips.locate(lat, lng)!;
      expect(hit).toMatchObject({ zip, source: 'zcta_polygon' });
      const b = body(await ask(lat, lng));
      expect(b).toMatchObject({ zip_code: zip, state: 'DE', flood_zone: 'D', confidence: 'low' });
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    // elsewhere: the zip centroid nearest for its size (distance / equivalent radius) among the zips that reach the
    // point (max(16 km, 2 x equivalent radius)), checked against a brute-force scan of `zips.json`; Harvard Square is
    // 02138 Cambridge (its plain nearest centroid, 02163, is a 0.3 km2 Boston campus zip: review, the note said 02138)
    const weighted = (lat: number, lng: number): string | null => {
      let best: string | null = null;
      let bestW = Infinity;
      for (const z of zipsJson.zips) {
        const d = haversine(lat, lng, z[1], z[2]);
        if (d <= Math.max(16_000, 2 * z[3]) && d / Math.max(1, z[3]) < bestW) { bestW = d / Math.max(1, z[3]); best = z[0]; }
      }
      return best;
    };
    for (const [lat, lng] of [[42.3736, -71.119], [39.9612, -82.9988], [47.6062, -122.3321], [35.2271, -80.8431]] as const) {
      expect(engine.zips.locate(lat, lng)).toMatchObject({ source: 'nearest_centroid', zip: weighted(lat, lng) });
    }
    const harvard = body(await ask(42.3736, -71.119));
    expect(harvard).toMatchObject({ zip_code: '02138', city: 'Cambridge', state: 'MA', flood_zone: 'X' });
    expect(harvard.flood_risk_notes).toContain('this point lies there by its zip 02138 (Cambridge, MA)');
    expect(harvard.flood_risk_notes).toContain('zip 02138 is estimated from zip centroids');
    expect(harvard.flood_risk_notes).not.toContain('02163');
    // random points over the US and its coasts (outside the ZCTA-polygon states): the answer equals the brute-force
    // scan, else 404 (centroids and radii from the raw Gazetteer, see LocationOracle)

    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    let none = 0;
    for (let i = 0; i < 300; i++) {
      const lat = i % 10 === 0 ? 52 + rnd() * 18 : 24 + rnd() * 25;
      const lng = i % 10 === 0 ? -170 + rnd() * 40 : -125 + rnd() * 58;
      if (engine.zips.locate(lat, lng)?.source === 'zcta_polygon') continue;
      const best = weighted(lat, lng);
      expect(engine.zips.locate(lat, lng)?.zip ?? null, `${lat},${lng}`).toBe(best);
      if (!best) none++;
    }
    expect(none).toBeGreaterThan(5); // oceans and Canada give 404s
  });

  it('answers 404 far from any zip and never throws for any finite lat/lng in range', async () => {
    const mid = await ask(30, -40); // mid-Atlantic
    expect(mid).toMatchObject({ ok: false, code: 'no_data' });
    expect((mid as { message: string }).message).toMatch(/outside coverage/);
    for (const [lat, lng] of [[90, 180], [-90, -180], [90, -180], [0, 0], [-90, 0], [0, 180], [45, -179.9999], [71.3, -156.8], [18.2, -66.5], [21.3, -157.8]] as const) {
      const a = await ask(lat, lng);
      expect(a.ok || a.code === 'no_data').toBe(true);
      if (a.ok) expect(Object.keys(a.body as object)).toEqual(ANSWER_FIELDS);
    }
  });

  it('returns exactly the spec fields for a point, with the types of the spec', async () => {
    const b = body(await ask(42.3736, -71.119));
    expect(Object.keys(b)).toEqual(ANSWER_FIELDS);
    expect(b.zip_code).toMatch(/^\d{5}$/);
    expect(typeof b.superfund_count_1mi).toBe('number');
    expect(b.environmental_risk_score).toBeGreaterThanOrEqual(0);
    expect(b.environmental_risk_score).toBeLessThanOrEqual(100);
    expect(['low', 'medium', 'high']).toContain(b.confidence);
    expect(b.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('skips the area-zip search outside every declared flood-map area without changing any answer', () => {
    // The speed of point lookups is measured by `npm run bench` (location part), not here: this checks that
    // the prefilter (boxes of the zips each declared area can reach) is exact, against the search done everywhere.
    let seed = 11;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const points: [number, number][] = [];
    for (let i = 0; i < 3000; i++) points.push([42.25 + rnd() * 0.25, -71.3 + rnd() * 0.35]); // Cambridge and its neighbours
    for (let i = 0; i < 1000; i++) points.push([25 + rnd() * 24, -124 + rnd() * 57]); // anywhere in the lower 48
    const boxed = points.map(([lat, lng]) => JSON.stringify(engine.answer(lat, lng)));
    const everywhere = LocationEngine.fromDir(path.join(buildDir(), 'live', 'location'));
    (everywhere as unknown as { areaBoxes: [number, number, number, number][] }).areaBoxes = [[-180, -90, 180, 90]];
    const searched = points.map(([lat, lng]) => JSON.stringify(everywhere.answer(lat, lng)));
    expect(boxed.filter((a) => a.includes('"flood_zone":"X"')).length).toBeGreaterThan(20); // the area case is exercised
    expect(boxed).toEqual(searched);
  });
});

