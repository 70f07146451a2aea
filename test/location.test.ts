// Location risk: flood zones, Superfund proximity and the composite score, by zip (shards) and by point (the
// live module, in-process). Part 1 runs the real step files over given rows (a synthetic flood map and zips);
// part 2 reads the shared real build over ../shared/data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bbox, booleanPointInPolygon, destination, lineString, pointOnFeature, pointToLineDistance } from '@turf/turf';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { cellToBoundary, cellToLatLng, latLngToCell } from 'h3-js';
import { artifactsDir, buildDir, readShard, warehouseRows } from './helpers/build.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { makeContext, runSqlFile, type TestContext } from './helpers/context.ts';
import { loadSettings } from '../pipelines/settings.ts';
import location, { LocationEngine } from '../api/live/location.ts';
import type { LiveAnswer, LiveInstance } from '../api/live/types.ts';
import {
  classifyZone, environmentalScore, inFloodArea, MAPPED_MINIMAL, MAPPED_SHARE_MIN, parseFloodArea, RES, UNMAPPED, ZONE_SHARE_MIN, ZONE_WIN_RANK,
  type FloodArea,
} from '../api/live/location-rules.ts';
import { FloodIndex, type FloodData } from '../api/live/location-geo.ts';
import { coverPolygon } from '../api/live/location-build.ts';
import { cellsWithinMile } from '../pipelines/intermediate/40_location_30_superfund_h3.ts';
import { run as runFlood } from '../pipelines/intermediate/40_location_40_flood_zones.ts';
import { run as runZcta } from '../pipelines/intermediate/40_location_50_zcta_polygons.ts';
import { run as runZipFacts, zipFlood } from '../pipelines/intermediate/40_location_60_zip_facts.ts';
import { run as runMart } from '../pipelines/marts/40_mart_location_risk.ts';

// interface-v1.md "Location risk object", in the spec's order
const SPEC_FIELDS = ['zip_code', 'city', 'state', 'flood_zone', 'flood_risk_label', 'flood_risk_notes', 'superfund_nearby',
  'superfund_count_1mi', 'environmental_risk_score', 'confidence', 'as_of'];
const LABELS = ['Minimal', 'Low', 'Moderate', 'High', 'Very High'];

interface Body {
  zip_code: string; city: string; state: string; flood_zone: string; flood_risk_label: string; flood_risk_notes: string;
  superfund_nearby: boolean; superfund_count_1mi: number; environmental_risk_score: number; confidence: string; as_of: string;
}

const MILE_M = 1609.344;
/** Independent haversine (mean Earth radius) for the 1-mile checks. */
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

const sourcesDir = (): string => loadSettings().sources;
type GeoFeature = Feature<Polygon | MultiPolygon, Record<string, unknown>>;
const readFeatures = (file: string): GeoFeature[] =>
  (JSON.parse(fs.readFileSync(path.join(sourcesDir(), 'fema-nfhl-flood-zones', file), 'utf8')) as { features: GeoFeature[] }).features;
const CAMBRIDGE = 'cambridge_ma_25017C_fld_haz_ar.geojson';
const BELMONT = 'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson';
const zoneOf = (f: GeoFeature): string => String(f.properties['fld_zone'] ?? f.properties['FLD_ZONE']);

/** Ground truth straight from the source file: the highest-risk feature containing the point (null: none). */
function truthZone(features: GeoFeature[], lat: number, lng: number): { zone: string; rank: number } | null {
  let best: { zone: string; rank: number } | null = null;
  for (const f of features) {
    const p = f.properties;
    const cls = classifyZone(p['fld_zone'] ?? p['FLD_ZONE'], p['zone_subty'] ?? p['ZONE_SUBTY'], p['sfha_tf'] ?? p['SFHA_TF'])!;
    if ((!best || cls.rank > best.rank) && booleanPointInPolygon([lng, lat], f)) best = { zone: cls.zone, rank: cls.rank };
  }
  return best;
}

/**
 * A point strictly inside a feature (not on any edge): turf pointOnFeature when that is interior, else the
 * centroid of a triangle of consecutive outer-ring vertices that is. (pointOnFeature may return a vertex.)
 */
function interiorPoint(f: GeoFeature): [number, number] | null {
  const strict = (p: number[]): boolean => booleanPointInPolygon(p, f, { ignoreBoundary: true });
  const first = pointOnFeature(f).geometry.coordinates;
  if (strict(first)) return [first[1]!, first[0]!];
  const rings = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  for (const poly of rings) {
    const r = poly[0]!;
    for (let i = 0; i + 2 < r.length; i++) {
      const p = [(r[i]![0]! + r[i + 1]![0]! + r[i + 2]![0]!) / 3, (r[i]![1]! + r[i + 1]![1]! + r[i + 2]![1]!) / 3];
      if (strict(p)) return [p[1]!, p[0]!];
    }
  }
  return null;
}

function body(a: LiveAnswer): Body {
  if (!a.ok) throw new Error(`expected 200, got ${a.status}: ${a.message}`);
  return a.body as Body;
}

// ============================================================ rules

describe('location rules', () => {
  it('labels zones as documented and never maps an unknown value to a zone', () => {
    expect(classifyZone('VE', null, 'T')!.label).toBe('Very High');
    expect(classifyZone('V', null, null)!.label).toBe('Very High');
    for (const z of ['A', 'AE', 'AO', 'AH', 'A99', 'AR']) expect(classifyZone(z, null, 'T')!.label).toBe('High');
    expect(classifyZone('Zone AE', 'FLOODWAY', 'T')!.zone).toBe('AE');
    expect(classifyZone('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 'F')).toMatchObject({ zone: 'X', label: 'Moderate', key: 'X-shaded' });
    expect(classifyZone('X', 'AREA OF MINIMAL FLOOD HAZARD', 'F')).toMatchObject({ zone: 'X', label: 'Minimal', key: 'X-minimal' });
    expect(classifyZone('x', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', 'F')!.label).toBe('Low');
    expect(classifyZone('X', null, null)!.label).toBe('Minimal');
    expect(classifyZone('AREA NOT INCLUDED', null, 'F')).toBeNull();
    expect(classifyZone('', null, null)).toBeNull();
    expect(classifyZone('ZZ', null, null)).toBeNull();
  });

  it('scores 0-100: flood 45%, Superfund 30%, NRI 25% (renormalised without NRI)', () => {
    const ae = classifyZone('AE', null, 'T')!;
    expect(environmentalScore(ae, 0, 0)).toBe(36);
    expect(environmentalScore(ae, 1, 40)).toBe(Math.round(0.45 * 80 + 0.3 * 50 + 0.25 * 40));
    expect(environmentalScore(classifyZone('VE', null, 'T')!, 5, 100)).toBe(100);
    expect(environmentalScore(MAPPED_MINIMAL, 0, 0)).toBe(0);
    expect(environmentalScore(MAPPED_MINIMAL, 1, null)).toBe(Math.round((0.3 * 50) / 0.75));
    // FEMA-mapped zone D (undetermined) keeps its 35 points
    expect(environmentalScore(classifyZone('D', null, 'F')!, 0, 20)).toBe(Math.round(0.45 * 35 + 0.25 * 20));
  });

  it('leaves flood out of the score where no flood map exists and re-weights the rest', () => {
    // no map: superfund 0.30 and NRI 0.25, divided by 0.55; without NRI either, the Superfund points alone
    expect(environmentalScore(UNMAPPED, 1, 40)).toBe(Math.round((0.3 * 50 + 0.25 * 40) / 0.55));
    expect(environmentalScore(UNMAPPED, 0, 60)).toBe(Math.round((0.25 * 60) / 0.55));
    expect(environmentalScore(UNMAPPED, 0, null)).toBe(0);
    expect(environmentalScore(UNMAPPED, 2, null)).toBe(75);
    // no invented flood points: with no Superfund site and an NRI score of 0 an unmapped place scores 0, like mapped X
    expect(environmentalScore(UNMAPPED, 0, 0)).toBe(0);
    expect(environmentalScore(UNMAPPED, 0, 0)).toBe(environmentalScore(MAPPED_MINIMAL, 0, 0));
  });

  it('parses declared flood-map areas and rejects malformed ones with a reason', () => {
    expect(parseFloodArea({ counties: ['39013'] })).toEqual({ label: 'county 39013', counties: ['39013'], places: [] });
    expect(parseFloodArea({ label: 'Cambridge', places: ['Cambridge, ma'] })).toEqual({ label: 'Cambridge', counties: [], places: [{ city: 'Cambridge', state: 'MA' }] });
    expect(parseFloodArea({ places: [{ city: 'Cambridge', state: 'MA' }] })).toMatchObject({ places: [{ city: 'Cambridge', state: 'MA' }] });
    expect(parseFloodArea({})).toMatch(/no county and no place/);
    expect(parseFloodArea({ counties: ['3901'] })).toMatch(/not a 5-digit FIPS/);
    expect(parseFloodArea({ places: ['Cambridge'] })).toMatch(/needs a city and a 2-letter state/);
    expect(parseFloodArea([1])).toMatch(/not a JSON object/);
    const area = parseFloodArea({ counties: ['39013'], places: [{ city: 'Cambridge', state: 'MA' }] }) as FloodArea;
    expect(inFloodArea(area, { city: 'CAMBRIDGE', state: 'MA', county: '25017' })).toBe(true);
    expect(inFloodArea(area, { city: 'Somerville', state: 'MA', county: '25017' })).toBe(false); // same county, other city
    expect(inFloodArea(area, { city: 'Cambridge', state: 'OH', county: '39059' })).toBe(false);
    expect(inFloodArea(area, { city: 'Bridgeport', state: 'OH', county: '39013' })).toBe(true);
    expect(inFloodArea(null, { city: 'Cambridge', state: 'MA', county: null })).toBe(false);
  });
});

// ============================================================ the zip flood-zone rule over built samples

describe('zip flood-zone rule (zipFlood)', () => {
  // one floodplain-only map (an AE square, declared area: Testville, NE) and one complete map (a minimal-X square)
  const sq = (lng: number, lat: number, h: number): number[][][] => [[[lng - h, lat - h], [lng + h, lat - h], [lng + h, lat + h], [lng - h, lat + h], [lng - h, lat - h]]];
  const AE_AT = [40.0, -100.0] as const;
  const XMIN_AT = [38.0, -100.0] as const;
  let flood: FloodIndex;
  const IN_AREA = { city: 'Testville', state: 'NE', county: '31001' };
  const ELSEWHERE = { city: 'Other', state: 'NE', county: '31003' };
  beforeAll(() => {
    const polys = [
      { id: 0, map: 0, zone: 'AE', subtype: null, sfha: true, rings: sq(AE_AT[1], AE_AT[0], 0.01) },
      { id: 1, map: 1, zone: 'X', subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, rings: sq(XMIN_AT[1], XMIN_AT[0], 0.01) },
    ];
    const cells: Record<string, number[]> = {};
    polys.forEach((p, i) => {
      const cover = coverPolygon(p.rings as never, RES.flood);
      for (const c of cover.cells) (cells[c] ??= []).push(i * 2 + (cover.full.has(c) ? 1 : 0));
    });
    flood = new FloodIndex({
      res: RES.flood,
      maps: [
        { id: 0, file: 'ae.geojson', bbox: [-100.01, 39.99, -99.99, 40.01], complete: false, area: { label: 'Testville, NE', counties: [], places: [{ city: 'Testville', state: 'NE' }] }, as_of: null },
        { id: 1, file: 'xmin.geojson', bbox: [-100.01, 37.99, -99.99, 38.01], complete: true, area: null, as_of: null },
      ],
      polygons: polys.map((p) => ({ ...p, bbox: [p.rings[0]![0]![0]!, p.rings[0]![0]![1]!, p.rings[0]![2]![0]!, p.rings[0]![2]![1]!] as [number, number, number, number], rings: p.rings })),
      cells,
    } as FloodData);
  });
  /** n samples inside the square centred at `at` (a 10 x 10 grid well inside the 0.02-degree square). */
  const inside = (at: readonly [number, number], n: number): [number, number, string | null][] =>
    Array.from({ length: n }, (_, i) => { const lat = at[0] - 0.008 + (i % 10) * 0.0016, lng = at[1] - 0.008 + Math.floor(i / 10) * 0.0016; return [lat, lng, latLngToCell(lat, lng, RES.flood)]; });
  /** n samples far from every polygon (inside a map's declared area or not, depending on the zip). */
  const away = (n: number): [number, number, string | null][] =>
    Array.from({ length: n }, (_, i) => { const lat = 41 + i * 0.002, lng = -100.0; return [lat, lng, latLngToCell(lat, lng, RES.flood)]; });

  it('uses the documented thresholds', () => {
    expect(ZONE_SHARE_MIN).toBe(0.10);
    expect(MAPPED_SHARE_MIN).toBe(0.5);
    expect(ZONE_WIN_RANK).toBe(40);
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../warehouse/docs/location.md'), 'utf8');
    expect(doc).toContain('at least **10 %** of the zip');
    expect(doc).toContain('at least **50 %** of the zip is mapped');
    expect(doc).toContain('rank >= 40');
  });

  it('a hazard zone wins at 10 % of the zip or more, not below', () => {
    expect(zipFlood(flood, [...inside(AE_AT, 9), ...away(91)], IN_AREA)).toMatchObject({ cls: { zone: 'X', key: 'X-minimal' }, mappedShare: 1 });
    expect(zipFlood(flood, [...inside(AE_AT, 12), ...away(88)], IN_AREA)).toMatchObject({ cls: { zone: 'AE' }, zoneShare: 0.12, mappedShare: 1 });
    expect(zipFlood(flood, [...inside(AE_AT, 10), ...away(90)], IN_AREA).cls.zone).toBe('AE'); // 10 % exactly
    // outside the declared area the rest of the zip is unmapped: 12 % AE still wins (rank >= 40), 9 % AE does not
    expect(zipFlood(flood, [...inside(AE_AT, 12), ...away(88)], ELSEWHERE)).toMatchObject({ cls: { zone: 'AE' }, mappedShare: 0.12 });
    expect(zipFlood(flood, [...inside(AE_AT, 9), ...away(91)], ELSEWHERE)).toMatchObject({ cls: { zone: 'D', key: 'D-unmapped' }, mappedShare: 0.09 });
  });

  it('a low-hazard zone needs at least half the zip mapped, else D', () => {
    expect(zipFlood(flood, [...inside(XMIN_AT, 40), ...away(60)], ELSEWHERE)).toMatchObject({ cls: { zone: 'D' }, mappedShare: 0.4 });
    expect(zipFlood(flood, [...inside(XMIN_AT, 50), ...away(50)], ELSEWHERE)).toMatchObject({ cls: { zone: 'X', key: 'X-minimal' }, mappedShare: 0.5 });
    // the same samples inside the declared area of the floodplain-only map are all mapped
    expect(zipFlood(flood, away(100), IN_AREA)).toMatchObject({ cls: { key: 'X-minimal' }, mappedShare: 1 });
    expect(zipFlood(flood, away(100), ELSEWHERE)).toMatchObject({ cls: { key: 'D-unmapped' }, mappedShare: 0 });
    expect(zipFlood(flood, away(100), null).cls.key).toBe('D-unmapped');
  });
});

// ============================================================ H3

describe('H3 indexing', () => {
  it('round-trips a point: latLngToCell -> cellToLatLng lies in the same cell, and the point lies inside the cell boundary', () => {
    for (const [lat, lng] of [[42.3736, -71.119], [39.74, -75.55], [61.2, -149.9], [-33.9, 151.2], [0, 0], [89.9, 179.9]] as const) {
      for (const res of [RES.flood, RES.superfund, RES.zipCentroid]) {
        const c = latLngToCell(lat, lng, res);
        const [clat, clng] = cellToLatLng(c);
        expect(latLngToCell(clat, clng, res)).toBe(c);
        if (Math.abs(lng) > 179 || Math.abs(lat) > 89) continue; // a boundary across the antimeridian/pole is no planar ring
        const ring = cellToBoundary(c, true);
        expect(booleanPointInPolygon([lng, lat], { type: 'Polygon', coordinates: [ring] })).toBe(true);
      }
    }
  });

  it('the 1-mile cell set of a site holds every point within 1 mile of it (candidates are complete)', () => {
    const [slat, slng] = [42.3736, -71.119];
    const cells = new Set(cellsWithinMile(slat, slng).map((c) => c[0]));
    for (let b = 0; b < 360; b += 7.5) {
      for (const mi of [0.1, 0.5, 0.9, 0.999]) {
        const [lng, lat] = destination([slng, slat], mi, b, { units: 'miles' }).geometry.coordinates as [number, number];
        expect(cells.has(latLngToCell(lat, lng, RES.superfund))).toBe(true);
      }
    }
  });
});

// ============================================================ given rows: steps over a synthetic flood map

describe('location steps over given rows', () => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-location-'));
    // lower-case property names, a "Zone AE" spelling, an unknown zone (rejected) and a line (rejected)
    const sq = (x0: number, y0: number, x1: number, y1: number): number[][][] => [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]];
    fs.writeFileSync(path.join(dir, 'test_map.geojson'), JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { fld_zone: 'Zone AE', zone_subty: null, sfha_tf: 'T', EFF_DATE: '2024-03-01' }, geometry: { type: 'Polygon', coordinates: sq(-100.02, 40.0, -99.98, 40.04) } },
        { type: 'Feature', properties: { fld_zone: 'ZZZ' }, geometry: { type: 'Polygon', coordinates: sq(-100.1, 40.1, -100.09, 40.11) } },
        { type: 'Feature', properties: { fld_zone: 'X' }, geometry: { type: 'LineString', coordinates: [[-100, 40], [-100.1, 40.1]] } },
      ],
    }));
    // the area the file was cut to, declared by the operator's sidecar: the zips of the city "Inside", NE
    fs.writeFileSync(path.join(dir, 'test_map.geojson.area.json'), JSON.stringify({ label: 'Inside, NE', places: [{ city: 'Inside', state: 'NE' }] }));
    const base = await makeContext();
    ctx = { ...base, sourceFiles: (s: string) => (s === 'fema_nfhl' ? [path.join(dir, 'test_map.geojson')] : []) };
    await runSqlFile(ctx, 'pipelines/intermediate/40_location_00_tables.sql');
    await ctx.db.run(`create table zips as select * from (values
      ('90001', 'Inside', 'NE', '31001', 'Adams County', 40.02::double, -100.0::double, 100),
      ('90002', 'Far', 'NE', '31003', 'Antelope County', 42.0::double, -98.0::double, 100),
      ('90003', 'Inside', 'NE', '31001', 'Adams County', 40.10::double, -100.0::double, 100),
      ('90004', 'Nextdoor', 'NE', '31001', 'Adams County', 40.10::double, -100.1::double, 100)) t(zip, city, state_code, county_fips, county_name, lat, lng, population)`);
    await ctx.db.run(`insert into int_nri_counties values ('31001', 'NE', 'Adams', 20.0, 'Relatively Low', 10, 'Low')`);
    await ctx.db.run(`insert into superfund_sites values
      ('NE0000000001', '1', 'NEAR SITE', 'final', 'Currently on the Final NPL', true, null, null, null, '31003', 'NE', '90002', 42.005, -98.0, false, 'npl_sites', date '2021-06-13'),
      ('NE0000000002', '2', 'DELETED SITE', 'deleted', 'Deleted from the Final NPL', false, null, null, null, '31003', 'NE', '90002', 42.0, -98.001, false, 'npl_sites', date '2021-06-13')`);
    const { run: runH3 } = await import('../pipelines/intermediate/40_location_30_superfund_h3.ts');
    await runH3(ctx);
    await runFlood(ctx);
    await runZcta(ctx);
    await runZipFacts(ctx);
    await runMart(ctx);
  });
  afterAll(() => { ctx?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

  it('loads any FLD_ZONE spelling, rejects what is not a zone or not a polygon, and dates the map from its features', async () => {
    const zones = await ctx.rows<{ zone: string; sfha: boolean; risk_label: string }>('select zone, sfha, risk_label from flood_zones');
    expect(zones).toEqual([{ zone: 'AE', sfha: true, risk_label: 'High' }]);
    const reasons = ctx.rejects.map((r) => r.reason).sort();
    expect(reasons).toEqual(['flood_geometry_not_polygon', 'flood_zone_not_a_zone']);
    const maps = await ctx.rows<{ as_of: string; complete: boolean; area_label: string; area_basis: string }>(
      `select cast(as_of as varchar) as as_of, complete, area_label, area_basis from flood_maps`);
    expect(maps).toEqual([{ as_of: '2024-03-01', complete: false, area_label: 'Inside, NE', area_basis: 'sidecar test_map.geojson.area.json' }]);
  });

  it('maps the rest of the declared area as minimal X, and leaves a neighbour outside it D', async () => {
    const rows = await ctx.rows<{ zip: string; flood_zone: string; confidence: string; flood_mapped_share: number; flood_risk_notes: string }>(
      `select zip, flood_zone, confidence, flood_mapped_share, flood_risk_notes from mart_location_risk where zip in ('90003', '90004') order by zip`);
    // 90003 (city Inside) is in the declared area: mapped, no floodplain on it -> X
    expect(rows[0]).toMatchObject({ zip: '90003', flood_zone: 'X', confidence: 'medium', flood_mapped_share: 1 });
    // 90004 (city Nextdoor), same county, outside the declared area -> D, no map loaded, low confidence
    expect(rows[1]).toMatchObject({ zip: '90004', flood_zone: 'D', confidence: 'low', flood_mapped_share: 0 });
    expect(rows[1]!.flood_risk_notes).toMatch(/no FEMA flood map was loaded/);
  });

  it('rejects a malformed area declaration with its reason and maps only the polygons', async () => {
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-location-bad-'));
    try {
      fs.copyFileSync(path.join(dir, 'test_map.geojson'), path.join(bad, 'test_map.geojson'));
      fs.writeFileSync(path.join(bad, 'test_map.geojson.area.json'), JSON.stringify({ counties: ['NE'] }));
      const c2 = { ...(await makeContext()), sourceFiles: (s: string) => (s === 'fema_nfhl' ? [path.join(bad, 'test_map.geojson')] : []) };
      try {
        await runSqlFile(c2, 'pipelines/intermediate/40_location_00_tables.sql');
        await runFlood(c2);
        const r = c2.rejects.find((x) => x.reason === 'flood_area_invalid');
        expect(r?.detail).toMatch(/test_map\.geojson\.area\.json: county "NE" is not a 5-digit FIPS code/);
        expect(await c2.rows(`select area_json, area_basis from flood_maps`)).toEqual([{ area_json: null, area_basis: null }]);
      } finally { c2.close(); }
    } finally { fs.rmSync(bad, { recursive: true, force: true }); }
  });

  it('gives the inside zip the zone covering it and the far zip D (no map), counting only final/proposed sites', async () => {
    const rows = await ctx.rows<{ zip: string; flood_zone: string; flood_risk_label: string; confidence: string; superfund_count_1mi: number;
      environmental_risk_score: number; as_of: string; flood_risk_notes: string }>(
      `select zip, flood_zone, flood_risk_label, confidence, superfund_count_1mi, environmental_risk_score, cast(as_of as varchar) as as_of, flood_risk_notes
       from mart_location_risk order by zip`);
    expect(rows[0]).toMatchObject({ zip: '90001', flood_zone: 'AE', flood_risk_label: 'High', confidence: 'medium', superfund_count_1mi: 0, as_of: '2024-03-01' });
    expect(rows[0]!.environmental_risk_score).toBe(environmentalScore(classifyZone('AE', null, 'T')!, 0, 20));
    expect(rows[1]).toMatchObject({ zip: '90002', flood_zone: 'D', confidence: 'low', superfund_count_1mi: 1, as_of: '2021-06-13' });
    expect(rows[1]!.flood_risk_notes).toMatch(/no FEMA flood map was loaded/);
  });
});

// ============================================================ the shared real build

describe('location risk over the real build', () => {
  let inst: LiveInstance<{ lat: number; lng: number }>;
  let engine: LocationEngine;
  let cambridge: GeoFeature[];
  let belmont: GeoFeature[];
  const ask = async (lat: number, lng: number): Promise<LiveAnswer> => inst.handle({ lat, lng });
  let zipsJson: { zips: [string, number, number, number, string, string][] };
  /** Brute force over zips.json: the size-weighted nearest centroid (distance / equivalent radius) among zips reaching the point. */
  const areaZipBrute = (lat: number, lng: number): [string, number, number, number, string, string] | null => {
    let best: [string, number, number, number, string, string] | null = null;
    let bestScore = Infinity;
    for (const z of zipsJson.zips) {
      const d = haversine(lat, lng, z[1], z[2]);
      if (d <= Math.max(16_000, 2 * z[3]) && d / z[3] < bestScore) { bestScore = d / z[3]; best = z; }
    }
    return best;
  };
  const inCambridgeByZip = (lat: number, lng: number): boolean => {
    const z = areaZipBrute(lat, lng);
    return !!z && z[4] === 'Cambridge' && z[5] === 'MA';
  };

  beforeAll(async () => {
    const dir = buildDir();
    inst = await location.load({ dir, buildId: path.basename(dir), asOf: '' });
    engine = LocationEngine.fromDir(path.join(dir, 'live', 'location'));
    cambridge = readFeatures(CAMBRIDGE);
    belmont = readFeatures(BELMONT);
    zipsJson = JSON.parse(fs.readFileSync(path.join(dir, 'live', 'location', 'zips.json'), 'utf8')) as typeof zipsJson;
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
    // Harvard Square, Central Square, Porter Square, Inman Square
    let checked = 0;
    for (const [lat, lng] of [[42.3736, -71.1190], [42.3652, -71.1037], [42.3884, -71.1191], [42.3734, -71.1004]] as const) {
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
        const truth = truthZone(features as GeoFeature[], lat, lng);
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

  it('derives the zip from a ZCTA polygon where loaded (Delaware), else the nearest centroid', async () => {
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
    // elsewhere: the nearest zip centroid, checked against a brute-force haversine scan of `zips`
    const all = await warehouseRows<{ zip: string; lat: number; lng: number }>(`select zip, lat::double as lat, lng::double as lng from zips where lat is not null`);
    for (const [lat, lng] of [[42.3736, -71.119], [39.9612, -82.9988], [47.6062, -122.3321], [35.2271, -80.8431]] as const) {
      const nearest = all.reduce((b, z) => (haversine(lat, lng, z.lat, z.lng) < haversine(lat, lng, b.lat, b.lng) ? z : b));
      expect(engine.zips.locate(lat, lng)).toMatchObject({ source: 'nearest_centroid', zip: nearest.zip });
    }
    // random points over the US and its coasts (outside the ZCTA-polygon states): the answer equals a brute-force scan
    // for the nearest centroid among the zips that reach the point (max(16 km, 2 x equivalent radius)), else 404
    const zipsJson = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'location', 'zips.json'), 'utf8')) as { zips: [string, number, number, number][] };
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    let none = 0;
    for (let i = 0; i < 300; i++) {
      const lat = i % 10 === 0 ? 52 + rnd() * 18 : 24 + rnd() * 25;
      const lng = i % 10 === 0 ? -170 + rnd() * 40 : -125 + rnd() * 58;
      if (engine.zips.locate(lat, lng)?.source === 'zcta_polygon') continue;
      let best: string | null = null;
      let bestD = Infinity;
      for (const z of zipsJson.zips) {
        const d = haversine(lat, lng, z[1], z[2]);
        if (d < bestD && d <= Math.max(16_000, 2 * z[3])) { bestD = d; best = z[0]; }
      }
      expect(engine.zips.locate(lat, lng)?.zip ?? null, `${lat},${lng}`).toBe(best);
      if (!best) none++;
    }
    expect(none).toBeGreaterThan(5); // oceans and Canada give 404s
  });

  it('answers 404 far from any zip and never throws for any finite lat/lng in range', async () => {
    const mid = await ask(30, -40); // mid-Atlantic
    expect(mid).toMatchObject({ ok: false, status: 404 });
    expect((mid as { message: string }).message).toMatch(/outside coverage/);
    for (const [lat, lng] of [[90, 180], [-90, -180], [90, -180], [0, 0], [-90, 0], [0, 180], [45, -179.9999], [71.3, -156.8], [18.2, -66.5], [21.3, -157.8]] as const) {
      const a = await ask(lat, lng);
      expect(a.ok || a.status === 404).toBe(true);
      if (a.ok) expect(Object.keys(a.body as object)).toEqual(SPEC_FIELDS);
    }
  });

  it('returns exactly the spec fields for a point, with the types of the spec', async () => {
    const b = body(await ask(42.3736, -71.119));
    expect(Object.keys(b)).toEqual(SPEC_FIELDS);
    expect(b.zip_code).toMatch(/^\d{5}$/);
    expect(typeof b.superfund_count_1mi).toBe('number');
    expect(b.environmental_risk_score).toBeGreaterThanOrEqual(0);
    expect(b.environmental_risk_score).toBeLessThanOrEqual(100);
    expect(['low', 'medium', 'high']).toContain(b.confidence);
    expect(b.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('writes a zip shard for every zip with exactly the spec fields', async () => {
    const [zips] = await warehouseRows<{ n: number }>(`select count(*)::int as n from zips`);
    const [mart] = await warehouseRows<{ n: number }>(`select count(*)::int as n from mart_location_risk`);
    expect(mart!.n).toBe(zips!.n);
    for (const zip of ['02142', '02138', '02139', '43906', '19801', '66044', '02903', '20001']) {
      const s = readShard<Body>(`location/zip/${zip}.json`);
      expect(Object.keys(s)).toEqual(SPEC_FIELDS);
      expect(s.zip_code).toBe(zip);
      expect(LABELS).toContain(s.flood_risk_label);
      expect(s.superfund_nearby).toBe(s.superfund_count_1mi > 0);
    }
    const kendall = readShard<Body>('location/zip/02142.json');
    expect(kendall).toMatchObject({ city: 'Cambridge', state: 'MA', flood_zone: 'AE', flood_risk_label: 'High', as_of: '2025-07-08' });
    // Somerville borders Cambridge but is outside the Cambridge map's declared area: no map loaded, D
    const somerville = readShard<Body>('location/zip/02143.json');
    expect(somerville).toMatchObject({ city: 'Somerville', flood_zone: 'D', confidence: 'low' });
    expect(somerville.flood_risk_notes).not.toMatch(/covers 7\d% of the zip/);
    const lawrence = readShard<Body>('location/zip/66044.json');
    expect(lawrence).toMatchObject({ flood_zone: 'D', confidence: 'low', as_of: '2021-06-13' });
    expect(lawrence.flood_risk_notes).toMatch(/no FEMA flood map was loaded/);
  });

  it('counts Superfund sites within 1 mile of a ZCTA polygon for DE/DC/RI zips (recomputed here from the raw files)', async () => {
    // sites: final + proposed rows of npl_sites.csv, read here with a fresh DuckDB (not the warehouse)
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    const csv = path.join(sourcesDir(), 'epa-superfund-sems', 'npl_sites.csv').replaceAll("'", "''");
    const sites = (await con.runAndReadAll(`
      select epa_id, any_value(try_cast(latitude as double)) as lat, any_value(try_cast(longitude as double)) as lng
      from read_csv('${csv}', all_varchar = true)
      where npl_status in ('Currently on the Final NPL', 'Proposed for NPL')
      group by epa_id having lat is not null and lng is not null`)).getRowObjectsJson() as { epa_id: string; lat: number; lng: number }[];
    con.closeSync();
    expect(sites.length).toBeGreaterThan(1300);
    // zip areas: the raw ZCTA 2010 features, parts of one ZCTA merged
    const parts = new Map<string, number[][][][]>();
    for (const f of fs.readdirSync(path.join(sourcesDir(), 'zcta-boundaries-2010')).filter((n) => n.endsWith('.json'))) {
      const doc = JSON.parse(fs.readFileSync(path.join(sourcesDir(), 'zcta-boundaries-2010', f), 'utf8')) as { features: GeoFeature[] };
      for (const feat of doc.features) {
        const zip = String(feat.properties['ZCTA5CE10']);
        const polys = feat.geometry.type === 'Polygon' ? [feat.geometry.coordinates] : feat.geometry.coordinates;
        parts.set(zip, [...(parts.get(zip) ?? []), ...polys]);
      }
    }
    const mart = new Map((await warehouseRows<{ zip: string }>(`select zip from mart_location_risk where geometry_source = 'zcta_polygon'`)).map((r) => [r.zip, true]));
    // within 1 mile of the polygon: inside it, or within 1 mile of one of its rings (turf pointToLineDistance, geodesic)
    const countFor = (polys: number[][][][]): number => {
      const feature: Feature<MultiPolygon> = { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: polys } };
      const [minX, minY, maxX, maxY] = bbox(feature);
      return sites.filter((s) => {
        if (s.lat < minY - 0.02 || s.lat > maxY + 0.02 || s.lng < minX - 0.03 || s.lng > maxX + 0.03) return false;
        if (booleanPointInPolygon([s.lng, s.lat], feature)) return true;
        return polys.some((p) => p.some((ring) => pointToLineDistance([s.lng, s.lat], lineString(ring), { units: 'meters', method: 'geodesic' }) <= MILE_M));
      }).length;
    };
    let positive = 0, compared = 0;
    for (const [zip, polys] of parts) {
      if (!mart.has(zip)) continue;
      const want = countFor(polys);
      expect(readShard<Body>(`location/zip/${zip}.json`).superfund_count_1mi, zip).toBe(want);
      compared++;
      if (want > 0) positive++;
    }
    expect(compared).toBeGreaterThan(150);
    expect(positive).toBeGreaterThan(20);
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

// ============================================================ validation over HTTP (a real server on 127.0.0.1)

describe('location risk validation over HTTP', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('starter', 1000);
  });
  afterAll(async () => { await server.close(); });

  const get = async (q: string): Promise<{ status: number; body: { message?: string; errors?: { field: string; code: string }[] } }> => {
    const r = await server.get(`/v1/location/risk${q}`, key);
    return { status: r.status, body: (await r.json()) as never };
  };

  it('400 without any parameter, or with only one of lat and lng', async () => {
    const none = await get('');
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([expect.objectContaining({ field: 'zip', code: 'required' })]);
    const lngOnly = await get('?lng=-71.1');
    expect(lngOnly.status).toBe(400);
    expect(lngOnly.body.errors).toEqual([expect.objectContaining({ field: 'lat', code: 'required' })]);
    const latOnly = await get('?lat=42.37');
    expect(latOnly.status).toBe(400);
    expect(latOnly.body.errors).toEqual([expect.objectContaining({ field: 'lng', code: 'required' })]);
  });

  it('422 for a latitude or longitude out of range', async () => {
    const lng = await get('?lat=42.37&lng=200');
    expect(lng.status).toBe(422);
    expect(lng.body.errors?.map((e) => e.field)).toContain('lng');
    const lat = await get('?lat=95&lng=-71.1');
    expect(lat.status).toBe(422);
    expect(lat.body.errors?.map((e) => e.field)).toContain('lat');
  });

  it('404 for a well-formed zip outside coverage; 200 with the spec fields for a covered zip and a point', async () => {
    const out = await get('?zip=00000');
    expect(out.status).toBe(404);
    expect(out.body.message).toMatch(/00000 is outside coverage/);
    const zip = await server.get('/v1/location/risk?zip=02143', key);
    expect(zip.status).toBe(200);
    expect(Object.keys((await zip.json()) as object)).toEqual(SPEC_FIELDS);
    const point = await server.get('/v1/location/risk?lat=42.3796&lng=-71.0935', key);
    expect(point.status).toBe(200);
    expect(await point.json()).toMatchObject({ zip_code: '02143', flood_zone: 'D', confidence: 'low' });
  });
});
