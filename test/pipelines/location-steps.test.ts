// Location build steps (pipelines/intermediate/40_location_*, pipelines/marts/40_mart_location_risk.ts): the zip
// flood-zone rule (zipFlood) over built samples, the H3 cells of the Superfund step, and the steps run over given rows
// (a synthetic flood map and zips) in an in-memory DuckDB. The rules are documented in warehouse/docs/location.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booleanPointInPolygon, destination } from '@turf/turf';
import { cellToBoundary, cellToLatLng, cellToParent, getResolution, latLngToCell } from 'h3-js';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { MAPPED_SHARE_MIN, RES, ZONE_SHARE_MIN, ZONE_WIN_RANK } from '../../live/location/rules.ts';
import type { FloodData } from '../../live/location/data.ts';
import { FloodIndex } from '../../live/location/flood-index.ts';
import { coverPolygon } from '../../live/location/prepare.ts';
import { cellsWithinMile } from '../../pipelines/intermediate/40_location_30_superfund_h3.ts';
import { run as runFlood } from '../../pipelines/intermediate/40_location_40_flood_zones.ts';
import { run as runZcta } from '../../pipelines/intermediate/40_location_50_zcta_polygons.ts';
import { diskSamples, MIN_SAMPLES, run as runZipFacts, zipFlood } from '../../pipelines/intermediate/40_location_60_zip_facts.ts';
import { run as runMart } from '../../pipelines/marts/40_mart_location_risk.ts';
import { repoPath } from '../helpers/paths.ts';

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

describe('zip samples (diskSamples)', () => {
  const metres = (a: [number, number], b: [number, number]): number => {
    const r = Math.PI / 180, x = (b[1] - a[1]) * r * Math.cos(((a[0] + b[0]) / 2) * r), y = (b[0] - a[0]) * r;
    return 6_371_008.8 * Math.hypot(x, y);
  };
  it('a small zip gets finer cells until it has MIN_SAMPLES (a 400 m disk had 4-5 at res 9, so one read as 25%)', () => {
    const centre: [number, number] = [42.3713, -71.1245]; // zip 02163's centroid area, Cambridge MA (review 5B)
    const samples = diskSamples(centre[0], centre[1], 400);
    expect(samples.length).toBeGreaterThanOrEqual(MIN_SAMPLES);
    for (const [lat, lng, cell] of samples) {
      expect(metres(centre, [lat, lng])).toBeLessThanOrEqual(400);
      expect(getResolution(cell!)).toBe(RES.flood); // the flood index's key: the sample's own res-9 cell
      expect(cellToParent(latLngToCell(lat, lng, 11), RES.flood)).toBe(cell); // the res-9 cell the sample's cell lies in
    }
    // evenly spread: each quarter of the disk holds about a quarter of the samples
    const ne = samples.filter(([lat, lng]) => lat > centre[0] && lng > centre[1]).length;
    expect(ne / samples.length).toBeGreaterThan(0.18);
    expect(ne / samples.length).toBeLessThan(0.32);
  });
  it('a large zip keeps its res-9 cell centres', () => {
    const samples = diskSamples(40.0, -100.0, 3000);
    expect(samples.length).toBeGreaterThanOrEqual(MIN_SAMPLES);
    for (const [lat, lng, cell] of samples) expect(latLngToCell(lat, lng, RES.flood)).toBe(cell);
    expect(samples.length).toBeLessThan(400); // ~28 km2 over ~0.1 km2 cells, not a finer grid
  });
});

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
    await ctx.db.run(`alter table zips add column is_zcta boolean default true; alter table zips add column centroid_source varchar default 'gazetteer_zcta'`);
    await ctx.db.run(`insert into int_nri_counties values ('31001', 'NE', 'Adams', 20.0, 'Relatively Low', 10, 'Low')`);
    await ctx.db.run(`create table stg_hud_crosswalk__zip_county (zip varchar, county_fips varchar, tot_ratio double, res_ratio double)`);
    await runSqlFile(ctx, 'pipelines/intermediate/40_location_21_nri_zips.sql');
    await ctx.db.run(`insert into superfund_sites values
      ('NE0000000001', '1', 'NEAR SITE', 'final', 'Currently on the Final NPL', true, null, null, null, '31003', 'NE', '90002', 42.005, -98.0, false, 'npl_sites', date '2021-06-13'),
      ('NE0000000002', '2', 'DELETED SITE', 'deleted', 'Deleted from the Final NPL', false, null, null, null, '31003', 'NE', '90002', 42.0, -98.001, false, 'npl_sites', date '2021-06-13')`);
    const { run: runH3 } = await import('../../pipelines/intermediate/40_location_30_superfund_h3.ts');
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
    // by hand: no map (flood left out) and no NRI row for county 31003 -> the Superfund points alone: 1 site = 50,
    // and the notes say the score rests on that alone
    expect(rows[1]!.environmental_risk_score).toBe(50);
    expect(rows[1]!.flood_risk_notes).toMatch(/rests on Superfund proximity alone/);
    expect(rows[0]!.flood_risk_notes).not.toMatch(/Superfund proximity alone/);
    // 90003: mapped minimal X (0 points), no site (0), NRI 20 -> round(0.45 x 0 + 0.30 x 0 + 0.25 x 20) = 5
    // 90004: no map (flood left out), no site, NRI 20 -> round((0.30 x 0 + 0.25 x 20) / 0.55) = round(9.09) = 9
    expect(rows.slice(2).map((r) => [r.zip, r.environmental_risk_score])).toEqual([['90003', 5], ['90004', 9]]);
  });
});
