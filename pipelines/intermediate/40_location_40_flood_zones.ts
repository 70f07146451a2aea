// flood_maps, flood_zones, int_flood_h3 from every FEMA NFHL flood-hazard GeoJSON in the fema_nfhl folder
// (S_FLD_HAZ_AR features, any property-name case: FLD_ZONE / fld_zone, ZONE_SUBTY, SFHA_TF). Each polygon part
// becomes one flood_zones row (zone, subtype, SFHA flag, bbox, GeoJSON) and its H3 res-9 cover: every cell
// that overlaps it, flagged full_cell when the cell lies wholly inside. Features that are not a flood zone or
// not polygons go to meta.rejects.
// Mapped area (warehouse/docs/location.md "Mapped area"): a file that also maps the minimal-hazard X areas (a
// complete S_FLD_HAZ_AR layer) is mapped exactly where its polygons are. A floodplain-only file maps its declared
// area (the community or county it was cut to: KNOWN_MAP_AREAS below, or a `<file>.area.json` sidecar beside it);
// without a declaration only its polygons count as mapped. Nothing is inferred from the polygons' spread.
import fs from 'node:fs';
import path from 'node:path';
import { area, bboxClip } from '@turf/turf';
import type { Polygon } from 'geojson';
import type { StageContext, Reject } from '../../warehouse/context.ts';
import { appendRows, coverPolygon, isoDate, polygonParts, prop, readGeoJson, splitPolygon } from '../../live/location/prepare.ts';
import { ringsBBox } from '../../live/location/geo.ts';
import { RES, classifyZone, parseFloodArea, type FloodArea } from '../../live/location/rules.ts';

/**
 * Effective dates of the sample files, whose features carry no date attribute (fema-nfhl-flood-zones/SOURCE.md):
 * Cambridge FIRM/FIS effective 2025-07-08; Belmont County FIRM panels effective 2006-04-05 (SOURCE.md gives no
 * date for the NFHL snapshot itself beyond "downloaded on or before January 2025"; the 2025-01-08 there is the
 * date of the GitHub commit it was copied from, not a FEMA date). Files an operator adds supply their date
 * through an EFF_DATE / EFFECTIVE_DATE property, or YYYY-MM-DD in the file name.
 */
export const KNOWN_MAP_DATES: Record<string, { date: string; basis: string }> = {
  'cambridge_ma_25017C_fld_haz_ar.geojson': { date: '2025-07-08', basis: 'FIRM/FIS effective date of this file (SOURCE.md)' },
  'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson': { date: '2006-04-05', basis: 'effective date of the FIRM panels of this area (SOURCE.md); the NFHL download itself is undated (on or before 2025-01)' },
};

/**
 * Declared mapped areas of the sample files (fema-nfhl-flood-zones/SOURCE.md): the Cambridge file covers the
 * floodplains "inside Cambridge only" (City of Cambridge, MA; not all of DFIRM 25017C, Middlesex County);
 * the Belmont file is the Belmont County, OH (39013) layer. An operator declares the area of a file they add
 * with a sidecar `<file>.area.json` beside it, e.g. {"label": "Franklin County, OH", "counties": ["39049"]}
 * or {"places": [{"city": "Cambridge", "state": "MA"}]}; the sidecar wins over this registry.
 */
export const KNOWN_MAP_AREAS: Record<string, FloodArea> = {
  'cambridge_ma_25017C_fld_haz_ar.geojson': { label: 'the City of Cambridge, MA', counties: [], places: [{ city: 'Cambridge', state: 'MA' }] },
  'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson': { label: 'Belmont County, OH, around Bridgeport only (the detailed study: lng -80.7555 to -80.7311, lat 40.0387 to 40.0851)', counties: ['39013'], places: [] },
};

/**
 * Detailed-study extents [minLng, minLat, maxLng, maxLat] of sample files whose polygons outside it are no study:
 * every A, AE, floodway and 0.2% polygon of the Belmont file lies around Bridgeport (lng -80.7555..-80.7311, lat
 * 40.0387..40.0851) and the rest of the county is one "minimal" (X) polygon, so Bellaire, Martins Ferry, Shadyside,
 * Powhatan Point and the Ohio River read X/Minimal though no floodplain was studied there. The file's polygons are
 * clipped to the extent: outside it a point is unmapped (location.md "Mapped area").
 */
export const KNOWN_STUDY_EXTENTS: Record<string, [number, number, number, number]> = {
  'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson': [-80.7555, 40.0387, -80.7311, 40.0851],
};

/** The declared area of a flood file: its sidecar `<file>.area.json`, else the registry, else none. */
export function declaredArea(file: string): { area: FloodArea | null; basis: string | null; error: string | null } {
  const sidecar = `${file}.area.json`;
  if (fs.existsSync(sidecar)) {
    let parsed: FloodArea | string;
    try {
      parsed = parseFloodArea(JSON.parse(fs.readFileSync(sidecar, 'utf8')));
    } catch (err) {
      parsed = `not valid JSON (${(err as Error).message.slice(0, 120)})`;
    }
    if (typeof parsed === 'string') return { area: null, basis: null, error: `${path.basename(sidecar)}: ${parsed}` };
    return { area: parsed, basis: `sidecar ${path.basename(sidecar)}`, error: null };
  }
  const known = KNOWN_MAP_AREAS[path.basename(file)];
  return known ? { area: known, basis: 'registry (40_location_40_flood_zones.ts KNOWN_MAP_AREAS)', error: null } : { area: null, basis: null, error: null };
}
/** Parts with more vertices are tiled (live/location/prepare.ts splitPolygon). */
const MAX_PIECE_VERTICES = 600;
const DATE_PROPS = ['EFF_DATE', 'EFFECTIVE_DATE', 'EFFECTIVE', 'EFF_DT', 'FIRM_EFF_DATE', 'PANEL_EFF_DATE'];

export async function run(ctx: StageContext): Promise<void> {
  await ctx.db.run('delete from flood_maps; delete from flood_zones; delete from int_flood_h3;');
  const files = ctx.sourceFiles('fema_nfhl', 'flood_zones');
  const mapRows: unknown[][] = [];
  const zoneRows: unknown[][] = [];
  const cellRows: unknown[][] = [];
  const rejects: Reject[] = [];
  let polygonId = 0;
  for (const [mapId, file] of files.entries()) {
    const rel = path.relative(ctx.paths.sources, file);
    const name = path.basename(file);
    let doc: ReturnType<typeof readGeoJson>;
    try {
      doc = readGeoJson(file);
    } catch (err) {
      rejects.push({ stage: 'intermediate', source: 'fema_nfhl', file: rel, line: null, reason: 'geojson_parse', detail: (err as Error).message.slice(0, 200) });
      continue;
    }
    let dates: string[] = [];
    let polygons = 0;
    let rejected = 0;
    let hasMinimal = false;
    const mapBox = [Infinity, Infinity, -Infinity, -Infinity];
    doc.features.forEach((f, featureIndex) => {
      const props = f.properties ?? {};
      const zoneRaw = prop(props, 'FLD_ZONE');
      const cls = classifyZone(zoneRaw, prop(props, 'ZONE_SUBTY', 'ZONE_SUBTYPE'), prop(props, 'SFHA_TF'));
      const parts = polygonParts(f.geometry);
      if (!cls || !parts) {
        rejected++;
        rejects.push({
          stage: 'intermediate', source: 'fema_nfhl', file: rel, line: null,
          reason: !cls ? 'flood_zone_not_a_zone' : 'flood_geometry_not_polygon',
          detail: `feature ${featureIndex}: FLD_ZONE=${JSON.stringify(zoneRaw ?? null)} geometry=${f.geometry?.type ?? 'null'}`,
        });
        return;
      }
      if (cls.key === 'X-minimal') hasMinimal = true;
      for (const d of DATE_PROPS) { const iso = isoDate(prop(props, d)); if (iso) dates.push(iso); }
      const extent = KNOWN_STUDY_EXTENTS[name];
      parts.forEach((raw, partIndex) => {
        // coordinates kept exactly as published, but for a file with a study extent: clipped to it
        let whole = raw;
        if (extent) {
          const clipped = bboxClip({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: raw } }, extent).geometry;
          const rings = (clipped.type === 'Polygon' ? clipped.coordinates : []).filter((r) => r.length >= 4);
          if (!rings.length || area({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } }) <= 0) return;
          whole = rings as typeof raw;
        }
        splitPolygon(whole, MAX_PIECE_VERTICES).forEach((rings, pieceIndex) => {
          const bbox = ringsBBox(rings);
          for (let i = 0; i < 4; i++) mapBox[i] = i < 2 ? Math.min(mapBox[i]!, bbox[i]!) : Math.max(mapBox[i]!, bbox[i]!);
          const geometry: Polygon = { type: 'Polygon', coordinates: rings };
          let cover: ReturnType<typeof coverPolygon>;
          try {
            cover = coverPolygon(rings, RES.flood);
          } catch (err) {
            rejects.push({ stage: 'intermediate', source: 'fema_nfhl', file: rel, line: null, reason: 'flood_h3_cover', detail: `feature ${featureIndex} part ${partIndex}: ${(err as Error).message}` });
            return;
          }
          const id = polygonId++;
          for (const c of cover.cells) cellRows.push([c, id, cover.full.has(c)]);
          zoneRows.push([
            id, mapId, name, featureIndex, partIndex, pieceIndex, cls.zone, cls.subtype, cls.sfha, cls.key, cls.label, cls.rank,
            bbox[0], bbox[1], bbox[2], bbox[3], area({ type: 'Feature', properties: {}, geometry }),
            rings.reduce((a, r) => a + r.length, 0), JSON.stringify(geometry),
          ]);
          polygons++;
        });
      });
    });
    let asOf: string | null = null;
    let basis: string | null = null;
    if (dates.length) { asOf = dates.sort().at(-1)!; basis = 'feature effective-date property (latest)'; }
    else if (KNOWN_MAP_DATES[name]) { asOf = KNOWN_MAP_DATES[name]!.date; basis = KNOWN_MAP_DATES[name]!.basis; }
    else {
      const m = /(\d{4})-?(\d{2})-?(\d{2})/.exec(name);
      const iso = m ? isoDate(`${m[1]}-${m[2]}-${m[3]}`) : null;
      if (iso) { asOf = iso; basis = 'date in the file name'; }
    }
    dates = [];
    const declared = declaredArea(file);
    if (declared.error) {
      rejects.push({ stage: 'intermediate', source: 'fema_nfhl', file: `${rel}.area.json`, line: null, reason: 'flood_area_invalid',
        detail: `${declared.error}; the map is treated as undeclared (only its polygons are mapped)` });
      ctx.log.warn(`flood map ${name}: area declaration ignored`, { error: declared.error });
    }
    mapRows.push([
      mapId, name, doc.features.length, polygons, rejected,
      polygons ? mapBox[0] : null, polygons ? mapBox[1] : null, polygons ? mapBox[2] : null, polygons ? mapBox[3] : null,
      hasMinimal, declared.area?.label ?? null, declared.area ? JSON.stringify(declared.area) : null, declared.basis, asOf, basis,
    ]);
    ctx.log.info(`flood map ${name}`, { features: doc.features.length, polygons, rejected, as_of: asOf ?? 'unknown', area: declared.area?.label ?? 'undeclared (polygons only)' });
  }
  await appendRows(ctx.db, 'flood_maps', ['integer', 'varchar', 'integer', 'integer', 'integer', 'double', 'double', 'double', 'double', 'boolean', 'varchar', 'varchar', 'varchar', 'date', 'varchar'], mapRows);
  await appendRows(ctx.db, 'flood_zones', ['integer', 'integer', 'varchar', 'integer', 'integer', 'integer', 'varchar', 'varchar', 'boolean', 'varchar', 'varchar', 'integer',
    'double', 'double', 'double', 'double', 'double', 'integer', 'varchar'], zoneRows);
  await appendRows(ctx.db, 'int_flood_h3', ['varchar', 'integer', 'boolean'], cellRows);
  await ctx.addRejects(rejects);
  ctx.log.info('flood_zones', { maps: mapRows.length, polygons: zoneRows.length, cells: cellRows.length });
}
