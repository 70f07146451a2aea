// Flood zone of a point (live/location/*.json flood data): H3 cell -> candidate polygons, then turf
// booleanPointInPolygon for cells not wholly inside; outside every polygon, the declared area of a floodplain-only
// map decides between minimal hazard (X) and unmapped (D). Shared by the build (zip sampling) and the live lookup.
import { MAPPED_MINIMAL, UNMAPPED, classifyZone, inFloodArea, type AreaKey, type ZoneClass } from './rules.ts';
import type { FloodData, FloodMapData, FloodPolygonData } from './data.ts';
import { cellOf, inBBox, type BBox } from './geo.ts';
import { FlatPolygons } from './flat-polygons.ts';
import { CellLists } from './cell-lists.ts';

export interface FloodHit {
  cls: ZoneClass;
  /** Map the point lies in (null: outside every loaded map). */
  map: FloodMapData | null;
  /** True when the zone came from a polygon (false: the mapped-minimal or unmapped answer). */
  inPolygon: boolean;
}

export class FloodIndex {
  readonly maps: FloodMapData[];
  /** Each polygon's fields but its rings, which `shapes` holds (flat-polygons.ts). */
  private readonly polys: { data: Omit<FloodPolygonData, 'rings'>; cls: ZoneClass }[];
  private readonly shapes: FlatPolygons;
  private readonly cells: CellLists;
  readonly res: number;

  constructor(data: FloodData) {
    this.res = data.res;
    this.maps = data.maps;
    this.polys = data.polygons.map(({ rings: _, ...p }) => ({
      data: p,
      cls: classifyZone(p.zone, p.subtype, p.sfha ? 'T' : 'F') ?? UNMAPPED,
    }));
    this.shapes = new FlatPolygons(data.polygons.map((p) => [p.rings]));
    this.cells = new CellLists(data.cells);
    // every polygon's box, widened by 0.01 degree (a res-9 cell is ~200 m): a point outside it is in no polygon and
    // needs no H3 cell (most of the country: the res-9 cell was a third of the lookup's h3-js time)
    this.extent = data.polygons.length === 0 ? null : data.polygons.reduce<BBox>((b, p) => [Math.min(b[0], p.bbox[0] - 0.01), Math.min(b[1], p.bbox[1] - 0.01),
      Math.max(b[2], p.bbox[2] + 0.01), Math.max(b[3], p.bbox[3] + 0.01)], [Infinity, Infinity, -Infinity, -Infinity]);
    this.hasDeclared = data.maps.some((m) => !m.complete && m.area !== null);
  }

  private readonly extent: BBox | null;

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
    const hit = this.polygonHit(lat, lng, cell);
    if (hit) return hit;
    const map = this.hasDeclared ? this.mapFor(typeof where === 'function' ? where() : where) : null;
    return map ? { cls: MAPPED_MINIMAL, map, inPolygon: false } : { cls: UNMAPPED, map: null, inPolygon: false };
  }

  /** The highest-risk loaded polygon containing the point (its zone and map), or null: needs no zip. */
  polygonHit(lat: number, lng: number, cell?: string | null): FloodHit | null {
    if (cell === undefined && !(this.extent && inBBox(this.extent, lng, lat))) return null;
    const c = cell === undefined ? cellOf(lat, lng, this.res) : cell;
    let best: { cls: ZoneClass; map: number } | null = null;
    const entries = c ? this.cells.get(c) : undefined;
    if (entries) {
      for (const e of entries) {
        const p = this.polys[e >> 1]!;
        if (best && p.cls.rank <= best.cls.rank) continue;
        const inside = (e & 1) === 1 || (inBBox(p.data.bbox, lng, lat) && this.shapes.contains(e >> 1, lng, lat));
        if (inside) best = { cls: p.cls, map: p.data.map };
      }
    }
    return best ? { cls: best.cls, map: this.maps[best.map] ?? null, inPolygon: true } : null;
  }

  /** Floodplain-only maps with a declared area whose bounding box holds the point (for the "covers only" note). */
  nearbyAreas(lat: number, lng: number): FloodMapData[] {
    return this.maps.filter((m) => m.area && inBBox(m.bbox, lng, lat));
  }
}
