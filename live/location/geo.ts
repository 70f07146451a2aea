// Geometry helpers of the location-risk domain: boxes, rings, the H3 cell of a point (null where h3-js throws: the
// indexes answer "no candidates", never an error, for a finite lat/lng) and a point's distance to a cell boundary.
// Shared by the build (pipelines/intermediate/40_location_*) and the indexes of the live point lookup
// (flood-index.ts, site-index.ts, zip-locator.ts), where H3 cells find candidates and turf booleanPointInPolygon or
// the haversine distance gives the exact answer.
import type { Position } from 'geojson';
import { latLngToCell } from 'h3-js';

export type BBox = [number, number, number, number]; // minLng, minLat, maxLng, maxLat
export type Ring = Position[]; // [lng, lat] pairs, closed

export function ringsBBox(rings: readonly Ring[]): BBox {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const r of rings) for (const p of r) {
    const x = p[0]!, y = p[1]!;
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export const inBBox = (b: BBox, lng: number, lat: number): boolean => lng >= b[0] && lng <= b[2] && lat >= b[1] && lat <= b[3];

/** The last point's cell at each resolution: one lookup asks for the same point's cell several times (flood,
 *  Superfund and ZCTA candidates, each zip search), and h3-js's latLngToCell was a fifth of its CPU. */
const lastCell: { lat: number; lng: number; cell: string | null }[] = [];

/** H3 cell of a point, or null (h3-js throws for some inputs; callers treat null as "no candidates"). */
export function cellOf(lat: number, lng: number, res: number): string | null {
  const last = lastCell[res];
  if (last && Object.is(last.lat, lat) && Object.is(last.lng, lng)) return last.cell;
  let cell: string | null;
  try {
    cell = latLngToCell(lat, lng, res);
  } catch {
    cell = null;
  }
  lastCell[res] = { lat, lng, cell };
  return cell;
}

/** Metres per degree at a latitude (local equirectangular projection, good to << 1 m over a few km). */
function metresPerDegree(lat: number): [number, number] {
  const k = (Math.PI / 180) * 6_371_008.8;
  return [k * Math.cos((lat * Math.PI) / 180), k];
}

/**
 * Distance in metres from a point to a small polygon ring (an H3 cell boundary, [lat, lng] pairs as h3-js
 * returns them): 0 inside. Local projection around the point; used only to choose candidate cells.
 */
export function pointToCellBoundaryM(lat: number, lng: number, boundary: readonly number[][]): number {
  const [mx, my] = metresPerDegree(lat);
  const pts = boundary.map((p) => {
    let dLng = p[1]! - lng;
    if (dLng > 180) dLng -= 360; else if (dLng < -180) dLng += 360;
    return [dLng * mx, (p[0]! - lat) * my] as const;
  });
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i]!, [xj, yj] = pts[j]!;
    if ((yi > 0) !== (yj > 0) && 0 < ((xj - xi) * (0 - yi)) / (yj - yi) + xi) inside = !inside;
    const dx = xj - xi, dy = yj - yi;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (-xi * dx - yi * dy) / len2));
    const d = Math.hypot(xi + t * dx, yi + t * dy);
    if (d < best) best = d;
  }
  return inside ? 0 : best;
}

