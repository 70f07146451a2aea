// Build-side helpers of the location-risk steps (pipelines/intermediate/40_location_*.ts,
// pipelines/marts/40_mart_location_risk.ts, live/location/build.ts). They live beside the live
// module because a helper file inside a stage folder would be run as a step.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { DuckDBDateValue, type DuckDBConnection } from '@duckdb/node-api';
import { POLYGON_TO_CELLS_FLAGS, polygonToCellsExperimental } from 'h3-js';
import type { Position } from 'geojson';
import { tableExists } from '../../warehouse/db.ts';
import type { FloodData, SiteData, ZctaData } from './data.ts';
import type { Ring } from './geo.ts';
import type { FloodArea } from './rules.ts';

/** Whether the build read an EPA Superfund file (./superfund-loaded.ts): either EPA file's raw table (the NPL list, or
 *  the SEMS extract whose NPL rows the count also reads), or sites given to the location steps directly (their tests). */
export async function superfundLoaded(db: DuckDBConnection): Promise<boolean> {
  if ((await tableExists(db, 'raw.superfund__npl_sites')) || (await tableExists(db, 'raw.superfund__sems_sites'))) return true;
  return (await tableExists(db, 'superfund_sites')) && Number((await db.runAndReadAll('select count(*) from superfund_sites')).getRows()[0]![0]) > 0;
}

export type ColType = 'varchar' | 'integer' | 'bigint' | 'double' | 'boolean' | 'date';

/** Bulk-appends rows (arrays in column order) into an existing table with the DuckDB appender. */
export async function appendRows(db: DuckDBConnection, table: string, types: readonly ColType[], rows: Iterable<readonly unknown[]>): Promise<number> {
  const a = await db.createAppender(table);
  let n = 0;
  try {
    for (const row of rows) {
      for (let i = 0; i < types.length; i++) {
        const v = row[i];
        if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) { a.appendNull(); continue; }
        switch (types[i]) {
          case 'varchar': a.appendVarchar(String(v)); break;
          case 'integer': a.appendInteger(Number(v)); break;
          case 'bigint': a.appendBigInt(BigInt(Math.round(Number(v)))); break;
          case 'double': a.appendDouble(Number(v)); break;
          case 'boolean': a.appendBoolean(Boolean(v)); break;
          case 'date': a.appendDate(new DuckDBDateValue(Math.floor(Date.parse(`${String(v)}T00:00:00Z`) / 86_400_000))); break;
        }
      }
      a.endRow();
      n++;
    }
  } finally {
    a.closeSync();
  }
  return n;
}

/** Reads a GeoJSON FeatureCollection (optionally .gz). */
export function readGeoJson(file: string): { features: { type?: string; properties?: Record<string, unknown> | null; geometry?: { type: string; coordinates: unknown } | null }[] } {
  let buf = fs.readFileSync(file);
  if (file.endsWith('.gz')) buf = zlib.gunzipSync(buf);
  const doc = JSON.parse(buf.toString('utf8')) as { type?: string; features?: unknown };
  if (!doc || !Array.isArray(doc.features)) throw new Error(`${file}: not a GeoJSON FeatureCollection`);
  return doc as never;
}

/** A property by name, case-insensitively (NFHL exports spell FLD_ZONE and fld_zone). */
export function prop(props: Record<string, unknown> | null | undefined, ...names: string[]): unknown {
  if (!props) return undefined;
  const want = new Set(names.map((n) => n.toLowerCase()));
  for (const [k, v] of Object.entries(props)) if (want.has(k.toLowerCase())) return v;
  return undefined;
}

/** Polygon parts of a Polygon / MultiPolygon geometry (each: outer ring + holes), or null for other types. */
export function polygonParts(geometry: { type: string; coordinates: unknown } | null | undefined): Ring[][] | null {
  if (!geometry) return null;
  const valid = (rings: unknown): rings is Ring[] => Array.isArray(rings) && rings.length > 0
    && rings.every((r) => Array.isArray(r) && r.length >= 4 && r.every((p) => Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1])));
  if (geometry.type === 'Polygon') return valid(geometry.coordinates) ? [geometry.coordinates] : null;
  if (geometry.type === 'MultiPolygon' && Array.isArray(geometry.coordinates)) {
    const parts = (geometry.coordinates as unknown[]).filter(valid);
    return parts.length ? parts : null;
  }
  return null;
}

/**
 * H3 cover of one polygon part: every cell that overlaps it, and which of those lie wholly inside
 * (h3-js polygonToCellsExperimental, containmentOverlapping / containmentFull).
 */
export function coverPolygon(rings: Ring[], res: number): { cells: string[]; full: Set<string> } {
  const coords = rings as number[][][];
  const overlapping = polygonToCellsExperimental(coords, res, POLYGON_TO_CELLS_FLAGS.containmentOverlapping, true);
  const full = new Set(polygonToCellsExperimental(coords, res, POLYGON_TO_CELLS_FLAGS.containmentFull, true));
  return { cells: overlapping, full };
}

/** Sutherland-Hodgman clip of one closed ring to a box; returns a closed ring, or null when nothing is left. */
export function clipRing(ring: Ring, box: readonly [number, number, number, number]): Ring | null {
  let pts: Position[] = ring.slice(0, -1);
  const edges: [(p: Position) => boolean, (a: Position, b: Position) => Position][] = [
    [(p) => p[0]! >= box[0], (a, b) => [box[0], a[1]! + ((b[1]! - a[1]!) * (box[0] - a[0]!)) / (b[0]! - a[0]!)]],
    [(p) => p[0]! <= box[2], (a, b) => [box[2], a[1]! + ((b[1]! - a[1]!) * (box[2] - a[0]!)) / (b[0]! - a[0]!)]],
    [(p) => p[1]! >= box[1], (a, b) => [a[0]! + ((b[0]! - a[0]!) * (box[1] - a[1]!)) / (b[1]! - a[1]!), box[1]]],
    [(p) => p[1]! <= box[3], (a, b) => [a[0]! + ((b[0]! - a[0]!) * (box[3] - a[1]!)) / (b[1]! - a[1]!), box[3]]],
  ];
  for (const [inside, cut] of edges) {
    if (pts.length === 0) break;
    const out: Position[] = [];
    for (let i = 0; i < pts.length; i++) {
      const cur = pts[i]!;
      const prev = pts[(i + pts.length - 1) % pts.length]!;
      const cin = inside(cur), pin = inside(prev);
      if (cin) {
        if (!pin) out.push(cut(prev, cur));
        out.push(cur);
      } else if (pin) out.push(cut(prev, cur));
    }
    pts = out;
  }
  if (pts.length < 3) return null;
  return [...pts, pts[0]!];
}

const vertexCount = (rings: Ring[]): number => rings.reduce((a, r) => a + r.length, 0);

/**
 * Splits a polygon part (outer ring + holes) into quadrant pieces until each has at most maxVertices, so that
 * H3 covering and point-in-polygon stay fast on 40,000-vertex dissolved polygons. The pieces tile the part
 * exactly (points on a cut line belong to both neighbours, which answer the same zone).
 */
export function splitPolygon(rings: Ring[], maxVertices = 1500, depth = 0): Ring[][] {
  if (vertexCount(rings) <= maxVertices || depth >= 12) return [rings];
  const [minX, minY, maxX, maxY] = ringsBBoxOf(rings);
  const midX = (minX + maxX) / 2, midY = (minY + maxY) / 2;
  const boxes: [number, number, number, number][] = [
    [minX, minY, midX, midY], [midX, minY, maxX, midY], [minX, midY, midX, maxY], [midX, midY, maxX, maxY],
  ];
  const out: Ring[][] = [];
  for (const box of boxes) {
    const outer = clipRing(rings[0]!, box);
    if (!outer) continue;
    const holes = rings.slice(1).map((h) => clipRing(h, box)).filter((h): h is Ring => h !== null);
    out.push(...splitPolygon([outer, ...holes], maxVertices, depth + 1));
  }
  return out;
}

/** The pieces of a ZCTA MultiPolygon (its parts, each tiled over 600 vertices), in a stable order. */
export function zctaPieces(polygons: Ring[][]): Ring[][] {
  return polygons.flatMap((rings) => splitPolygon(rings, 600));
}

function ringsBBoxOf(rings: Ring[]): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const r of rings) for (const p of r) {
    if (p[0]! < minX) minX = p[0]!; if (p[0]! > maxX) maxX = p[0]!;
    if (p[1]! < minY) minY = p[1]!; if (p[1]! > maxY) maxY = p[1]!;
  }
  return [minX, minY, maxX, maxY];
}

/** An ISO date (YYYY-MM-DD) from a date-ish property value: epoch ms (ArcGIS), ISO text, or null. */
export function isoDate(v: unknown): string | null {
  if (v == null || v === '') return null;
  const t = typeof v === 'number' ? v : Date.parse(String(v));
  if (!Number.isFinite(t)) return null;
  const d = new Date(t);
  const y = d.getUTCFullYear();
  return y >= 1960 && y <= 2100 ? d.toISOString().slice(0, 10) : null;
}

// ------------------------------------------------------------------ warehouse -> live data shapes

interface Rows { <T>(sql: string): Promise<T[]> }
const rowsOf = (db: DuckDBConnection): Rows => async <T,>(sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson() as T[];

/** flood_maps + flood_zones + int_flood_h3 as the FloodIndex input. */
export async function loadFloodData(db: DuckDBConnection, res: number): Promise<FloodData> {
  const q = rowsOf(db);
  const maps = await q<{ map_id: number; source_file: string; min_lng: number; min_lat: number; max_lng: number; max_lat: number; complete: boolean; area_json: string | null; as_of: string | null }>(
    `select map_id, source_file, min_lng, min_lat, max_lng, max_lat, complete, area_json, cast(as_of as varchar) as as_of from flood_maps where polygons > 0 order by map_id`);
  const mapPos = new Map(maps.map((m, i) => [m.map_id, i]));
  const polys = await q<{ polygon_id: number; map_id: number; zone: string; zone_subtype: string | null; sfha: boolean; min_lng: number; min_lat: number; max_lng: number; max_lat: number; geojson: string }>(
    `select polygon_id, map_id, zone, zone_subtype, sfha, min_lng, min_lat, max_lng, max_lat, geojson from flood_zones order by polygon_id`);
  const polyPos = new Map(polys.map((p, i) => [p.polygon_id, i]));
  const cells: Record<string, number[]> = {};
  for (const c of await q<{ cell: string; polygon_id: number; full_cell: boolean }>(`select cell, polygon_id, full_cell from int_flood_h3 order by cell, polygon_id`)) {
    const pos = polyPos.get(c.polygon_id);
    if (pos === undefined) continue;
    (cells[c.cell] ??= []).push(pos * 2 + (c.full_cell ? 1 : 0));
  }
  return {
    res,
    maps: maps.map((m) => ({
      id: m.map_id, file: m.source_file, bbox: [m.min_lng, m.min_lat, m.max_lng, m.max_lat],
      complete: m.complete,
      area: m.area_json ? (JSON.parse(m.area_json) as FloodArea) : null,
      as_of: m.as_of,
    })),
    polygons: polys.map((p) => ({
      id: p.polygon_id, map: mapPos.get(p.map_id) ?? 0, zone: p.zone, subtype: p.zone_subtype, sfha: p.sfha,
      bbox: [p.min_lng, p.min_lat, p.max_lng, p.max_lat], rings: (JSON.parse(p.geojson) as { coordinates: Ring[] }).coordinates,
    })),
    cells,
  };
}

/** Counted superfund sites + int_superfund_h3 as the SiteIndex input. */
export async function loadSiteData(db: DuckDBConnection, res: number): Promise<SiteData> {
  const q = rowsOf(db);
  const sites = await q<{ epa_id: string; site_name: string; npl_status: string; lat: number; lng: number }>(
    `select epa_id, site_name, npl_status, lat, lng from superfund_sites where counted order by epa_id`);
  const pos = new Map(sites.map((s, i) => [s.epa_id, i]));
  const cells: Record<string, number[]> = {};
  for (const c of await q<{ cell: string; epa_id: string }>(`select cell, epa_id from int_superfund_h3 order by cell, epa_id`)) {
    const i = pos.get(c.epa_id);
    if (i !== undefined) (cells[c.cell] ??= []).push(i);
  }
  const others = await q<{ epa_id: string; site_name: string; lat: number; lng: number }>(
    `select epa_id, site_name, lat, lng from superfund_sems_other order by epa_id`);
  return { res, sites: sites.map((s) => [s.epa_id, s.site_name, s.npl_status, s.lat, s.lng]), cells,
    others: others.map((s) => [s.epa_id, s.site_name, s.lat, s.lng]) };
}

/** zcta_polygons (pieces, see zctaPieces) + int_zcta_h3 as the ZipLocator polygon input; only zips in `keep`. */
export async function loadZctaData(db: DuckDBConnection, res: number, keep: (zip: string) => boolean): Promise<ZctaData> {
  const q = rowsOf(db);
  const zctas: ZctaData['zctas'] = [];
  const pieceAt = new Map<string, number>(); // zip|piece -> position
  for (const z of await q<{ zip: string; geojson: string }>(`select zip, geojson from zcta_polygons order by zip`)) {
    if (!keep(z.zip)) continue;
    const polygons = (JSON.parse(z.geojson) as { coordinates: Ring[][] }).coordinates;
    zctaPieces(polygons).forEach((rings, i) => {
      pieceAt.set(`${z.zip}|${i}`, zctas.length);
      zctas.push({ zip: z.zip, bbox: ringsBBoxOf(rings), polygons: [rings] });
    });
  }
  const cells: Record<string, number[]> = {};
  for (const c of await q<{ cell: string; zip: string; piece_index: number; full_cell: boolean }>(
    `select cell, zip, piece_index, full_cell from int_zcta_h3 order by cell, zip, piece_index`)) {
    const i = pieceAt.get(`${c.zip}|${c.piece_index}`);
    if (i !== undefined) (cells[c.cell] ??= []).push(i * 2 + (c.full_cell ? 1 : 0));
  }
  return { res, zctas, cells };
}
