// Live data of GET /v1/location/risk?lat=&lng= (live/location/endpoint.ts), written under <build>/live/location/:
//   meta.json       versions, H3 resolutions, counts, the Superfund snapshot date, whether a Superfund file was read
//   flood.json      flood maps (bbox, extent, date), polygon pieces (zone, rings) and the res-9 cell index
//   superfund.json  counted NPL sites and the res-8 cell index of their 1-mile disks
//   zcta.json       ZCTA polygon pieces (DE, DC, RI) and their res-8 cell index
//   zips.json       every area zip (macro zip_is_area: a ZCTA, not a PO-box or unique zip) with a centroid: lat, lng,
//                   equivalent radius, city, state, NRI county score, county FIPS
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { loadFloodData, loadSiteData, loadZctaData, superfundLoaded } from './prepare.ts';
import type { ZipData } from './data.ts';
import { RES, SUPERFUND_AS_OF } from './rules.ts';

export const requires = ['mart_location_risk', 'int_location_zip', 'flood_zones', 'int_flood_h3', 'superfund_sites', 'superfund_sems_other', 'int_superfund_h3', 'zcta_polygons', 'int_zcta_h3'];

export const LIVE_FORMAT = 2; // 2: flood maps carry their declared area; zips carry their county FIPS

export async function run(ctx: StageContext): Promise<void> {
  const dir = path.join(ctx.paths.build, 'live', 'location');
  fs.mkdirSync(dir, { recursive: true });
  const zipRows = await queryRows<{ zip: string; lat: number; lng: number; radius_m: number | null; area_m2: number | null; city: string; state: string; nri: number | null; county_fips: string | null }>(ctx.db, `
    select m.zip, z.lat, z.lng, l.radius_m, p.area_m2, m.city, m.state, m.nri_risk_score as nri, m.county_fips
    from mart_location_risk m
    join zips z using (zip)
    join int_location_zip l using (zip)
    left join zcta_polygons p using (zip)
    where z.lat is not null and z.lng is not null and zip_is_area(z.is_zcta, z.centroid_source)
    order by m.zip`);
  const zips: ZipData = {
    zips: zipRows.map((r) => [r.zip, r.lat, r.lng, Math.round(r.radius_m ?? Math.sqrt((r.area_m2 ?? 0) / Math.PI)), r.city, r.state, r.nri, r.county_fips]),
  };
  const known = new Set(zipRows.map((r) => r.zip));
  const flood = await loadFloodData(ctx.db, RES.flood);
  const superfund = await loadSiteData(ctx.db, RES.superfund);
  const zcta = await loadZctaData(ctx.db, RES.zcta, (zip) => known.has(zip));
  const meta = {
    format: LIVE_FORMAT, build_id: ctx.buildId, superfund_as_of: SUPERFUND_AS_OF, res: RES,
    // false: no EPA file read, so no point's Superfund count is known (./superfund-loaded.ts); the lookup refuses
    superfund_loaded: await superfundLoaded(ctx.db),
    counts: { zips: zips.zips.length, flood_maps: flood.maps.length, flood_polygons: flood.polygons.length, flood_cells: Object.keys(flood.cells).length,
      superfund_sites: superfund.sites.length, superfund_cells: Object.keys(superfund.cells).length, zcta_pieces: zcta.zctas.length },
  };
  const write = (name: string, v: unknown): number => { const s = JSON.stringify(v); fs.writeFileSync(path.join(dir, name), s); return s.length; };
  const bytes = write('flood.json', flood) + write('superfund.json', superfund) + write('zcta.json', zcta) + write('zips.json', zips);
  write('meta.json', meta); // last: its presence marks a complete set
  ctx.log.info('live/location', { ...meta.counts, mb: Number((bytes / 1048576).toFixed(1)) });
}
