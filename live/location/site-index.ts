// Counted NPL (Superfund) sites within 1 mile of a point: H3 cell -> candidate sites (each site listed in every cell
// its 1-mile disk reaches), then the exact haversine distance.
import { MILE_M, haversineM } from './rules.ts';
import type { SiteData } from './data.ts';
import { cellOf } from './geo.ts';
import { CellLists } from './cell-lists.ts';

export interface SiteHit {
  epa_id: string;
  name: string;
  status: string;
  distance_m: number;
}

export class SiteIndex {
  private readonly sites: SiteData['sites'];
  private readonly cells: CellLists;
  private readonly others: SiteData['others'];
  readonly res: number;

  constructor(data: SiteData) {
    this.res = data.res;
    this.sites = data.sites;
    this.cells = new CellLists(data.cells);
    this.others = data.others;
  }

  /** Active SEMS sites not on the NPL within `radiusM` (a scan: 59 sites); null for a build that did not write them. */
  othersWithin(lat: number, lng: number, radiusM = MILE_M): number | null {
    if (!this.others) return null;
    // a site more than radiusM / 100 km of latitude away is farther than radiusM (a degree is 111 km): no haversine
    return this.others.filter((s) => Math.abs(s[2] - lat) * 100_000 <= radiusM && haversineM(lat, lng, s[2], s[3]) <= radiusM).length;
  }

  /** Counted NPL sites within exactly `radiusM` (default 1 mile, haversine) of the point. */
  within(lat: number, lng: number, radiusM = MILE_M): SiteHit[] {
    const c = cellOf(lat, lng, this.res);
    const entries = c ? this.cells.get(c) : undefined;
    if (!entries) return [];
    const out: SiteHit[] = [];
    for (const i of entries) {
      const s = this.sites[i]!;
      const d = haversineM(lat, lng, s[3], s[4]);
      if (d <= radiusM) out.push({ epa_id: s[0], name: s[1], status: s[2], distance_m: d });
    }
    return out;
  }
}
