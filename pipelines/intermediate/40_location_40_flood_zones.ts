// flood_maps, flood_zones, int_flood_h3 from every FEMA NFHL flood-hazard GeoJSON in the fema_nfhl folder
// (S_FLD_HAZ_AR features, any property-name case: FLD_ZONE / fld_zone, ZONE_SUBTY, SFHA_TF). Each polygon part
// becomes one flood_zones row (zone, subtype, SFHA flag, bbox, GeoJSON) and its H3 res-9 cover: every cell
// that overlaps it, flagged full_cell when the cell lies wholly inside. The map's extent (mapped area) is the
// convex hull of its polygons for a floodplain-only file; a file that also maps the minimal-hazard X areas
// (a complete S_FLD_HAZ_AR layer) is its own extent: a point outside all of its polygons is not mapped. Features that are not a flood zone or not polygons go to meta.rejects.
import path from 'node:path';
import { area, convex } from '@turf/turf';
import type { Feature, FeatureCollection, Point, Polygon } from 'geojson';
import type { StageContext, Reject } from '../context.ts';
import { appendRows, coverPolygon, isoDate, polygonParts, prop, readGeoJson, splitPolygon } from '../../api/live/location-build.ts';
import { ringsBBox } from '../../api/live/location-geo.ts';
import { RES, classifyZone } from '../../api/live/location-rules.ts';

/**
 * Effective dates of the sample files, whose features carry no date attribute (fema-nfhl-flood-zones/SOURCE.md):
 * Cambridge FIRM effective 2025-07-08; Belmont County NFHL snapshot of 2025-01-08. Files an operator adds
 * supply their date through an EFF_DATE / EFFECTIVE_DATE property, or YYYY-MM-DD in the file name.
 */
export const KNOWN_MAP_DATES: Record<string, string> = {
  'cambridge_ma_25017C_fld_haz_ar.geojson': '2025-07-08',
  'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson': '2025-01-08',
};
/** Parts with more vertices are tiled (location-build.ts splitPolygon). */
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
    const hullPoints: Feature<Point>[] = [];
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
      parts.forEach((raw, partIndex) => {
        const whole = raw; // coordinates kept exactly as published
        for (const p of whole[0]!) hullPoints.push({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: p } });
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
    else if (KNOWN_MAP_DATES[name]) { asOf = KNOWN_MAP_DATES[name]!; basis = 'documented effective date of this file (SOURCE.md)'; }
    else {
      const m = /(\d{4})-?(\d{2})-?(\d{2})/.exec(name);
      const iso = m ? isoDate(`${m[1]}-${m[2]}-${m[3]}`) : null;
      if (iso) { asOf = iso; basis = 'date in the file name'; }
    }
    dates = [];
    const hull = hullPoints.length >= 3 ? convex({ type: 'FeatureCollection', features: hullPoints } as FeatureCollection<Point>) : null;
    mapRows.push([
      mapId, name, doc.features.length, polygons, rejected,
      polygons ? mapBox[0] : null, polygons ? mapBox[1] : null, polygons ? mapBox[2] : null, polygons ? mapBox[3] : null,
      hasMinimal ? 'polygons' : 'convex_hull', hull ? JSON.stringify(hull.geometry) : null, asOf, basis,
    ]);
    ctx.log.info(`flood map ${name}`, { features: doc.features.length, polygons, rejected, as_of: asOf ?? 'unknown' });
  }
  await appendRows(ctx.db, 'flood_maps', ['integer', 'varchar', 'integer', 'integer', 'integer', 'double', 'double', 'double', 'double', 'varchar', 'varchar', 'date', 'varchar'], mapRows);
  await appendRows(ctx.db, 'flood_zones', ['integer', 'integer', 'varchar', 'integer', 'integer', 'integer', 'varchar', 'varchar', 'boolean', 'varchar', 'varchar', 'integer',
    'double', 'double', 'double', 'double', 'double', 'integer', 'varchar'], zoneRows);
  await appendRows(ctx.db, 'int_flood_h3', ['varchar', 'integer', 'boolean'], cellRows);
  await ctx.addRejects(rejects);
  ctx.log.info('flood_zones', { maps: mapRows.length, polygons: zoneRows.length, cells: cellRows.length });
}
