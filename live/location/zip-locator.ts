// Zip of a point: the ZCTA polygon containing it where loaded (H3 cell -> candidate polygons, turf
// booleanPointInPolygon), else the nearest zip centroid for its size among the zips that reach the point (distance /
// equivalent radius: the zip the point most likely lies in; one zip for the answer's zip_code and for flood-map areas).
import { gridDisk } from 'h3-js';
import { NEAREST_MIN_M, NEAREST_RADIUS_FACTOR, RES, haversineM } from './rules.ts';
import type { ZctaData, ZipData } from './data.ts';
import { cellOf, inBBox, type BBox } from './geo.ts';
import { FlatPolygons } from './flat-polygons.ts';
import { CellLists } from './cell-lists.ts';
import { ReachGrid, reachBox } from './reach-grid.ts';

/** A 2-ring disk of res-4 cells covers at least this distance around any point of its centre cell (~15 km a ring). */
const DISK2_COVER_M = 30_000;

export interface ZipHit {
  zip: string;
  pos: number; // index into ZipData.zips
  source: 'zcta_polygon' | 'nearest_centroid';
  distance_m: number; // to the centroid
  score: number; // distance / equivalent radius (0 for a polygon hit)
}

/** A row of zips.json: [zip, lat, lng, radius_m, city, state, county NRI score | null, county FIPS | null]. */
type ZipRow = ZipData['zips'][number];

/** zips.json's rows in columns (a row as an array of eight cost ~200 bytes of heap: 6.8 MB for the country's 33,642
 *  zips); row() makes a row again, equal to the file's, for the few a lookup reads. */
class ZipColumns {
  readonly length: number;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  readonly radius: Float64Array;
  private readonly zip: string[];
  /** NaN: null in the file. */
  private readonly nri: Float64Array;
  /** Cities, states and counties by number (-1: a null county), each name once. */
  private readonly names: string[] = [];
  private readonly city: Int32Array;
  private readonly state: Int32Array;
  private readonly county: Int32Array;

  constructor(rows: readonly ZipRow[]) {
    const n = rows.length;
    this.length = n;
    const ids = new Map<string, number>();
    const id = (s: string | null | undefined): number => {
      if (s === null || s === undefined) return -1;
      let k = ids.get(s);
      if (k === undefined) { k = this.names.length; ids.set(s, k); this.names.push(s); }
      return k;
    };
    this.zip = rows.map((z) => z[0]);
    this.lat = Float64Array.from(rows, (z) => z[1]);
    this.lng = Float64Array.from(rows, (z) => z[2]);
    this.radius = Float64Array.from(rows, (z) => z[3]);
    this.nri = Float64Array.from(rows, (z) => z[6] ?? NaN);
    this.city = Int32Array.from(rows, (z) => id(z[4]));
    this.state = Int32Array.from(rows, (z) => id(z[5]));
    this.county = Int32Array.from(rows, (z) => id(z[7]));
  }

  zipOf(i: number): string {
    return this.zip[i]!;
  }

  row(i: number): ZipRow {
    const nri = this.nri[i]!, county = this.county[i]!;
    return [this.zip[i]!, this.lat[i]!, this.lng[i]!, this.radius[i]!, this.names[this.city[i]!]!, this.names[this.state[i]!]!,
      Number.isNaN(nri) ? null : nri, county < 0 ? null : this.names[county]!];
  }
}

export class ZipLocator {
  private readonly zips: ZipColumns;
  private readonly byZip = new Map<string, number>();
  private readonly centroidCells = new Map<string, number[]>();
  private readonly zctas: { zip: string; bbox: BBox }[];
  /** The ZCTAs' polygons, in `zctas` order (flat-polygons.ts). */
  private readonly zctaShapes: FlatPolygons;
  private readonly zctaCells: CellLists;
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

  /** (res-4 cell, 1/8-degree square) -> the cell's disk candidates whose reach box touches the square, in disk
   *  order (filled lazily, at most 20,000 squares, ~6 MB of heap): a point's candidates, a tenth of the disk's in a city. */
  private readonly nearCache = new Map<string, number[]>();

  private candidatesNear(origin: string, lat: number, lng: number): number[] {
    const r = Math.floor(lat * 8), c = Math.floor(lng * 8); // exact: r / 8 <= lat < (r + 1) / 8
    const key = `${origin}:${r}:${c}`;
    let list = this.nearCache.get(key);
    if (list) return list;
    const lat0 = r / 8, lat1 = (r + 1) / 8, lng0 = c / 8, lng1 = (c + 1) / 8;
    const box = this.boxes;
    list = this.diskCandidates(origin).filter((i) => box[i * 4]! <= lat1 && box[i * 4 + 1]! >= lat0 && box[i * 4 + 2]! <= lng1 && box[i * 4 + 3]! >= lng0);
    if (this.nearCache.size >= 20_000) this.nearCache.clear();
    this.nearCache.set(key, list);
    return list;
  }

  /** Zips that reach farther than the 2-ring disk covers (huge rural zips), by the grid cells they reach. */
  private readonly farReaching: ReachGrid;
  /** Each zip's reach: max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR x its equivalent radius). */
  private readonly reach: Float64Array;
  /** Each zip's reach box (reach-grid.ts reachBox), 4 numbers a zip: outside it, no haversine is needed. */
  private readonly boxes: Float64Array;

  constructor(zipData: ZipData, zcta: ZctaData | null) {
    this.zips = new ZipColumns(zipData.zips);
    this.reach = Float64Array.from(zipData.zips, (z) => Math.max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR * z[3]));
    this.boxes = new Float64Array(this.zips.length * 4);
    const far: { id: number; lat: number; lng: number; reachM: number }[] = [];
    zipData.zips.forEach((z, i) => {
      this.boxes.set(reachBox(z[1], z[2], this.reach[i]!), i * 4);
      this.byZip.set(z[0], i);
      const c = cellOf(z[1], z[2], RES.zipCentroid);
      if (c) {
        const list = this.centroidCells.get(c);
        if (list) list.push(i); else this.centroidCells.set(c, [i]);
      }
      if (this.reach[i]! > DISK2_COVER_M) far.push({ id: i, lat: z[1], lng: z[2], reachM: this.reach[i]! });
    });
    this.farReaching = new ReachGrid(far);
    this.zctas = (zcta?.zctas ?? []).map((z) => ({ zip: z.zip, bbox: z.bbox }));
    this.zctaShapes = new FlatPolygons((zcta?.zctas ?? []).map((z) => z.polygons));
    this.zctaCells = new CellLists(zcta?.cells ?? {});
    this.zctaRes = zcta?.res ?? RES.zcta;
  }

  row(pos: number): ZipRow {
    return this.zips.row(pos);
  }

  /**
   * The box of every point a zip matching `keep` can be the nearest centroid for: each centroid widened by the
   * zip's reach (max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR x radius)); null when no zip matches.
   */
  reachBox(keep: (row: ZipRow) => boolean): BBox | null {
    let box: BBox | null = null;
    for (let i = 0; i < this.zips.length; i++) {
      const z = this.zips.row(i);
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

  /** Zip of a point: the ZCTA polygon containing it where loaded, else the size-weighted nearest centroid within reach
   *  (on the DE, DC and RI ZCTA polygons it names the polygon's zip for 77-79% of points spread evenly over the land,
   *  the plain nearest centroid for 61-65%: Harvard Square's plain nearest is 02163, a 0.3 km2 campus zip of Boston). */
  locate(lat: number, lng: number, keep?: (row: ZipRow) => boolean): ZipHit | null {
    const c = cellOf(lat, lng, this.zctaRes);
    const entries = c ? this.zctaCells.get(c) : undefined;
    if (entries) {
      for (const e of entries) {
        const z = this.zctas[e >> 1]!;
        if ((e & 1) === 1 || (inBBox(z.bbox, lng, lat) && this.zctaShapes.contains(e >> 1, lng, lat))) {
          const pos = this.byZip.get(z.zip);
          if (pos !== undefined) {
            return { zip: z.zip, pos, source: 'zcta_polygon', distance_m: haversineM(lat, lng, this.zips.lat[pos]!, this.zips.lng[pos]!), score: 0 };
          }
        }
      }
    }
    // a point known to lie in some area (a loaded flood file's county/place: endpoint.ts) takes a zip of that area
    // when one reaches it: Bridgeport, OH took Wheeling, WV's 26003 (8.2 km, radius 8.7 km) over 43912 (4.4 km, 3.8 km)
    return (keep && this.nearest(lat, lng, true, keep)) || this.nearest(lat, lng, true);
  }


  /**
   * The nearest zip centroid among the zips that reach the point: a zip reaches points within
   * max(16 km, 2 x its equivalent radius) of its centroid. Candidates: the res-4 cells within 2 rings (which cover
   * at least 30 km around the point), then, when none of those reaches it, the few zips that reach farther than 30 km.
   */
  nearest(lat: number, lng: number, sizeWeighted = false, keep?: (row: ZipRow) => boolean): ZipHit | null {
    const origin = cellOf(lat, lng, RES.zipCentroid);
    if (!origin) return null;
    let best = -1;
    let bestD = Infinity;
    let bestScore = Infinity;
    // the reach box first (a zip outside it cannot reach the point), `keep` last: it is the costly test (place
    // names), and a zip that does not reach the point or beat the best score is out whatever it says
    const box = this.boxes;
    const consider = (i: number): void => {
      const b = i * 4;
      if (!(lat >= box[b]! && lat <= box[b + 1]! && lng >= box[b + 2]! && lng <= box[b + 3]!)) return;
      const zips = this.zips;
      const d = haversineM(lat, lng, zips.lat[i]!, zips.lng[i]!);
      const score = sizeWeighted ? d / Math.max(1, zips.radius[i]!) : d;
      if (!(d <= this.reach[i]!) || !(score < bestScore) || (keep && !keep(zips.row(i)))) return;
      bestScore = score; bestD = d; best = i;
    };
    for (const i of this.candidatesNear(origin, lat, lng)) consider(i);
    // the 2-ring disk holds every zip within 30 km; a far-reaching zip can only win beyond that (or when weighted)
    if (best < 0 || bestD > DISK2_COVER_M || sizeWeighted) for (const i of this.farReaching.candidates(lat, lng)) consider(i);
    if (best < 0) return null;
    return { zip: this.zips.zipOf(best), pos: best, source: 'nearest_centroid', distance_m: bestD, score: sizeWeighted ? bestScore : bestD / Math.max(1, this.zips.radius[best]!) };
  }
}
