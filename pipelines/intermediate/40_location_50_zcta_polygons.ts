// zcta_polygons and int_zcta_h3 from the ZCTA boundary GeoJSON files (zcta_boundaries: DE, DC, RI, 2010
// TIGER/Line). One row per ZCTA (state-clipped parts of a cross-state ZCTA are merged into one MultiPolygon)
// and its H3 res-8 cover, flagged full_cell where the cell lies wholly inside.
import path from 'node:path';
import { area } from '@turf/turf';
import type { MultiPolygon } from 'geojson';
import type { StageContext, Reject } from '../../warehouse/context.ts';
import { appendRows, coverPolygon, polygonParts, prop, readGeoJson, zctaPieces } from '../../live/location/prepare.ts';
import { ringsBBox, type Ring } from '../../live/location/geo.ts';
import { RES } from '../../live/location/rules.ts';

interface Acc { zip: string; state: string | null; file: string; parts: Ring[][]; land: number | null }

export async function run(ctx: StageContext): Promise<void> {
  await ctx.db.run('delete from zcta_polygons; delete from int_zcta_h3;');
  const rejects: Reject[] = [];
  const byZip = new Map<string, Acc>();
  for (const file of ctx.sourceFiles('zcta_boundaries', 'polygons')) {
    const rel = path.relative(ctx.paths.sources, file);
    let doc: ReturnType<typeof readGeoJson>;
    try {
      doc = readGeoJson(file);
    } catch (err) {
      rejects.push({ stage: 'intermediate', source: 'zcta_boundaries', file: rel, line: null, reason: 'geojson_parse', detail: (err as Error).message.slice(0, 200) });
      continue;
    }
    doc.features.forEach((f, i) => {
      const props = f.properties ?? {};
      const zipRaw = String(prop(props, 'ZCTA5CE10', 'ZCTA5CE20', 'ZCTA5CE', 'ZCTA5', 'ZIP', 'ZIP_CODE') ?? '').trim();
      const parts = polygonParts(f.geometry);
      if (!/^\d{5}$/.test(zipRaw) || !parts) {
        rejects.push({ stage: 'intermediate', source: 'zcta_boundaries', file: rel, line: null,
          reason: !parts ? 'zcta_geometry_not_polygon' : 'zcta_bad_code', detail: `feature ${i}: ${zipRaw}` });
        return;
      }
      const land = Number(prop(props, 'ALAND10', 'ALAND20', 'ALAND'));
      const acc = byZip.get(zipRaw);
      if (acc) {
        acc.parts.push(...parts);
        if (Number.isFinite(land)) acc.land = (acc.land ?? 0) + land;
      } else {
        const st = prop(props, 'STATEFP10', 'STATEFP20', 'STATEFP');
        byZip.set(zipRaw, { zip: zipRaw, state: st == null ? null : String(st), file: path.basename(file), parts: parts, land: Number.isFinite(land) ? land : null });
      }
    });
  }
  const rows: unknown[][] = [];
  const cellRows: unknown[][] = [];
  for (const z of [...byZip.values()].sort((a, b) => a.zip.localeCompare(b.zip))) {
    const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: z.parts };
    const bbox = ringsBBox(z.parts.flat());
    zctaPieces(z.parts).forEach((piece, pieceIndex) => {
      try {
        const cover = coverPolygon(piece, RES.zcta);
        for (const c of cover.cells) cellRows.push([c, z.zip, pieceIndex, cover.full.has(c)]);
      } catch (err) {
        rejects.push({ stage: 'intermediate', source: 'zcta_boundaries', file: z.file, line: null, reason: 'zcta_h3_cover', detail: `${z.zip} piece ${pieceIndex}: ${(err as Error).message}` });
      }
    });
    rows.push([z.zip, z.state, z.file, z.parts.length, z.land, area({ type: 'Feature', properties: {}, geometry }),
      bbox[0], bbox[1], bbox[2], bbox[3], JSON.stringify(geometry)]);
  }
  await appendRows(ctx.db, 'zcta_polygons', ['varchar', 'varchar', 'varchar', 'integer', 'double', 'double', 'double', 'double', 'double', 'double', 'varchar'], rows);
  await appendRows(ctx.db, 'int_zcta_h3', ['varchar', 'varchar', 'integer', 'boolean'], cellRows);
  await ctx.addRejects(rejects);
  ctx.log.info('zcta_polygons', { zctas: rows.length, cells: cellRows.length });
}
