// int_superfund_h3: for every counted NPL site (final + proposed), the H3 res-8 cells that come within
// 1 mile of it. Ring by ring from the site's cell, a cell is kept when the distance from the site to the
// cell's boundary is at most 1 mile (+30 m margin); the walk stops at the first ring with no kept cell
// (a disk is convex, so no farther ring can reach it). These are candidates only: every count applies the
// exact haversine 1-mile test.
import { cellToBoundary, gridDisk, gridRing, latLngToCell } from 'h3-js';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { appendRows } from '../../live/location/prepare.ts';
import { pointToCellBoundaryM } from '../../live/location/geo.ts';
import { MILE_M, RES, haversineM } from '../../live/location/rules.ts';

export const requires = ['superfund_sites'];

const MARGIN_M = 30;

function ring(origin: string, k: number): string[] {
  try {
    return gridRing(origin, k);
  } catch {
    // near a pentagon gridRing can fail: take the disk difference instead
    const inner = new Set(gridDisk(origin, k - 1));
    return gridDisk(origin, k).filter((c) => !inner.has(c));
  }
}

/** Cells within 1 mile of a point: [cell, min distance m, wholly within 1 mile]. */
export function cellsWithinMile(lat: number, lng: number, res = RES.superfund): [string, number, boolean][] {
  const origin = latLngToCell(lat, lng, res);
  const out: [string, number, boolean][] = [];
  for (let k = 0; k < 64; k++) {
    let kept = 0;
    for (const cell of k === 0 ? [origin] : ring(origin, k)) {
      const boundary = cellToBoundary(cell);
      const d = pointToCellBoundaryM(lat, lng, boundary);
      if (d > MILE_M + MARGIN_M) continue;
      const whole = boundary.every((p) => haversineM(lat, lng, p[0]!, p[1]!) <= MILE_M);
      out.push([cell, d, whole]);
      kept++;
    }
    if (kept === 0) break;
  }
  return out;
}

export async function run(ctx: StageContext): Promise<void> {
  const sites = await queryRows<{ epa_id: string; lat: number; lng: number }>(ctx.db,
    `select epa_id, lat, lng from superfund_sites where counted order by epa_id`);
  await ctx.db.run('delete from int_superfund_h3');
  const rows: [string, string, number, boolean][] = [];
  for (const s of sites) {
    for (const [cell, d, whole] of cellsWithinMile(s.lat, s.lng)) rows.push([cell, s.epa_id, d, whole]);
  }
  await appendRows(ctx.db, 'int_superfund_h3', ['varchar', 'varchar', 'double', 'boolean'], rows);
  ctx.log.info('int_superfund_h3', { sites: sites.length, cells: rows.length });
}
