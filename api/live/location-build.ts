// Build-side helpers of the location-risk steps (pipelines/intermediate/40_location_*.ts,
// pipelines/marts/40_mart_location_risk.ts, pipelines/shards/location-live.ts). They live beside the live
// module because a helper file inside a stage folder would be run as a step.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { DuckDBDateValue, type DuckDBConnection } from '@duckdb/node-api';
import { POLYGON_TO_CELLS_FLAGS, polygonToCellsExperimental } from 'h3-js';
import type { Position } from 'geojson';
import type { Ring } from './location-geo.ts';

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

/** Rounds coordinates to 7 decimals (~1 cm): smaller live files, no change to any answer. */
export function roundRings(rings: Ring[]): Ring[] {
  return rings.map((r) => r.map((p) => [Math.round(p[0]! * 1e7) / 1e7, Math.round(p[1]! * 1e7) / 1e7]));
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
