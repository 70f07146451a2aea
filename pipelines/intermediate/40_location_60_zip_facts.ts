// int_location_zip: the spatial facts of every zip in `zips` (warehouse/docs/location.md "Flood zone of a zip",
// "Superfund within 1 mile").
//  - Area of the zip: its ZCTA polygon where one is loaded (exact), else the disk of the zip's equivalent
//    radius sqrt(land area / pi) around its centroid (land area from the 2025 Gazetteer; 1 mile when unknown).
//  - Flood: the area is sampled by the centres of its H3 res-9 cells (~0.1 km2 each), or of finer cells (res 10,
//    then 11) until it has MIN_SAMPLES of them, so a small zip's share is not one sample of four; every sample is classified
//    like a point lookup (polygon zone / outside every polygon but the zip lies in the declared area of a
//    floodplain-only map = minimal X / otherwise unmapped). Zips whose area misses every flood map's bounding box
//    and that lie in no declared area are unmapped without sampling.
//  - Superfund: live/location/zip-superfund.ts (counted: within 1 mile of the ZCTA polygon, else within radius + 1
//    mile of the centroid; named only: the sites whose EPA address zip is the zip and whose coordinate lies beyond
//    that mile, within its reach).
import { cellToLatLng, cellToParent, gridDisk, polygonToCells } from 'h3-js';
import type { MultiPolygon } from 'geojson';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { appendRows, loadFloodData, loadSiteData, zctaPieces } from '../../live/location/prepare.ts';
import { FloodIndex } from '../../live/location/flood-index.ts';
import { ZipSuperfund } from '../../live/location/zip-superfund.ts';
import { cellOf, type BBox, type Ring } from '../../live/location/geo.ts';
import {
  MAPPED_SHARE_MIN, MILE_M, RES, SUPERFUND_AS_OF, UNMAPPED, ZONE_SHARE_MIN, ZONE_WIN_RANK, haversineM, maxDate,
  type AreaKey, type ZoneClass,
} from '../../live/location/rules.ts';

export const requires = ['zips', 'superfund_sites', 'int_superfund_h3', 'flood_zones', 'int_flood_h3', 'zcta_polygons', 'int_zcta_h3'];

/** Radius used when a zip has no land area (PO-box and unique ZIPs are not ZCTAs). */
export const DEFAULT_RADIUS_M = MILE_M;
export const MIN_RADIUS_M = 400;

export interface ZipFloodFacts {
  cls: ZoneClass;
  zoneShare: number;
  sfhaShare: number;
  mappedShare: number;
  samples: number;
  shares: Record<string, number>;
  maps: Set<number>;
}

/**
 * The flood-zone rule of a zip from its samples (warehouse/docs/location.md "Flood zone of a zip"). `where` is the
 * zip's own city, state and county: samples outside every polygon are minimal X when it lies in a map's declared area.
 */
export function zipFlood(flood: FloodIndex, samples: readonly [number, number, string | null][], where: AreaKey | null = null): ZipFloodFacts {
  const byKey = new Map<string, { cls: ZoneClass; n: number }>();
  let mapped = 0, sfha = 0;
  const maps = new Set<number>();
  for (const [lat, lng, cell] of samples) {
    const hit = flood.classify(lat, lng, cell, where);
    if (!hit.map) continue;
    mapped++;
    maps.add(hit.map.id);
    if (hit.cls.sfha) sfha++;
    const e = byKey.get(hit.cls.key);
    if (e) { e.n++; if (e.cls.subtype !== hit.cls.subtype) e.cls = { ...e.cls, subtype: pickSubtype(e.cls.subtype, hit.cls.subtype) }; }
    else byKey.set(hit.cls.key, { cls: hit.cls, n: 1 });
  }
  const total = Math.max(1, samples.length);
  const shares: Record<string, number> = {};
  for (const [k, v] of byKey) shares[k] = v.n / total;
  if (samples.length - mapped > 0) shares[UNMAPPED.key] = (samples.length - mapped) / total;
  const mappedShare = mapped / total;
  const candidates = [...byKey.values()].filter((v) => v.n / total >= ZONE_SHARE_MIN)
    .sort((a, b) => b.cls.rank - a.cls.rank || b.n - a.n);
  const top = candidates[0] ?? [...byKey.values()].sort((a, b) => b.n - a.n)[0];
  let chosen: { cls: ZoneClass; n: number } | undefined;
  if (candidates[0] && candidates[0].cls.rank >= ZONE_WIN_RANK) chosen = candidates[0];
  else if (mappedShare >= MAPPED_SHARE_MIN) chosen = top;
  return {
    cls: chosen?.cls ?? UNMAPPED,
    zoneShare: chosen ? chosen.n / total : (samples.length - mapped) / total,
    sfhaShare: sfha / total, mappedShare, samples: samples.length, shares, maps,
  };
}

/** FLOODWAY wins (it is the more restrictive subtype of the same zone). */
function pickSubtype(a: string | null, b: string | null): string | null {
  return [a, b].find((s) => s && /FLOODWAY/.test(s)) ?? a ?? b;
}

/** Samples a zip's flood share rests on at least, where its area holds them at res 11 (~0.002 km2 cells): at res 9
 *  a 400 m disk has 4 to 5, so one sample in a flood zone read as 25% of the zip (review 5B: 02163 "AE, 25%"
 *  where 4% of the disk lies in AE). */
export const MIN_SAMPLES = 50;
const FINEST_RES = 11;

/** The samples of an area at the first resolution from res 9 that gives MIN_SAMPLES (else the finest): each
 *  [lat, lng, its res-9 cell], the cell the flood index is keyed by. */
function finestNeeded(cellsAt: (res: number) => string[]): [number, number, string | null][] {
  let cells: string[] = [];
  for (let res = RES.flood; res <= FINEST_RES && cells.length < MIN_SAMPLES; res++) cells = cellsAt(res);
  return cells.map((c) => { const [a, b] = cellToLatLng(c); return [a, b, cellToParent(c, RES.flood)]; });
}

/** Sample points of a disk: centres of the cells within radius of the centre (at least the centre). */
export function diskSamples(lat: number, lng: number, radiusM: number): [number, number, string | null][] {
  const origin = cellOf(lat, lng, RES.flood);
  if (!origin) return [[lat, lng, null]];
  const out = finestNeeded((res) => {
    const spacing = 300 / Math.sqrt(7) ** (res - RES.flood); // res-9 cell centres are >= ~300 m apart, each finer level sqrt(7) closer
    return gridDisk(cellOf(lat, lng, res)!, Math.ceil(radiusM / spacing) + 1).filter((c) => {
      const [clat, clng] = cellToLatLng(c);
      return haversineM(lat, lng, clat, clng) <= radiusM;
    });
  });
  return out.length ? out : [[lat, lng, origin]];
}

/** Sample points of a polygon: centres of the cells whose centre lies inside (at least an interior point). */
export function polygonSamples(polygons: Ring[][], fallback: [number, number]): [number, number, string | null][] {
  const out = finestNeeded((res) => {
    const cells = new Set<string>();
    for (const piece of zctaPieces(polygons)) {
      try { for (const c of polygonToCells(piece as number[][][], res, true)) cells.add(c); } catch { /* degenerate piece */ }
    }
    return [...cells];
  });
  return out.length ? out : [[fallback[0], fallback[1], cellOf(fallback[0], fallback[1], RES.flood)]];
}

export async function run(ctx: StageContext): Promise<void> {
  const hasGaz = await tableExists(ctx.db, 'stg_gazetteer__zctas');
  const zips = await queryRows<{ zip: string; lat: number | null; lng: number | null; land_sqmi: number | null; city: string | null; state_code: string | null; county_fips: string | null }>(ctx.db, `
    select z.zip, z.lat::double as lat, z.lng::double as lng, ${hasGaz ? 'g.land_area_sqmi' : 'null::double'} as land_sqmi,
           z.city, z.state_code, z.county_fips
    from zips z ${hasGaz ? 'left join (select zcta, any_value(land_area_sqmi) as land_area_sqmi from stg_gazetteer__zctas group by zcta) g on g.zcta = z.zip' : ''}
    order by z.zip`);
  const zctaRows = await queryRows<{ zip: string; geojson: string }>(ctx.db,
    `select zip, geojson from zcta_polygons where zip in (select zip from zips)`);
  const zcta = new Map(zctaRows.map((r) => [r.zip, (JSON.parse(r.geojson) as MultiPolygon).coordinates as Ring[][]]));
  const zctaCells = new Map<string, string[]>();
  for (const r of await queryRows<{ zip: string; cell: string }>(ctx.db, `select distinct zip, cell from int_zcta_h3`)) {
    const l = zctaCells.get(r.zip); if (l) l.push(r.cell); else zctaCells.set(r.zip, [r.cell]);
  }
  const flood = new FloodIndex(await loadFloodData(ctx.db, RES.flood));
  const superfund = new ZipSuperfund(await loadSiteData(ctx.db, RES.superfund), await ZipSuperfund.addressZips(ctx.db));
  const mapDates = new Map(flood.maps.map((m) => [m.id, m.as_of]));

  await ctx.db.run(`create or replace table int_location_zip (
    zip varchar primary key,
    geometry_source varchar not null,   -- zcta_polygon | centroid_radius | none
    radius_m double,                    -- equivalent radius used for centroid_radius
    sample_points integer not null,     -- res-9 cell centres sampled for the flood share (0: not sampled)
    mapped_share double not null,       -- share of samples inside a loaded flood map
    flood_zone varchar not null,
    flood_zone_subtype varchar,
    flood_sfha boolean not null,
    flood_zone_class varchar not null,  -- zone class key (X-shaded, X-minimal, D-unmapped, AE, ...)
    flood_zone_share double not null,   -- share of samples in the chosen class
    sfha_share double not null,
    zone_shares varchar,                -- JSON {class key: share}
    flood_maps varchar,                 -- source files of the maps touched
    flood_as_of date,                   -- latest effective date of those maps
    superfund_count_1mi integer not null,
    superfund_epa_ids varchar,          -- JSON array of the counted sites
    superfund_address_beyond varchar,   -- JSON [{epa_id, site_name, distance_m}]: sites of its EPA address zip beyond the mile, not counted
    superfund_as_of date
  )`);

  const rows: unknown[][] = [];
  let sampled = 0, addressBeyond = 0;
  for (const z of zips) {
    const hasPoint = z.lat != null && z.lng != null && Number.isFinite(z.lat) && Number.isFinite(z.lng);
    const polygons = zcta.get(z.zip);
    const radius = z.land_sqmi != null && z.land_sqmi > 0 ? Math.max(MIN_RADIUS_M, Math.sqrt((z.land_sqmi * 2_589_988.11) / Math.PI)) : DEFAULT_RADIUS_M;
    const source = polygons ? 'zcta_polygon' : hasPoint ? 'centroid_radius' : 'none';
    const sites = superfund.of({ zip: z.zip, lat: z.lat, lng: z.lng, radiusM: radius, polygons, cells: zctaCells.get(z.zip) });
    if (sites.addressBeyond.length) addressBeyond++;
    // ---- flood
    let facts: ZipFloodFacts | null = null;
    if (hasPoint && !flood.empty) {
      const ext: BBox = polygons ? bboxOf(polygons) : radiusBBox(z.lat!, z.lng!, radius);
      const where: AreaKey = { city: z.city, state: z.state_code, county: z.county_fips };
      if (flood.mapFor(where) || flood.maps.some((m) => bboxesMeet(m.bbox, ext))) {
        const samples = polygons ? polygonSamples(polygons, [z.lat!, z.lng!]) : diskSamples(z.lat!, z.lng!, radius);
        facts = zipFlood(flood, samples, where);
        sampled++;
      }
    }
    const cls = facts?.cls ?? UNMAPPED;
    const touched = facts ? [...facts.maps] : [];
    rows.push([
      z.zip, source, polygons ? null : radius, facts?.samples ?? 0, facts?.mappedShare ?? 0,
      cls.zone, cls.subtype, cls.sfha, cls.key, facts?.zoneShare ?? 1, facts?.sfhaShare ?? 0,
      facts ? JSON.stringify(roundShares(facts.shares)) : null,
      touched.length ? touched.map((id) => flood.maps.find((m) => m.id === id)?.file).join(', ') : null,
      maxDate(...touched.map((id) => mapDates.get(id))),
      sites.ids.length, JSON.stringify(sites.ids), sites.addressBeyond.length ? JSON.stringify(sites.addressBeyond) : null, SUPERFUND_AS_OF,
    ]);
  }
  await appendRows(ctx.db, 'int_location_zip', ['varchar', 'varchar', 'double', 'integer', 'double', 'varchar', 'varchar', 'boolean', 'varchar',
    'double', 'double', 'varchar', 'varchar', 'date', 'integer', 'varchar', 'varchar', 'date'], rows);
  ctx.log.info('int_location_zip', { zips: rows.length, sampled_for_flood: sampled, superfund_address_beyond: addressBeyond, with_polygon: zcta.size, land_area: hasGaz });
}

const roundShares = (s: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));

function bboxOf(polygons: Ring[][]): BBox {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of polygons) for (const p0 of p[0] ?? []) {
    minX = Math.min(minX, p0[0]!); maxX = Math.max(maxX, p0[0]!); minY = Math.min(minY, p0[1]!); maxY = Math.max(maxY, p0[1]!);
  }
  return [minX, minY, maxX, maxY];
}

function radiusBBox(lat: number, lng: number, r: number): BBox {
  const dLat = r / 111_000;
  const dLng = r / (111_000 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
  return [lng - dLng, lat - dLat, lng + dLng, lat + dLat];
}

const bboxesMeet = (a: BBox, b: BBox): boolean => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
