// Location expectations of the research question set: the flood zone of a zip from the raw FEMA GeoJSON
// (point-in-polygon on a sampling grid of our own, not the build's H3 cells), counted Superfund sites (haversine in
// our own SQL), the raw NRI county score, and the environmental risk score of warehouse/docs/location.md.
import fs from 'node:fs';
import path from 'node:path';
import { bboxClip, booleanPointInPolygon } from '@turf/turf';
import { SHARED_DATA } from './paths.ts';
import { fail } from './research-questions.ts';
import { num, sql } from './oracle-research.ts';
import { zipOk } from './oracle-research-market.ts';

const DATA = SHARED_DATA;
// ---- location figures: the raw FEMA GeoJSON, our own sampling grid, superfund_sites, the raw NRI table ----
/** The declared area of each sample flood file, from fema-nfhl-flood-zones/SOURCE.md: the Cambridge file covers the
 *  floodplains "inside Cambridge only" (outside its polygons Cambridge is minimal hazard), the Belmont file is a
 *  complete layer (it has minimal-hazard X polygons; outside them nothing is mapped). */
const FLOOD_FILES: Record<string, { complete: boolean; places: string[]; extent?: [number, number, number, number] }> = {
  'cambridge_ma_25017C_fld_haz_ar.geojson': { complete: false, places: ['Cambridge|MA'] },
  // clipped to its detailed study around Bridgeport (location.md "Mapped area"): the rest of the county is no study
  'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson': { complete: true, places: [], extent: [-80.7555, 40.0387, -80.7311, 40.0851] },
};
type FloodClass = 'V' | 'A' | 'X-shaded' | 'open-water' | 'D' | 'X-levee' | 'X-minimal';
const RANK: Record<FloodClass, number> = { V: 7, A: 6, 'X-shaded': 5, 'open-water': 4, D: 3, 'X-levee': 2, 'X-minimal': 1 };
const POINTS: Record<FloodClass, number> = { V: 100, A: 80, 'X-shaded': 45, 'open-water': 45, D: 35, 'X-levee': 15, 'X-minimal': 0 };
const WINS = new Set<FloodClass>(['V', 'A', 'X-shaded']); // the classes that win at >= 10% of the zip
interface FloodPoly { cls: FloodClass; zone: string; feature: GeoJSON.Feature; bbox: [number, number, number, number] }
interface FloodMap { file: string; complete: boolean; places: string[]; polys: FloodPoly[]; bbox: [number, number, number, number] }
let floodMaps: FloodMap[] | null = null;
function classOf(zone: string, subtype: string): FloodClass | null {
  const z = zone.toUpperCase().replace(/^ZONE /, '').trim(); const s = subtype.toUpperCase();
  if (/^V/.test(z)) return 'V';
  if (/^A/.test(z)) return 'A';
  if (z === 'B' || (z === 'X' && /0\.2 PCT|1 PCT|FUTURE/.test(s))) return 'X-shaded';
  if (z === 'X' && /LEVEE/.test(s)) return 'X-levee';
  if (z === 'X' || z === 'C') return 'X-minimal';
  if (z === 'D') return 'D';
  if (z === 'OPEN WATER') return 'open-water';
  return null;
}
function loadFloodMaps(): FloodMap[] {
  if (floodMaps) return floodMaps;
  const dir = path.join(DATA, 'fema-nfhl-flood-zones');
  floodMaps = fs.readdirSync(dir).filter((f) => f.endsWith('.geojson')).sort().map((file) => {
    const area = FLOOD_FILES[file] ?? fail(`flood file ${file} has no declared area in this test (fema-nfhl-flood-zones/SOURCE.md)`);
    const g = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as GeoJSON.FeatureCollection;
    const polys: FloodPoly[] = [];
    for (const raw of g.features) {
      let f = raw;
      if (area.extent && (raw.geometry.type === 'Polygon' || raw.geometry.type === 'MultiPolygon')) {
        const c = bboxClip(raw as GeoJSON.Feature<GeoJSON.Polygon | GeoJSON.MultiPolygon>, area.extent);
        const rings: unknown[] = c.geometry.type === 'Polygon' ? (c.geometry.coordinates as GeoJSON.Position[][]).filter((r) => r.length >= 4)
          : (c.geometry.coordinates as GeoJSON.Position[][][]).map((pg) => pg.filter((r) => r.length >= 4)).filter((pg) => pg.length);
        if (!rings.length) continue;
        f = { ...raw, geometry: { ...c.geometry, coordinates: rings } as GeoJSON.Geometry };
      }
      const p = Object.fromEntries(Object.entries(f.properties ?? {}).map(([k, v]) => [k.toLowerCase(), v])) as Record<string, unknown>;
      const cls = classOf(String(p['fld_zone'] ?? ''), String(p['zone_subty'] ?? ''));
      if (!cls || (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon')) continue;
      const coords = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates).flat(2);
      const xs = coords.map((c) => c[0]!); const ys = coords.map((c) => c[1]!);
      polys.push({ cls, zone: String(p['fld_zone']).toUpperCase(), feature: f, bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] });
    }
    const bbox: [number, number, number, number] = [Math.min(...polys.map((p) => p.bbox[0])), Math.min(...polys.map((p) => p.bbox[1])), Math.max(...polys.map((p) => p.bbox[2])), Math.max(...polys.map((p) => p.bbox[3]))];
    return { file, ...area, polys, bbox };
  });
  return floodMaps;
}
interface ZipFacts { zip: string; city: string; state: string; county: string; lat: number; lng: number; aland: number; nri: number | null }
export async function zipFacts(zip: string): Promise<ZipFacts> {
  const [r] = await sql<{ city: string; state: string; county: string; lat: string; lng: string; aland: string | null; nri: string | null }>(`
    select z.city, z.state_code as state, z.county_fips as county, g."INTPTLAT" as lat, g."INTPTLONG" as lng, g."ALAND" as aland,
      coalesce((select "RISK_SCORE" from raw.fema_nri__counties where lpad("STCOFIPS", 5, '0') = z.county_fips),
        -- location.md "NRI county of a zip": AK's 02063/02066 read 02261; a CT zip its old county by the raw HUD crosswalk
        (select "RISK_SCORE" from raw.fema_nri__counties where z.county_fips in ('02063', '02066') and lpad("STCOFIPS", 5, '0') = '02261'),
        (select arg_max(n."RISK_SCORE", (coalesce(try_cast(h."TOT_RATIO" as double), 0), coalesce(try_cast(h."RES_RATIO" as double), 0), h."COUNTY"))
         from raw.hud_crosswalk__zip_county h join raw.fema_nri__counties n on lpad(n."STCOFIPS", 5, '0') = trim(h."COUNTY") where trim(h."ZIP") = z.zip)) as nri
    from zips z join raw.gazetteer__zctas g on g."GEOID" = z.zip where z.zip = $zip`, { zip: zipOk(zip) });
  if (!r) fail(`zip ${zip} is not a ZCTA of the 2025 gazetteer: this oracle needs its centroid and land area`);
  if (['DE', 'DC', 'RI'].includes(r!.state)) fail(`zip ${zip} has a ZCTA polygon (DE, DC, RI): this oracle samples the centroid disk only`);
  return { zip, city: r!.city, state: r!.state, county: r!.county, lat: Number(r!.lat), lng: Number(r!.lng), aland: Number(r!.aland), nri: num(r!.nri) };
}
/** The flood class of a zip from a uniform grid over its equivalent disk (our own sampling, not the build's H3 cells).
 *  A share within 3 points of a threshold is too close for two different samplings to agree: the oracle refuses it. */
export function floodOf(z: ZipFacts): { zone: string; cls: FloodClass | 'unmapped' } {
  const r = Math.max(400, Math.sqrt(z.aland / Math.PI));
  const mPerLat = 111_320; const mPerLng = 111_320 * Math.cos(z.lat * Math.PI / 180);
  const dLat = r / mPerLat; const dLng = r / mPerLng;
  const maps = loadFloodMaps();
  const inArea = (m: FloodMap): boolean => m.places.includes(`${z.city}|${z.state}`);
  const near = maps.filter((m) => inArea(m) || !(z.lng + dLng < m.bbox[0] || z.lng - dLng > m.bbox[2] || z.lat + dLat < m.bbox[1] || z.lat - dLat > m.bbox[3]));
  if (near.length === 0) return { zone: 'D', cls: 'unmapped' }; // no loaded map reaches the zip
  const counts = new Map<FloodClass | 'unmapped', number>(); const zones = new Map<FloodClass, Set<string>>();
  let total = 0; const n = 24;
  for (let i = -n; i <= n; i++) for (let j = -n; j <= n; j++) {
    if (i * i + j * j > n * n) continue;
    const lng = z.lng + (i / n) * dLng; const lat = z.lat + (j / n) * dLat;
    let best: FloodPoly | null = null; let mapped = false;
    for (const m of near) {
      if (!m.complete && inArea(m)) mapped = true;
      for (const p of m.polys) {
        if (lng < p.bbox[0] || lng > p.bbox[2] || lat < p.bbox[1] || lat > p.bbox[3]) continue;
        if (best && RANK[p.cls] <= RANK[best.cls]) continue;
        if (booleanPointInPolygon([lng, lat], p.feature as GeoJSON.Feature<GeoJSON.Polygon | GeoJSON.MultiPolygon>)) best = p;
      }
    }
    const cls: FloodClass | 'unmapped' = best ? best.cls : mapped ? 'X-minimal' : 'unmapped';
    if (best) { const s = zones.get(best.cls) ?? new Set(); s.add(best.zone); zones.set(best.cls, s); }
    counts.set(cls, (counts.get(cls) ?? 0) + 1); total++;
  }
  const share = (c: FloodClass | 'unmapped'): number => (counts.get(c) ?? 0) / total;
  const classes = [...counts.keys()].filter((c): c is FloodClass => c !== 'unmapped').sort((a, b) => RANK[b] - RANK[a]);
  for (const c of classes) if (Math.abs(share(c) - 0.10) < 0.03) fail(`zip ${z.zip}: ${c} covers ${(share(c) * 100).toFixed(1)}% of our grid, too near the 10% rule to decide`);
  if (Math.abs(1 - share('unmapped') - 0.5) < 0.05 && share('unmapped') < 1) fail(`zip ${z.zip}: mapped share near 50%`);
  const code = (c: FloodClass): string => (c === 'X-shaded' || c === 'X-minimal' || c === 'X-levee' ? 'X' : [...(zones.get(c) ?? [])].length === 1 ? [...zones.get(c)!][0]! : fail(`zip ${z.zip}: several ${c} zone codes`));
  const win = classes.find((c) => WINS.has(c) && share(c) >= 0.10);
  if (win) return { zone: code(win), cls: win };
  if (1 - share('unmapped') >= 0.5) {
    const c = classes.find((x) => share(x) >= 0.10) ?? fail(`zip ${z.zip}: no class covers 10%`);
    return { zone: code(c), cls: c };
  }
  return share('unmapped') === 1 ? { zone: 'D', cls: 'unmapped' } : fail(`zip ${z.zip} is partly mapped: whether flood counts in its score is not derived here`);
}
/** Counted NPL sites within the zip's equivalent radius plus one mile of its centroid (haversine, our own SQL): the
 *  count is a distance; a site of the zip's EPA address beyond that mile is not counted. */
async function superfundCount(z: ZipFacts): Promise<number> {
  const reach = Math.max(400, Math.sqrt(z.aland / Math.PI)) + 1609.344;
  const rows = await sql<{ d: number }>(`
    select 2 * 6371008.8 * asin(sqrt(pow(sin(radians(lat - $lat) / 2), 2) + cos(radians($lat)) * cos(radians(lat)) * pow(sin(radians(lng - $lng) / 2), 2))) as d
    from superfund_sites where counted and abs(lat - $lat) < 1 and abs(lng - $lng) < 1.5`, { lat: z.lat, lng: z.lng });
  if (rows.some((r) => Math.abs(r.d - reach) < 100)) fail(`zip ${z.zip}: a Superfund site within 100 m of the 1-mile line`);
  return rows.filter((r) => r.d <= reach).length;
}
export async function environmentalScore(zip: string): Promise<number> {
  const z = await zipFacts(zip);
  const flood = floodOf(z);
  const sites = await superfundCount(z);
  const parts: [number, number][] = [[0.30, sites === 0 ? 0 : sites === 1 ? 50 : sites === 2 ? 75 : 100]];
  if (flood.cls !== 'unmapped') parts.push([0.45, POINTS[flood.cls]]);
  if (z.nri !== null) parts.push([0.25, z.nri]);
  const raw = parts.reduce((s, [w, v]) => s + w * v, 0) / parts.reduce((s, [w]) => s + w, 0);
  if (Math.abs(raw - Math.floor(raw) - 0.5) < 0.01) fail(`zip ${zip}: score ${raw} sits on a rounding boundary`);
  return Math.round(raw);
}
