// Polygons of the location files (ZCTA multipolygons, flood polygons: live/location/data.ts) as the live indexes keep
// them: every [lng, lat] pair end to end in one Float64Array, with where each polygon and ring starts. A pair as a JS
// array cost ~64 bytes of heap, 16 here: the shared build's ~230,000 pairs held ~14 MB that way. The point-in-polygon
// test (turf booleanPointInPolygon, the same function on the same numbers) runs on arrays made again for the polygon
// tested, and the last KEEP made are kept: a test is asked only where a point's cell is on a polygon's edge.
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon } from 'geojson';
import { RecentCache } from '../../warehouse/recent.ts';
import type { Ring } from './geo.ts';

/** Polygons made again and kept (a ZCTA of ~280 pairs is ~18 KB of arrays). */
const KEEP = 128;

export class FlatPolygons {
  private readonly coords: Float64Array;
  /** item i's polygons: polyStart[itemStart[i]] .. polyStart[itemStart[i + 1]]; a polygon's rings likewise in
   *  ringStart; a ring's pairs from ringStart[r] to ringStart[r + 1] (in pairs). */
  private readonly itemStart: Uint32Array;
  private readonly polyStart: Uint32Array;
  private readonly ringStart: Uint32Array;
  private readonly made = new RecentCache<MultiPolygon>(KEEP);

  /** `items`: each one's polygons (a flood polygon is one polygon of rings; a ZCTA, several). */
  constructor(items: readonly (readonly Ring[])[][]) {
    let polys = 0, rings = 0, pairs = 0;
    for (const item of items) for (const poly of item) { polys++; for (const ring of poly) { rings++; pairs += ring.length; } }
    this.coords = new Float64Array(pairs * 2);
    this.itemStart = new Uint32Array(items.length + 1);
    this.polyStart = new Uint32Array(polys + 1);
    this.ringStart = new Uint32Array(rings + 1);
    let p = 0, r = 0, c = 0;
    items.forEach((item, i) => {
      for (const poly of item) {
        for (const ring of poly) {
          for (const [lng, lat] of ring) { this.coords[c * 2] = lng!; this.coords[c * 2 + 1] = lat!; c++; }
          this.ringStart[++r] = c;
        }
        this.polyStart[++p] = r;
      }
      this.itemStart[i + 1] = p;
    });
  }

  /** Item i's polygons as arrays of [lng, lat] pairs, equal to the file's. */
  polygons(i: number): Ring[][] {
    const out: Ring[][] = [];
    for (let p = this.itemStart[i]!; p < this.itemStart[i + 1]!; p++) {
      const rings: Ring[] = [];
      for (let r = this.polyStart[p]!; r < this.polyStart[p + 1]!; r++) {
        const ring: Ring = [];
        for (let c = this.ringStart[r]!; c < this.ringStart[r + 1]!; c++) ring.push([this.coords[c * 2]!, this.coords[c * 2 + 1]!]);
        rings.push(ring);
      }
      out.push(rings);
    }
    return out;
  }

  /** Whether the point lies in item i's polygons, its edges included (turf booleanPointInPolygon). */
  contains(i: number, lng: number, lat: number): boolean {
    const geometry = this.made.get(String(i), () => ({ type: 'MultiPolygon', coordinates: this.polygons(i) }));
    return booleanPointInPolygon([lng, lat], { type: 'Feature', properties: {}, geometry });
  }
}
