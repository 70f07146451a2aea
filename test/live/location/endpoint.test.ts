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
import { cellToBoundary, cellToLatLng, gridDisk, latLngToCell } from 'h3-js';
import { artifactsDir, buildDir, readShard, warehouseRows } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { makeContext, runSqlFile, type TestContext } from '../../helpers/context.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import location, { LocationEngine } from '../../../live/location/endpoint.ts';
import type { LiveAnswer, LiveInstance } from '../../../warehouse/live.ts';
import {
  classifyZone, environmentalScore, inFloodArea, MAPPED_MINIMAL, MAPPED_SHARE_MIN, parseFloodArea, RES, UNMAPPED, ZONE_SHARE_MIN, ZONE_WIN_RANK,
  type FloodArea,
} from '../../../live/location/rules.ts';
import type { FloodData } from '../../../live/location/data.ts';
import { FloodIndex } from '../../../live/location/flood-index.ts';
import { coverPolygon } from '../../../live/location/prepare.ts';
import { cellsWithinMile } from '../../../pipelines/intermediate/40_location_30_superfund_h3.ts';
import { run as runFlood } from '../../../pipelines/intermediate/40_location_40_flood_zones.ts';
import { run as runZcta } from '../../../pipelines/intermediate/40_location_50_zcta_polygons.ts';
import { run as runZipFacts, zipFlood } from '../../../pipelines/intermediate/40_location_60_zip_facts.ts';
import { run as runMart } from '../../../pipelines/marts/40_mart_location_risk.ts';
import { repoPath } from '../../helpers/paths.ts';

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

/**
 * The zone table of warehouse/docs/location.md "Flood zone, label and notes", written here from the doc (not the
 * product's classifyZone): `order` is the doc's rank order (VE > A* > shaded X > open water > D > levee X > minimal X),
 * `points` the score points, `wins` whether the class can win a zip at 10 % (shaded X, A*, V*). Null: not a flood zone.
 */
interface DocZone { zone: string; key: string; label: string; points: number; order: number; wins: boolean }
function docZone(fld: unknown, subtype: unknown): DocZone | null {
  const z = String(fld ?? '').trim().toUpperCase().replace(/^ZONE\s+/, '');
  const sub = String(subtype ?? '').toUpperCase();
  if (/^V(E|[0-9]{1,2})?$/.test(z)) return { zone: z, key: z, label: 'Very High', points: 100, order: 7, wins: true };
  if (/^A(E|O|H|R|99|[0-9]{1,2})?$/.test(z)) return { zone: z, key: z, label: 'High', points: 80, order: 6, wins: true };
  if (z === 'B' || (z === 'X' && /0\.2 PCT|1 PCT DEPTH|FUTURE CONDITIONS/.test(sub))) return { zone: z, key: 'X-shaded', label: 'Moderate', points: 45, order: 5, wins: true };
  if (z === 'OPEN WATER') return { zone: z, key: z, label: 'Moderate', points: 45, order: 4, wins: false };
  if (z === 'D') return { zone: 'D', key: 'D', label: 'Moderate', points: 35, order: 3, wins: false };
  if (z === 'X' && /LEVEE/.test(sub)) return { zone: 'X', key: 'X-levee', label: 'Low', points: 15, order: 2, wins: false };
  if (z === 'X' || z === 'C') return { zone: z === 'C' ? 'C' : 'X', key: 'X-minimal', label: 'Minimal', points: 0, order: 1, wins: false };
  return null;
}
const MINIMAL_X: DocZone = { zone: 'X', key: 'X-minimal', label: 'Minimal', points: 0, order: 1, wins: false };

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
  if (!a.ok) throw new Error(`expected 200, got ${a.code}: ${a.message}`);
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
    const doc = fs.readFileSync(repoPath('warehouse/docs/location.md'), 'utf8');
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
    const { run: runH3 } = await import('../../../pipelines/intermediate/40_location_30_superfund_h3.ts');
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
    // worked by hand from warehouse/docs/location.md: AE = 80 flood points, no site = 0, NRI 20 -> round(0.45 x 80 + 0.25 x 20) = 41
    expect(rows[0]!.environmental_risk_score).toBe(41);
    expect(rows[1]).toMatchObject({ zip: '90002', flood_zone: 'D', confidence: 'low', superfund_count_1mi: 1, as_of: '2021-06-13' });
    expect(rows[1]!.flood_risk_notes).toMatch(/no FEMA flood map was loaded/);
    // by hand: no map (flood left out) and no NRI row for county 31003 -> the Superfund points alone: 1 site = 50
    expect(rows[1]!.environmental_risk_score).toBe(50);
    // 90003: mapped minimal X (0 points), no site (0), NRI 20 -> round(0.45 x 0 + 0.30 x 0 + 0.25 x 20) = 5
    // 90004: no map (flood left out), no site, NRI 20 -> round((0.30 x 0 + 0.25 x 20) / 0.55) = round(9.09) = 9
    expect(rows.slice(2).map((r) => [r.zip, r.environmental_risk_score])).toEqual([['90003', 5], ['90004', 9]]);
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
    inst = await location.load({ dir, buildId: path.basename(dir), asOf: '', settings: loadSettings() });
    engine = LocationEngine.fromDir(path.join(dir, 'live', 'location'));
    cambridge = readFeatures(CAMBRIDGE);
    belmont = readFeatures(BELMONT);
    // centroids and equivalent radii from the raw Gazetteer (the oracle), not the build's own live/location/zips.json
    zipsJson = { zips: (await locationOracle()).zips.filter((z) => z.lat !== null && z.lng !== null).map((z) => [z.zip, z.lat!, z.lng!, z.radius, z.city, z.state]) };
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
    // (centroids and radii from the raw Gazetteer, see LocationOracle)

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
    expect(mid).toMatchObject({ ok: false, code: 'no_data' });
    expect((mid as { message: string }).message).toMatch(/outside coverage/);
    for (const [lat, lng] of [[90, 180], [-90, -180], [90, -180], [0, 0], [-90, 0], [0, 180], [45, -179.9999], [71.3, -156.8], [18.2, -66.5], [21.3, -157.8]] as const) {
      const a = await ask(lat, lng);
      expect(a.ok || a.code === 'no_data').toBe(true);
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


// ============================================================ an independent oracle, over HTTP
//
// Everything expected below is computed here from the raw files and warehouse/docs/location.md, never with the
// product's rules (live/location/rules.ts) or its live files: the zone table (docZone above), the flood polygons from the
// FEMA GeoJSON files (turf point-in-polygon), Superfund sites from npl_sites.csv (final + proposed, own haversine),
// zip land area and centroid from the 2025 Gazetteer ZCTA file, the county NRI score from the NRI county table, and
// the score formula written out. Only the zip -> city, state, county assignment comes from the warehouse's base
// `zips` table (the geo domain's canonical table, tested in geo.test.ts).

const SUPERFUND_AS_OF = '2021-06-13'; // the SEMS extract date (epa-superfund-sems/SOURCE.md)
const MILE = 1609.344;
/** The two sample maps: effective dates from fema-nfhl-flood-zones/SOURCE.md, declared areas from location.md "Mapped area". */
const ORACLE_MAPS = [
  { file: CAMBRIDGE, as_of: '2025-07-08', declares: (z: OracleZip): boolean => z.city === 'Cambridge' && z.state === 'MA' },
  { file: BELMONT, as_of: '2006-04-05', declares: (z: OracleZip): boolean => z.county === '39013' },
];

interface OracleZip { zip: string; city: string; state: string; county: string | null; lat: number | null; lng: number | null; radius: number }
interface OraclePiece { map: number; cls: DocZone; bbox: [number, number, number, number]; rings: RingIndex }
interface OracleSite { lat: number; lng: number }
type Expected = Omit<Body, 'flood_risk_notes'>;

/** The documented score: 0.45 flood + 0.30 Superfund + 0.25 NRI, a missing component left out and the rest re-weighted. */
function docScore(floodPoints: number | null, sites: number, nri: number | null): number {
  const sf = sites === 0 ? 0 : sites === 1 ? 50 : sites === 2 ? 75 : 100;
  let num = 0.3 * sf, den = 0.3;
  if (floodPoints !== null) { num += 0.45 * floodPoints; den += 0.45; }
  if (nri !== null) { num += 0.25 * nri; den += 0.25; }
  return Math.round(num / den);
}

/**
 * Even-odd ray casting over a polygon's rings, edges bucketed by latitude band (the Belmont minimal-X polygon has
 * 41,703 vertices and the zips around it are sampled by the thousand). Points exactly on an edge are not asked.
 */
class RingIndex {
  private readonly edges: number[] = [];
  private readonly bands: number[][];
  private readonly minY: number;
  private readonly h: number;
  constructor(rings: number[][][]) {
    let minY = Infinity, maxY = -Infinity;
    for (const ring of rings) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [x1, y1] = ring[i]!, [x2, y2] = ring[i + 1]!;
        this.edges.push(x1!, y1!, x2!, y2!);
        minY = Math.min(minY, y1!, y2!); maxY = Math.max(maxY, y1!, y2!);
      }
    }
    const n = Math.max(1, Math.min(2048, Math.ceil(this.edges.length / 4 / 8)));
    this.minY = minY;
    this.h = (maxY - minY) / n || 1;
    this.bands = Array.from({ length: n }, () => []);
    for (let e = 0; e < this.edges.length; e += 4) {
      const lo = this.band(Math.min(this.edges[e + 1]!, this.edges[e + 3]!)), hi = this.band(Math.max(this.edges[e + 1]!, this.edges[e + 3]!));
      for (let b = lo; b <= hi; b++) this.bands[b]!.push(e);
    }
  }
  private band(y: number): number {
    return Math.min(this.bands.length - 1, Math.max(0, Math.floor((y - this.minY) / this.h)));
  }
  contains(x: number, y: number): boolean {
    let inside = false;
    for (const e of this.bands[this.band(y)]!) {
      const x1 = this.edges[e]!, y1 = this.edges[e + 1]!, x2 = this.edges[e + 2]!, y2 = this.edges[e + 3]!;
      if (y1 > y !== y2 > y && x < ((x2 - x1) * (y - y1)) / (y2 - y1) + x1) inside = !inside;
    }
    return inside;
  }
}

class LocationOracle {
  readonly byZip: Map<string, OracleZip>;
  private readonly located: OracleZip[];
  private readonly complete: boolean[];
  readonly sites: OracleSite[];
  private readonly sitesByLat: OracleSite[];

  constructor(readonly zips: OracleZip[], readonly pieces: OraclePiece[], sites: OracleSite[], readonly nri: Map<string, number>,
    readonly polygons: Map<string, Feature<MultiPolygon>>) {
    this.byZip = new Map(zips.map((z) => [z.zip, z]));
    this.located = zips.filter((z) => z.lat !== null && z.lng !== null);
    // complete layer: the file has minimal-hazard X polygons (location.md "Mapped area")
    this.complete = ORACLE_MAPS.map((_, m) => pieces.some((p) => p.map === m && p.cls.key === 'X-minimal'));
    this.sites = sites;
    this.sitesByLat = [...sites].sort((a, b) => a.lat - b.lat);
    this.polygonBoxes = new Map([...polygons].map(([zip, f]) => [zip, bbox(f)]));
  }
  private readonly polygonBoxes: Map<string, number[]>;

  static async load(): Promise<LocationOracle> {
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    const q = async <T>(sql: string): Promise<T[]> => (await con.runAndReadAll(sql)).getRowObjectsJson() as T[];
    const src = (...p: string[]): string => path.join(sourcesDir(), ...p).replaceAll("'", "''");
    try {
      const sites = await q<OracleSite>(`
        select any_value(try_cast(latitude as double)) as lat, any_value(try_cast(longitude as double)) as lng
        from read_csv('${src('epa-superfund-sems', 'npl_sites.csv')}', all_varchar = true)
        where npl_status in ('Currently on the Final NPL', 'Proposed for NPL')
        group by epa_id having lat is not null and lng is not null`);
      const nri = await q<{ fips: string; score: number | null }>(`
        select lpad(trim(STCOFIPS), 5, '0') as fips, try_cast(RISK_SCORE as double) as score
        from read_csv('${src('fema-nri', 'NRI_Table_Counties_summary.csv')}', all_varchar = true)`);
      const gaz = await q<{ zip: string; aland: number; lat: number; lng: number }>(`
        select trim(GEOID) as zip, try_cast(ALAND as double) as aland, try_cast(INTPTLAT as double) as lat, try_cast(trim(INTPTLONG) as double) as lng
        from read_csv('${src('census-gazetteer-2025', '2025_Gaz_zcta_national.txt.gz')}', delim = '|', header = true, all_varchar = true)`);
      const gazBy = new Map(gaz.map((g) => [g.zip, g]));
      const base = await warehouseRows<{ zip: string; city: string; state_code: string; county_fips: string | null; lat: number | null; lng: number | null }>(
        `select zip, city, state_code, county_fips, lat::double as lat, lng::double as lng from zips`);
      const zips = base.map((z): OracleZip => {
        const g = gazBy.get(z.zip);
        // centroid: the Gazetteer internal point of a ZCTA, else the zips table's; radius: sqrt(ALAND / pi), >= 400 m; 1 mile for non-ZCTAs
        return { zip: z.zip, city: z.city, state: z.state_code, county: z.county_fips, lat: g?.lat ?? z.lat, lng: g?.lng ?? z.lng,
          radius: g && g.aland > 0 ? Math.max(400, Math.sqrt(g.aland / Math.PI)) : MILE };
      });
      const pieces: OraclePiece[] = [];
      ORACLE_MAPS.forEach((m, map) => {
        for (const f of readFeatures(m.file)) {
          const cls = docZone(f.properties['fld_zone'] ?? f.properties['FLD_ZONE'], f.properties['zone_subty'] ?? f.properties['ZONE_SUBTY']);
          if (!cls) continue;
          const parts = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
          for (const rings of parts) {
            const feature: Feature<Polygon> = { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } };
            pieces.push({ map, cls, bbox: bbox(feature) as [number, number, number, number], rings: new RingIndex(rings) });
          }
        }
      });
      const known = new Set(base.map((z) => z.zip));
      const polygons = new Map<string, Feature<MultiPolygon>>();
      const dir = path.join(sourcesDir(), 'zcta-boundaries-2010');
      for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
        for (const feat of (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { features: GeoFeature[] }).features) {
          const zip = String(feat.properties['ZCTA5CE10']);
          if (!known.has(zip)) continue;
          const polys = feat.geometry.type === 'Polygon' ? [feat.geometry.coordinates] : feat.geometry.coordinates;
          const prev = polygons.get(zip);
          polygons.set(zip, { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: [...(prev?.geometry.coordinates ?? []), ...polys] } });
        }
      }
      return new LocationOracle(zips, pieces, sites, new Map(nri.filter((n) => n.score !== null).map((n) => [n.fips, n.score!])), polygons);
    } finally {
      con.closeSync();
      inst.closeSync();
    }
  }

  /** Counted sites within `reach` metres of a point (haversine). */
  sitesWithin(lat: number, lng: number, reach: number): number {
    const dLat = reach / 110_000 + 0.01;
    let lo = 0, hi = this.sitesByLat.length; // first site with lat >= lat - dLat
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.sitesByLat[mid]!.lat < lat - dLat) lo = mid + 1; else hi = mid; }
    let n = 0;
    for (let i = lo; i < this.sitesByLat.length && this.sitesByLat[i]!.lat <= lat + dLat; i++) {
      const s = this.sitesByLat[i]!;
      if (haversine(lat, lng, s.lat, s.lng) <= reach) n++;
    }
    return n;
  }

  /** Counted sites within 1 mile of a ZCTA polygon: inside it, or within a mile of one of its rings (geodesic). */
  sitesNearPolygon(f: Feature<MultiPolygon>): number {
    const [minX, minY, maxX, maxY] = bbox(f);
    return this.sitesByLat.filter((s) => {
      if (s.lat < minY - 0.02 || s.lat > maxY + 0.02 || s.lng < minX - 0.03 || s.lng > maxX + 0.03) return false;
      if (booleanPointInPolygon([s.lng, s.lat], f)) return true;
      return f.geometry.coordinates.some((p) => p.some((ring) => pointToLineDistance([s.lng, s.lat], lineString(ring), { units: 'meters', method: 'geodesic' }) <= MILE));
    }).length;
  }

  /** The highest-ranked flood polygon containing the point, with its map; null outside every polygon. */
  private readonly pointMemo = new Map<string, { cls: DocZone; map: number } | null>();
  polygonAt(lat: number, lng: number): { cls: DocZone; map: number } | null {
    const k = `${lat},${lng}`;
    const memo = this.pointMemo.get(k);
    if (memo !== undefined) return memo;
    const hit = this.polygonAtUncached(lat, lng);
    this.pointMemo.set(k, hit);
    return hit;
  }
  private polygonAtUncached(lat: number, lng: number): { cls: DocZone; map: number } | null {
    let best: OraclePiece | null = null;
    for (const p of this.pieces) {
      if (lng < p.bbox[0] || lng > p.bbox[2] || lat < p.bbox[1] || lat > p.bbox[3]) continue;
      if (best && p.cls.order <= best.cls.order) continue;
      if (p.rings.contains(lng, lat)) best = p;
    }
    return best ? { cls: best.cls, map: best.map } : null;
  }

  /** A point classified: polygon zone; else minimal X when `areaZip` lies in a floodplain-only map's declared area; else unmapped (null). */
  classify(lat: number, lng: number, areaZip: OracleZip | null): { cls: DocZone; map: number } | null {
    const hit = this.polygonAt(lat, lng);
    if (hit) return hit;
    const m = areaZip ? ORACLE_MAPS.findIndex((x, i) => !this.complete[i] && x.declares(areaZip)) : -1;
    return m >= 0 ? { cls: MINIMAL_X, map: m } : null;
  }

  /** Flood facts of a zip from its samples (location.md "Flood zone of a zip"). */
  private readonly floodMemo = new Map<string, ReturnType<LocationOracle['zipFloodUncached']>>();
  zipFlood(z: OracleZip): { cls: DocZone | null; mapped: number; maps: Set<number>; samples: number } {
    let f = this.floodMemo.get(z.zip);
    if (!f) this.floodMemo.set(z.zip, (f = this.zipFloodUncached(z)));
    return f;
  }
  private zipFloodUncached(z: OracleZip): { cls: DocZone | null; mapped: number; maps: Set<number>; samples: number } {
    const none = { cls: null, mapped: 0, maps: new Set<number>(), samples: 0 };
    if (z.lat === null || z.lng === null) return none;
    const poly = this.polygons.get(z.zip);
    const dLat = z.radius / 110_000, dLng = z.radius / (110_000 * Math.cos((z.lat * Math.PI) / 180));
    const box = poly ? bbox(poly) : [z.lng - dLng, z.lat - dLat, z.lng + dLng, z.lat + dLat];
    const near = this.pieces.some((p) => p.bbox[0] <= box[2]! && box[0]! <= p.bbox[2] && p.bbox[1] <= box[3]! && box[1]! <= p.bbox[3]);
    const declared = ORACLE_MAPS.some((m, i) => !this.complete[i] && m.declares(z));
    if (!near && !declared) return none; // no sample can be mapped
    expect(poly, `${z.zip}: a ZCTA-polygon zip near a flood map (not sampled by this oracle)`).toBeUndefined();
    // samples: centres of the res-9 cells within the radius of the centroid (at least the centroid)
    const samples: [number, number][] = [];
    for (const c of gridDisk(latLngToCell(z.lat, z.lng, 9), Math.ceil(z.radius / 250) + 2)) {
      const [clat, clng] = cellToLatLng(c);
      if (haversine(z.lat, z.lng, clat, clng) <= z.radius) samples.push([clat, clng]);
    }
    if (!samples.length) samples.push([z.lat, z.lng]);
    const count = new Map<string, { cls: DocZone; n: number }>();
    const maps = new Set<number>();
    let mapped = 0;
    for (const [lat, lng] of samples) {
      const hit = this.classify(lat, lng, z);
      if (!hit) continue;
      mapped++;
      maps.add(hit.map);
      const e = count.get(hit.cls.key);
      if (e) e.n++; else count.set(hit.cls.key, { cls: hit.cls, n: 1 });
    }
    const total = samples.length;
    const big = [...count.values()].filter((c) => c.n / total >= 0.1).sort((a, b) => b.cls.order - a.cls.order || b.n - a.n);
    let cls: DocZone | null = null;
    if (big[0]?.cls.wins) cls = big[0].cls;
    else if (mapped / total >= 0.5) cls = (big[0] ?? [...count.values()].sort((a, b) => b.n - a.n)[0]!).cls;
    return { cls, mapped: mapped / total, maps, samples: total };
  }

  expectedZip(zip: string): Expected {
    const z = this.byZip.get(zip)!;
    const poly = this.polygons.get(zip);
    const f = this.zipFlood(z);
    const sites = poly ? this.sitesNearPolygon(poly) : z.lat === null || z.lng === null ? 0 : this.sitesWithin(z.lat, z.lng, z.radius + MILE);
    const nri = z.county ? this.nri.get(z.county) ?? null : null;
    const conf = z.lat === null || f.mapped < 0.5 ? 'low' : f.mapped >= 0.9 && poly ? 'high' : 'medium';
    const want: Expected = {
      zip_code: zip, city: z.city, state: z.state, flood_zone: f.cls?.zone ?? 'D', flood_risk_label: f.cls?.label ?? 'Moderate',
      superfund_nearby: sites > 0, superfund_count_1mi: sites, environmental_risk_score: docScore(f.cls?.points ?? null, sites, nri),
      confidence: conf, as_of: [SUPERFUND_AS_OF, ...[...f.maps].map((m) => ORACLE_MAPS[m]!.as_of)].sort().at(-1)!,
    };
    return want;
  }


  /** null: no zip reaches the point (404). */
  expectedPoint(lat: number, lng: number): Expected | null {
    let zip: OracleZip | null = null, polygon = false;
    for (const [code, f] of this.polygons) {
      const b = this.polygonBoxes.get(code)!;
      if (lng < b[0]! || lng > b[2]! || lat < b[1]! || lat > b[3]!) continue;
      if (booleanPointInPolygon([lng, lat], f)) { zip = this.byZip.get(code)!; polygon = true; break; }
    }
    let areaZip = zip;
    if (!zip) {
      let bestD = Infinity, bestW = Infinity;
      for (const z of this.located) {
        const d = haversine(lat, lng, z.lat!, z.lng!);
        if (d > Math.max(16_000, 2 * z.radius)) continue; // the zip does not reach the point
        if (d < bestD) { bestD = d; zip = z; }
        if (d / z.radius < bestW) { bestW = d / z.radius; areaZip = z; }
      }
    }
    if (!zip) return null;
    const hit = this.classify(lat, lng, areaZip);
    const sites = this.sitesWithin(lat, lng, MILE);
    const nri = zip.county ? this.nri.get(zip.county) ?? null : null;
    return {
      zip_code: zip.zip, city: zip.city, state: zip.state, flood_zone: hit?.cls.zone ?? 'D', flood_risk_label: hit?.cls.label ?? 'Moderate',
      superfund_nearby: sites > 0, superfund_count_1mi: sites, environmental_risk_score: docScore(hit?.cls.points ?? null, sites, nri),
      confidence: !hit ? 'low' : polygon ? 'high' : 'medium', as_of: hit && ORACLE_MAPS[hit.map]!.as_of > SUPERFUND_AS_OF ? ORACLE_MAPS[hit.map]!.as_of : SUPERFUND_AS_OF,
    };
  }
}

let oracleLoad: Promise<LocationOracle> | null = null;
/** One oracle per file (reading the raw files takes a few seconds). */
const locationOracle = (): Promise<LocationOracle> => (oracleLoad ??= LocationOracle.load());

/** The zips compared over HTTP: every zip a flood map touches, and zips without a map (several kinds). */
function oracleZips(oracle: LocationOracle): string[] {
  // every zip the oracle finds touched by a map (Cambridge, Belmont County and the neighbours whose area reaches a polygon)
  const mapped = oracle.zips.filter((z) => oracle.zipFlood(z).maps.size > 0).map((z) => z.zip);
  const cambridge = oracle.zips.filter((z) => z.city === 'Cambridge' && z.state === 'MA').map((z) => z.zip);
  const belmont = oracle.zips.filter((z) => z.county === '39013').map((z) => z.zip);
  expect(cambridge.length).toBeGreaterThanOrEqual(5);
  expect(belmont.length).toBeGreaterThanOrEqual(10);
  // no map: Lawrence KS, Seattle, Hartford CT (a planning region: no NRI score), Wilmington DE, Washington DC and
  // Providence RI (ZCTA polygons), Somerville MA; and zips with Superfund sites around them
  const others = ['66044', '98103', '06103', '19801', '20001', '02903', '02143', '07105', '08103', '55421', '97217'];
  return [...new Set([...cambridge, ...belmont, ...mapped, ...others])].sort();
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
  // no map: Lawrence KS, Seattle, Hartford CT (no NRI score for planning regions), Wilmington DE and Providence RI
  // (ZCTA polygons), Adak AK (a huge zip near the antimeridian)
  points.push([38.9717, -95.2353, 'Lawrence KS'], [47.6062, -122.3321, 'Seattle'], [41.7637, -72.6851, 'Hartford CT'],
    [39.7447, -75.5484, 'Wilmington DE'], [41.824, -71.4128, 'Providence RI'], [51.88, -176.65, 'Adak AK']);
  // an isolated counted site: 0.5 and 0.98 mi away (counted), 1.02 and 1.5 mi (not); and the middle of a cluster
  const lonely = oracle.sites.find((s) => s.lat > 30 && s.lng < -80 && oracle.sitesWithin(s.lat, s.lng, 5 * MILE) === 1)!;
  for (const [mi, bearing] of [[0.5, 10], [0.98, 100], [1.02, 190], [1.5, 280]] as const) {
    const [lng, lat] = destination([lonely.lng, lonely.lat], mi, bearing, { units: 'miles' }).geometry.coordinates as [number, number];
    points.push([lat, lng, `${mi} mi from a lone site`]);
  }
  const cluster = oracle.sites.find((s) => oracle.sitesWithin(s.lat, s.lng, MILE) >= 3)!;
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
  const spec = (b: Body): Expected => {
    const { flood_risk_notes: _notes, ...rest } = b;
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
    const seen = { zones: new Set<string>(), nriNull: 0, sites: 0, medium: 0, low: 0 };
    const bad: string[] = [];
    for (const { zip, want } of zipCases) {
      const { status, body } = await get(`zip=${zip}`);
      expect(status, zip).toBe(200);
      if (JSON.stringify(spec(body)) !== JSON.stringify(want)) bad.push(`${zip}: got ${JSON.stringify(spec(body))}, oracle ${JSON.stringify(want)}`);
      expect(Object.keys(body)).toEqual(SPEC_FIELDS);
      if (want.flood_zone === 'D') expect(body.flood_risk_notes, zip).toMatch(/undetermined/);
      seen.zones.add(want.flood_zone);
      if (want.confidence !== 'high') seen[want.confidence as 'medium' | 'low']++;
      if (want.superfund_count_1mi > 0) seen.sites++;
      const z = oracle.byZip.get(zip)!;
      if (!z.county || !oracle.nri.has(z.county)) seen.nriNull++;
    }
    expect(bad).toEqual([]);
    // the comparison exercised every branch of the formula
    expect(zipCases.length).toBeGreaterThan(50);
    expect([...seen.zones].sort()).toEqual(expect.arrayContaining(['AE', 'D', 'X']));
    expect(seen.medium).toBeGreaterThan(0);
    expect(seen.low).toBeGreaterThan(0);
    expect(seen.sites).toBeGreaterThan(3);
    expect(seen.nriNull).toBeGreaterThan(0);
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
