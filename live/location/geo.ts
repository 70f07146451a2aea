// Spatial indexes of the location-risk domain, shared by the build (zip sampling) and the live point lookup.
// H3 (h3-js) finds candidates; turf booleanPointInPolygon and the haversine distance give the exact answer.
// Nothing here throws for a finite lat/lng: h3-js errors are caught and answered as "no candidates".
import { booleanPointInPolygon } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { gridDisk, latLngToCell } from 'h3-js';
import {
  MAPPED_MINIMAL, MILE_M, NEAREST_MIN_M, NEAREST_RADIUS_FACTOR, RES, UNMAPPED, classifyZone, haversineM, inFloodArea,
  type AreaKey, type FloodArea, type ZoneClass,
} from './rules.ts';

export type BBox = [number, number, number, number]; // minLng, minLat, maxLng, maxLat
export type Ring = Position[]; // [lng, lat] pairs, closed

// ------------------------------------------------------------------ data shapes (live/location/*.json)

export interface FloodMapData {
  id: number;
  file: string;
  bbox: BBox;
  /**
   * True when the map also has minimal-hazard X polygons (a complete S_FLD_HAZ_AR layer): its polygons are its
   * mapped area, and a point outside all of them is not mapped (D) whatever the declared area.
   */
  complete: boolean;
  /**
   * The community/county the file was cut to (registry or `<file>.area.json`), or null when undeclared. For a
   * floodplain-only file a point outside its polygons is minimal-hazard X only when its zip lies in this area.
   */
  area: FloodArea | null;
  as_of: string | null;
}

export interface FloodPolygonData {
  id: number; // flood_zones.polygon_id
  map: number; // index into maps
  zone: string;
  subtype: string | null;
  sfha: boolean;
  bbox: BBox;
  rings: Ring[]; // outer ring + holes
}

export interface FloodData {
  res: number;
  maps: FloodMapData[];
  polygons: FloodPolygonData[];
  /** H3 cell -> polygon positions, each encoded as position * 2 + (1 when the cell lies wholly inside). */
  cells: Record<string, number[]>;
}

export interface SiteData {
  res: number;
  /** Counted NPL sites: [epa_id, site_name, npl_status, lat, lng]. */
  sites: [string, string, string, number, number][];
  /** H3 cell -> site positions whose 1-mile disk reaches the cell. */
  cells: Record<string, number[]>;
}

export interface ZctaData {
  res: number;
  zctas: { zip: string; bbox: BBox; polygons: Ring[][] }[];
  /** H3 cell -> zcta positions * 2 + (1 when the cell lies wholly inside). */
  cells: Record<string, number[]>;
}

export interface ZipData {
  /** [zip, lat, lng, radius_m, city, state, county NRI risk score | null, county FIPS | null] */
  zips: [string, number, number, number, string, string, number | null, string | null][];
}

// ------------------------------------------------------------------ small geometry helpers

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

/** H3 cell of a point, or null (h3-js throws for some inputs; callers treat null as "no candidates"). */
export function cellOf(lat: number, lng: number, res: number): string | null {
  try {
    return latLngToCell(lat, lng, res);
  } catch {
    return null;
  }
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

function toFeature(rings: Ring[]): Feature<Polygon> {
  return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } };
}
function toMultiFeature(polys: Ring[][]): Feature<MultiPolygon> {
  return { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: polys } };
}

const toMap = (rec: Record<string, number[]>): Map<string, number[]> => new Map(Object.entries(rec));

// ------------------------------------------------------------------ flood

export interface FloodHit {
  cls: ZoneClass;
  /** Map the point lies in (null: outside every loaded map). */
  map: FloodMapData | null;
  /** True when the zone came from a polygon (false: the mapped-minimal or unmapped answer). */
  inPolygon: boolean;
}

export class FloodIndex {
  readonly maps: FloodMapData[];
  private readonly polys: { data: FloodPolygonData; cls: ZoneClass; feature: Feature<Polygon> }[];
  private readonly cells: Map<string, number[]>;
  readonly res: number;

  constructor(data: FloodData) {
    this.res = data.res;
    this.maps = data.maps;
    this.polys = data.polygons.map((p) => ({
      data: p,
      cls: classifyZone(p.zone, p.subtype, p.sfha ? 'T' : 'F') ?? UNMAPPED,
      feature: toFeature(p.rings),
    }));
    this.cells = toMap(data.cells);
    this.hasDeclared = data.maps.some((m) => !m.complete && m.area !== null);
  }

  /** Some floodplain-only map has a declared area (else the zip of a point is never needed). */
  private readonly hasDeclared: boolean;

  get empty(): boolean {
    return this.maps.length === 0;
  }

  /** The floodplain-only map whose declared area holds `where` (the zip of the point or the zip sampled), or null. */
  mapFor(where: AreaKey | null | undefined): FloodMapData | null {
    if (!where) return null;
    for (const m of this.maps) if (!m.complete && inFloodArea(m.area, where)) return m;
    return null;
  }

  /**
   * Flood class of a point: the highest-risk polygon containing it; else minimal X when `where` (the point's zip:
   * city, state, county) lies in the declared area of a floodplain-only map; else D (no map loaded here).
   */
  classify(lat: number, lng: number, cell?: string | null, where?: AreaKey | null | (() => AreaKey | null)): FloodHit {
    if (this.maps.length === 0) return { cls: UNMAPPED, map: null, inPolygon: false };
    const c = cell === undefined ? cellOf(lat, lng, this.res) : cell;
    let best: { cls: ZoneClass; map: number } | null = null;
    const entries = c ? this.cells.get(c) : undefined;
    if (entries) {
      for (const e of entries) {
        const p = this.polys[e >> 1]!;
        if (best && p.cls.rank <= best.cls.rank) continue;
        const inside = (e & 1) === 1 || (inBBox(p.data.bbox, lng, lat) && booleanPointInPolygon([lng, lat], p.feature));
        if (inside) best = { cls: p.cls, map: p.data.map };
      }
    }
    if (best) return { cls: best.cls, map: this.maps[best.map] ?? null, inPolygon: true };
    const map = this.hasDeclared ? this.mapFor(typeof where === 'function' ? where() : where) : null;
    return map ? { cls: MAPPED_MINIMAL, map, inPolygon: false } : { cls: UNMAPPED, map: null, inPolygon: false };
  }

  /** Floodplain-only maps with a declared area whose bounding box holds the point (for the "covers only" note). */
  nearbyAreas(lat: number, lng: number): FloodMapData[] {
    return this.maps.filter((m) => m.area && inBBox(m.bbox, lng, lat));
  }
}

// ------------------------------------------------------------------ superfund

export interface SiteHit {
  epa_id: string;
  name: string;
  status: string;
  distance_m: number;
}

export class SiteIndex {
  private readonly sites: SiteData['sites'];
  private readonly cells: Map<string, number[]>;
  readonly res: number;

  constructor(data: SiteData) {
    this.res = data.res;
    this.sites = data.sites;
    this.cells = toMap(data.cells);
  }

  /** Counted NPL sites within exactly `radiusM` (default 1 mile, haversine) of the point. */
  within(lat: number, lng: number, radiusM = MILE_M): SiteHit[] {
    const c = cellOf(lat, lng, this.res);
    const entries = c ? this.cells.get(c) : undefined;
    if (!entries) return [];
    const out: SiteHit[] = [];
    for (const i of entries) {
      const s = this.sites[i]!;
      const d = haversineM(lat, lng, s[3], s[4]);
      if (d <= radiusM) out.push({ epa_id: s[0], name: s[1], status: s[2], distance_m: d });
    }
    return out;
  }
}

// ------------------------------------------------------------------ zip from a point

/** A 2-ring disk of res-4 cells covers at least this distance around any point of its centre cell (~15 km a ring). */
const DISK2_COVER_M = 30_000;

export interface ZipHit {
  zip: string;
  pos: number; // index into ZipData.zips
  source: 'zcta_polygon' | 'nearest_centroid';
  distance_m: number; // to the centroid
}

export class ZipLocator {
  private readonly zips: ZipData['zips'];
  private readonly byZip = new Map<string, number>();
  private readonly centroidCells = new Map<string, number[]>();
  private readonly zctas: { zip: string; bbox: BBox; feature: Feature<MultiPolygon> }[];
  private readonly zctaCells: Map<string, number[]>;
  private readonly zctaRes: number;
  /** res-4 cell -> zips whose centroid lies within its 2-ring disk (filled lazily, bounded). */
  private readonly diskCache = new Map<string, number[]>();

  private diskCandidates(origin: string): number[] {
    let list = this.diskCache.get(origin);
    if (list) return list;
    let disk: string[];
    try { disk = gridDisk(origin, 2); } catch { disk = [origin]; }
    list = disk.flatMap((c) => this.centroidCells.get(c) ?? []);
    if (this.diskCache.size >= 100_000) this.diskCache.clear();
    this.diskCache.set(origin, list);
    return list;
  }

  /** Zips that reach farther than the 2-ring disk covers (huge rural zips). */
  private readonly farReaching: number[] = [];

  constructor(zipData: ZipData, zcta: ZctaData | null) {
    this.zips = zipData.zips;
    this.zips.forEach((z, i) => {
      this.byZip.set(z[0], i);
      const c = cellOf(z[1], z[2], RES.zipCentroid);
      if (c) {
        const list = this.centroidCells.get(c);
        if (list) list.push(i); else this.centroidCells.set(c, [i]);
      }
      if (Math.max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR * z[3]) > DISK2_COVER_M) this.farReaching.push(i);
    });
    this.zctas = (zcta?.zctas ?? []).map((z) => ({ zip: z.zip, bbox: z.bbox, feature: toMultiFeature(z.polygons) }));
    this.zctaCells = toMap(zcta?.cells ?? {});
    this.zctaRes = zcta?.res ?? RES.zcta;
  }

  row(pos: number): ZipData['zips'][number] {
    return this.zips[pos]!;
  }

  /**
   * The box of every point a zip matching `keep` can be the nearest centroid for: each centroid widened by the
   * zip's reach (max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR x radius)); null when no zip matches.
   */
  reachBox(keep: (row: ZipData['zips'][number]) => boolean): BBox | null {
    let box: BBox | null = null;
    for (const z of this.zips) {
      if (!keep(z)) continue;
      const reach = Math.max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR * z[3]);
      const dLat = reach / 110_000; // a degree of latitude is at least 110.5 km: the box errs wide
      const dLng = dLat / Math.max(0.01, Math.cos(Math.min(89, Math.abs(z[1]) + dLat) * Math.PI / 180));
      const b: BBox = [z[2] - dLng, z[1] - dLat, z[2] + dLng, z[1] + dLat];
      box = box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
    }
    return box;
  }

  position(zip: string): number | undefined {
    return this.byZip.get(zip);
  }

  /** Zip of a point: the ZCTA polygon containing it where loaded, else the nearest centroid within reach. */
  locate(lat: number, lng: number): ZipHit | null {
    const c = cellOf(lat, lng, this.zctaRes);
    const entries = c ? this.zctaCells.get(c) : undefined;
    if (entries) {
      for (const e of entries) {
        const z = this.zctas[e >> 1]!;
        if ((e & 1) === 1 || (inBBox(z.bbox, lng, lat) && booleanPointInPolygon([lng, lat], z.feature))) {
          const pos = this.byZip.get(z.zip);
          if (pos !== undefined) {
            const row = this.zips[pos]!;
            return { zip: z.zip, pos, source: 'zcta_polygon', distance_m: haversineM(lat, lng, row[1], row[2]) };
          }
        }
      }
    }
    return this.nearest(lat, lng);
  }

  /**
   * The zip whose area a point most likely lies in, for declared-area membership of flood maps: the ZCTA polygon
   * containing it where loaded, else the zip minimising distance / equivalent radius among the zips that reach the
   * point (a size-weighted nearest centroid: a small zip's centroid next door does not claim a point deep in a
   * large neighbour, as plain nearest-centroid does near city lines).
   */
  areaZip(lat: number, lng: number, located?: ZipHit | null): ZipHit | null {
    const hit = located === undefined ? this.locate(lat, lng) : located;
    if (!hit || hit.source === 'zcta_polygon') return hit;
    return this.nearest(lat, lng, true) ?? hit;
  }

  /**
   * The nearest zip centroid among the zips that reach the point: a zip reaches points within
   * max(16 km, 2 x its equivalent radius) of its centroid. Candidates: the res-4 cells within 2 rings (which cover
   * at least 30 km around the point), then, when none of those reaches it, the few zips that reach farther than 30 km.
   */
  nearest(lat: number, lng: number, sizeWeighted = false): ZipHit | null {
    const origin = cellOf(lat, lng, RES.zipCentroid);
    if (!origin) return null;
    let best = -1;
    let bestD = Infinity;
    let bestScore = Infinity;
    const consider = (i: number): void => {
      const z = this.zips[i]!;
      const d = haversineM(lat, lng, z[1], z[2]);
      const score = sizeWeighted ? d / Math.max(1, z[3]) : d;
      if (score < bestScore && d <= Math.max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR * z[3])) { bestScore = score; bestD = d; best = i; }
    };
    for (const i of this.diskCandidates(origin)) consider(i);
    // the 2-ring disk holds every zip within 30 km; a far-reaching zip can only win beyond that (or when weighted)
    if (best < 0 || bestD > DISK2_COVER_M || sizeWeighted) for (const i of this.farReaching) consider(i);
    if (best < 0) return null;
    return { zip: this.zips[best]![0], pos: best, source: 'nearest_centroid', distance_m: bestD };
  }
}
