// An independent oracle for the location risk tests (test/live/location/endpoint*.test.ts). Everything it expects is
// computed here from the raw files and warehouse/docs/location.md, never with the product's rules
// (live/location/rules.ts) or its live files: the zone table (docZone in location-truth.ts), the flood polygons from the
// FEMA GeoJSON files (turf point-in-polygon), Superfund sites from npl_sites.csv (final + proposed, own haversine),
// zip land area and centroid from the 2025 Gazetteer ZCTA file, the NRI score of the zip's NRI county (oracle-nri-county.ts)
// from the NRI county table, and the score formula written out. Only the zip -> city, state, county assignment comes
// from the warehouse's base `zips` table (the geo domain's canonical table, tested in test/pipelines/geo-steps.test.ts).
// Over 300 lines: one independent restatement of the whole documented rule set (flood, Superfund, NRI, score), read as one.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { bbox, bboxClip, booleanPointInPolygon, lineString, pointToLineDistance } from '@turf/turf';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { cellToLatLng, gridDisk, latLngToCell } from 'h3-js';
import { warehouseRows } from './build.ts';
import { oracleNriCounties } from './oracle-nri-county.ts';
import { RingIndex } from './ring-index.ts';
import { BELMONT, type Body, CAMBRIDGE, docZone, type DocZone, type GeoFeature, haversine, MINIMAL_X, readFeatures, sourcesDir } from './location-truth.ts';

const SUPERFUND_AS_OF = '2021-06-13'; // the SEMS extract date (epa-superfund-sems/SOURCE.md)
export const MILE = 1609.344;
/** The two sample maps: effective dates from fema-nfhl-flood-zones/SOURCE.md, declared areas from location.md "Mapped area". */
const ORACLE_MAPS = [
  { file: CAMBRIDGE, as_of: '2025-07-08', declares: (z: OracleZip): boolean => z.city === 'Cambridge' && z.state === 'MA' },
  // Belmont: its polygons are clipped to the Bridgeport detailed study (location.md "Mapped area")
  { file: BELMONT, as_of: '2006-04-05', declares: (z: OracleZip): boolean => z.county === '39013', extent: [-80.7555, 40.0387, -80.7311, 40.0851] as [number, number, number, number] },
] as { file: string; as_of: string; declares: (z: OracleZip) => boolean; extent?: [number, number, number, number] }[];

/** area: a Gazetteer ZCTA (a PO-box or unique zip is none, and is never a point's zip); nriCounty: its NRI county. */
export interface OracleZip {
  zip: string; city: string; state: string; county: string | null; lat: number | null; lng: number | null; radius: number; area: boolean; nriCounty: string | null;
}
interface OraclePiece { map: number; cls: DocZone; bbox: [number, number, number, number]; rings: RingIndex }
interface OracleSite { epa_id: string; name: string; zip: string | null; lat: number; lng: number }
export type Expected = Omit<Body, 'flood_risk_notes'>;

/** The documented score: 0.45 flood + 0.30 Superfund + 0.25 NRI, a missing component left out and the rest re-weighted. */
function docScore(floodPoints: number | null, sites: number, nri: number | null): number {
  const sf = sites === 0 ? 0 : sites === 1 ? 50 : sites === 2 ? 75 : 100;
  let num = 0.3 * sf, den = 0.3;
  if (floodPoints !== null) { num += 0.45 * floodPoints; den += 0.45; }
  if (nri !== null) { num += 0.25 * nri; den += 0.25; }
  return Math.round(num / den);
}

export class LocationOracle {
  readonly byZip: Map<string, OracleZip>;
  private readonly located: OracleZip[];
  private readonly complete: boolean[];
  private readonly mapBoxes: number[][];
  readonly sites: OracleSite[];
  private readonly sitesByLat: OracleSite[];

  constructor(readonly zips: OracleZip[], readonly pieces: OraclePiece[], sites: OracleSite[], readonly nri: Map<string, number>,
    readonly polygons: Map<string, Feature<MultiPolygon>>) {
    this.byZip = new Map(zips.map((z) => [z.zip, z]));
    this.located = zips.filter((z) => z.lat !== null && z.lng !== null && z.area);
    // complete layer: the file has minimal-hazard X polygons (location.md "Mapped area")
    this.complete = ORACLE_MAPS.map((_, m) => pieces.some((p) => p.map === m && p.cls.key === 'X-minimal'));
    this.mapBoxes = ORACLE_MAPS.map((_, m) => pieces.filter((p) => p.map === m).reduce((a, p) =>
      [Math.min(a[0]!, p.bbox[0]), Math.min(a[1]!, p.bbox[1]), Math.max(a[2]!, p.bbox[2]), Math.max(a[3]!, p.bbox[3])], [Infinity, Infinity, -Infinity, -Infinity]));
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
        select epa_id, any_value(site_name) as name, any_value(nullif(trim(zip), '')) as zip,
               any_value(try_cast(latitude as double)) as lat, any_value(try_cast(longitude as double)) as lng
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
          radius: g && g.aland > 0 ? Math.max(400, Math.sqrt(g.aland / Math.PI)) : MILE, area: !!g, nriCounty: null };
      });
      const nriOf = await oracleNriCounties(q, src('hud-usps-zip-county-crosswalk', 'ZIP_COUNTY_032023.csv.gz'), zips,
        new Set(nri.filter((n) => n.score !== null).map((n) => n.fips)));
      for (const z of zips) z.nriCounty = nriOf.get(z.zip) ?? null;
      const pieces: OraclePiece[] = [];
      ORACLE_MAPS.forEach((m, map) => {
        for (const f of readFeatures(m.file)) {
          const cls = docZone(f.properties['fld_zone'] ?? f.properties['FLD_ZONE'], f.properties['zone_subty'] ?? f.properties['ZONE_SUBTY']);
          if (!cls) continue;
          const parts = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
          for (const raw of parts) {
            let rings = raw;
            if (m.extent) {
              const c = bboxClip({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: raw } }, m.extent).geometry;
              rings = (c.type === 'Polygon' ? c.coordinates : []).filter((r) => r.length >= 4);
              if (!rings.length) continue;
            }
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
  sitesWithin(lat: number, lng: number, reach: number): OracleSite[] {
    const dLat = reach / 110_000 + 0.01;
    let lo = 0, hi = this.sitesByLat.length; // first site with lat >= lat - dLat
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.sitesByLat[mid]!.lat < lat - dLat) lo = mid + 1; else hi = mid; }
    const out: OracleSite[] = [];
    for (let i = lo; i < this.sitesByLat.length && this.sitesByLat[i]!.lat <= lat + dLat; i++) {
      const s = this.sitesByLat[i]!;
      if (haversine(lat, lng, s.lat, s.lng) <= reach) out.push(s);
    }
    return out;
  }

  /** Counted sites within 1 mile of a ZCTA polygon: inside it, or within a mile of one of its rings (geodesic). */
  private sitesNearPolygon(f: Feature<MultiPolygon>): OracleSite[] {
    const [minX, minY, maxX, maxY] = bbox(f);
    return this.sitesByLat.filter((s) => {
      if (s.lat < minY - 0.02 || s.lat > maxY + 0.02 || s.lng < minX - 0.03 || s.lng > maxX + 0.03) return false;
      if (booleanPointInPolygon([s.lng, s.lat], f)) return true;
      return f.geometry.coordinates.some((p) => p.some((ring) => pointToLineDistance([s.lng, s.lat], lineString(ring), { units: 'meters', method: 'geodesic' }) <= MILE));
    });
  }

  /** A zip's counted sites (location.md "Superfund within 1 mile"), by distance only: within 1 mile of its polygon,
   *  else of its disk of the equivalent radius. `addressBeyond`: the sites whose EPA address zip (npl_sites.csv `zip`)
   *  is the zip but which that mile leaves out, with EPA's coordinate within max(16 km, 2 x the radius) of the zip's
   *  point: named in the notes, not counted. */
  zipSites(zip: string): { count: number; near: OracleSite[]; addressBeyond: (OracleSite & { distance: number })[] } {
    const z = this.byZip.get(zip)!;
    const poly = this.polygons.get(zip);
    const near = new Set(poly ? this.sitesNearPolygon(poly) : z.lat === null || z.lng === null ? [] : this.sitesWithin(z.lat, z.lng, z.radius + MILE));
    const addressBeyond = z.lat === null || z.lng === null ? [] : this.sites
      .filter((s) => s.zip === zip && !near.has(s))
      .map((s) => ({ ...s, distance: haversine(z.lat!, z.lng!, s.lat, s.lng) }))
      .filter((s) => s.distance <= Math.max(16_000, 2 * z.radius));
    return { count: near.size, near: [...near], addressBeyond };
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
    // samples: centres of the res-9 cells within the radius of the centroid, or of res-10 then res-11 cells while
    // fewer than 50 (location.md "Flood zone of a zip" 2.), at least the centroid
    let samples: [number, number][] = [];
    for (let res = 9; res <= 11 && samples.length < 50; res++) {
      samples = [];
      for (const c of gridDisk(latLngToCell(z.lat, z.lng, res), Math.ceil(z.radius / (250 / Math.sqrt(7) ** (res - 9))) + 2)) {
        const [clat, clng] = cellToLatLng(c);
        if (haversine(z.lat, z.lng, clat, clng) <= z.radius) samples.push([clat, clng]);
      }
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
    const sites = this.zipSites(zip).count;
    const nri = z.nriCounty ? this.nri.get(z.nriCounty) ?? null : null;
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
    if (!zip) {
      // the zip centroid nearest for its size among the zips that reach the point (only the zips of a flood file's
      // declared area when the point lies in one of its polygons and one of them reaches it): the answer's zip
      const best = (keep: (z: OracleZip) => boolean): [OracleZip, number] | null => {
        let out: [OracleZip, number] | null = null;
        for (const z of this.located) {
          const d = haversine(lat, lng, z.lat!, z.lng!);
          if (d > Math.max(16_000, 2 * z.radius) || !keep(z)) continue; // the zip does not reach the point
          if (!out || d / z.radius < out[1]) out = [z, d / z.radius];
        }
        return out;
      };
      const inPoly = this.polygonAt(lat, lng);
      let pick = (inPoly && best((z) => ORACLE_MAPS[inPoly.map]!.declares(z))) || best(() => true);
      // outside every polygon, in a floodplain-only file's box: a zip of its area within 5% of the best score wins
      for (const [m, map] of ORACLE_MAPS.entries()) {
        const b = this.mapBoxes[m]!;
        if (inPoly || !pick || this.complete[m] || map.declares(pick[0]) || lng < b[0]! || lng > b[2]! || lat < b[1]! || lat > b[3]!) continue;
        const alt = best((z) => map.declares(z));
        if (alt && alt[1] <= pick[1] * 1.05) pick = alt;
      }
      zip = pick?.[0] ?? null;
    }
    if (!zip) return null;
    const hit = this.classify(lat, lng, zip);
    const sites = this.sitesWithin(lat, lng, MILE).length;
    const nri = zip.nriCounty ? this.nri.get(zip.nriCounty) ?? null : null;
    return {
      zip_code: zip.zip, city: zip.city, state: zip.state, flood_zone: hit?.cls.zone ?? 'D', flood_risk_label: hit?.cls.label ?? 'Moderate',
      superfund_nearby: sites > 0, superfund_count_1mi: sites, environmental_risk_score: docScore(hit?.cls.points ?? null, sites, nri),
      confidence: !hit ? 'low' : polygon ? 'high' : 'medium', as_of: hit && ORACLE_MAPS[hit.map]!.as_of > SUPERFUND_AS_OF ? ORACLE_MAPS[hit.map]!.as_of : SUPERFUND_AS_OF,
    };
  }
}

let oracleLoad: Promise<LocationOracle> | null = null;
/** One oracle per file (reading the raw files takes a few seconds). */
export const locationOracle = (): Promise<LocationOracle> => (oracleLoad ??= LocationOracle.load());
