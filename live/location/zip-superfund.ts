// The Superfund sites of a zip (warehouse/docs/location.md "Superfund within 1 mile"): the one rule behind a zip's
// superfund_count_1mi, applied by the zip facts step (pipelines/intermediate/40_location_60_zip_facts.ts) to every
// zip; the zip shards and research's location answers read its result. Build-side only (it loads turf).
//  - counted, by distance only: NPL sites within 1 mile of the zip's ZCTA polygon (turf distance, 0 inside), else
//    within the zip's equivalent radius + 1 mile of its point (haversine). A figure named "within 1 mile" is a
//    distance anyone can recompute from EPA's coordinates (review 58: counting by address put Western Processing,
//    Kent Highlands and Midway Landfill, 4.3 to 8.2 km from 98031's point, in 98031 and in 98032 both).
//  - named, not counted: a site whose EPA address zip is the zip but whose coordinate lies beyond that 1 mile, when it
//    lies within the zip's reach, max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR x radius) of the zip's point (the reach of
//    zip-locator.ts). EPA gives one point per site and a large site is an area (epa-superfund-sems/SOURCE.md caveats):
//    OHIO RIVER PARK, on Neville Island (15225), lies 3.5 km from the zip's point, past its 2.7 km disk + 1 mile; the
//    notes say so. A site farther than the reach is not named: its zip is a mailing address or a slip (HANFORD
//    100-AREA filed under Richland's 99352, 53 km away; WURTSMITH AIR FORCE BASE, Michigan, under a Wisconsin zip).
import { gridDisk } from 'h3-js';
import { pointToPolygonDistance } from '@turf/turf';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../../warehouse/db.ts';
import type { SiteData } from './data.ts';
import { cellOf, type Ring } from './geo.ts';
import { MILE_M, NEAREST_MIN_M, NEAREST_RADIUS_FACTOR, RES, haversineM, type AddressSite } from './rules.ts';

/** How far from a zip's point a site filed under the zip's address may lie and still be named in its notes. */
export const addressReachM = (radiusM: number): number => Math.max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR * radiusM);

export interface ZipArea {
  zip: string;
  /** the zip's point (null: none; then neither the disk nor the address note applies) */
  lat: number | null; lng: number | null;
  /** equivalent radius of the zip's land area */
  radiusM: number;
  /** the zip's ZCTA polygon and its res-8 cells, where one is loaded */
  polygons?: Ring[][] | null; cells?: readonly string[];
}

export interface ZipSites {
  /** every counted site (within 1 mile), sorted */
  ids: string[];
  /** the sites EPA files under the zip's address that lie beyond that mile, within the reach: not counted, nearest first */
  addressBeyond: AddressSite[];
}

export class ZipSuperfund {
  private readonly siteCells: Map<string, number[]>;
  private readonly byCoarse = new Map<string, number[]>();
  private readonly byZip = new Map<string, number[]>();

  /** `zipOf`: each counted site's EPA address zip (superfund_sites.zip) by epa_id. */
  constructor(private readonly data: SiteData, zipOf: ReadonlyMap<string, string>) {
    this.siteCells = new Map(Object.entries(data.cells));
    data.sites.forEach((s, i) => {
      const c = cellOf(s[3], s[4], RES.zipCentroid);
      if (c) push(this.byCoarse, c, i);
      const zip = zipOf.get(s[0]);
      if (zip) push(this.byZip, zip, i);
    });
  }

  /** The counted sites' EPA address zips, read from `superfund_sites`. */
  static async addressZips(db: DuckDBConnection): Promise<Map<string, string>> {
    const rows = await queryRows<{ epa_id: string; zip: string }>(db, `select epa_id, zip from superfund_sites where counted and zip is not null`);
    return new Map(rows.map((r) => [r.epa_id, r.zip]));
  }

  /** The counted sites of a zip (by distance), and those of its address beyond the mile. */
  of(z: ZipArea): ZipSites {
    const hasPoint = z.lat != null && z.lng != null && Number.isFinite(z.lat) && Number.isFinite(z.lng);
    const ids = new Set(z.polygons ? this.nearPolygon(z.polygons, z.cells ?? []) : hasPoint ? this.nearDisk(z.lat!, z.lng!, z.radiusM + MILE_M) : []);
    const addressBeyond: AddressSite[] = [];
    if (hasPoint) {
      for (const i of this.byZip.get(z.zip) ?? []) {
        const s = this.data.sites[i]!;
        if (ids.has(s[0])) continue;
        const d = haversineM(z.lat!, z.lng!, s[3], s[4]);
        if (d <= addressReachM(z.radiusM)) addressBeyond.push({ epa_id: s[0], site_name: s[1], distance_m: Math.round(d) });
      }
    }
    addressBeyond.sort((a, b) => a.distance_m - b.distance_m || a.epa_id.localeCompare(b.epa_id));
    return { ids: [...ids].sort(), addressBeyond };
  }

  /** Sites within 1 mile of the polygon (negative distance: inside); candidates: sites whose 1-mile cells meet the ZCTA's. */
  private nearPolygon(polygons: Ring[][], cells: readonly string[]): string[] {
    const feature = { type: 'Feature' as const, properties: {}, geometry: { type: 'MultiPolygon' as const, coordinates: polygons } };
    const cand = new Set<number>();
    for (const c of cells) for (const i of this.siteCells.get(c) ?? []) cand.add(i);
    const out: string[] = [];
    for (const i of cand) {
      const s = this.data.sites[i]!;
      if (pointToPolygonDistance([s[4], s[3]], feature, { units: 'meters' }) <= MILE_M) out.push(s[0]);
    }
    return out;
  }

  /** Sites within `reach` of the point (haversine); candidates: the res-4 cells around it. */
  private nearDisk(lat: number, lng: number, reach: number): string[] {
    const origin = cellOf(lat, lng, RES.zipCentroid);
    if (!origin) return [];
    const out: string[] = [];
    for (const c of gridDisk(origin, Math.ceil(reach / 15_000))) {
      for (const i of this.byCoarse.get(c) ?? []) {
        const s = this.data.sites[i]!;
        if (haversineM(lat, lng, s[3], s[4]) <= reach) out.push(s[0]);
      }
    }
    return out;
  }
}

function push<K>(m: Map<K, number[]>, k: K, v: number): void {
  const l = m.get(k); if (l) l.push(v); else m.set(k, [v]);
}
