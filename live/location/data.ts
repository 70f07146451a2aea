// The shapes of the live files of the location-risk domain (<build>/live/location/*.json): written by build.ts with
// the helpers of prepare.ts, read by endpoint.ts into the indexes of flood-index.ts, site-index.ts and zip-locator.ts.
import type { FloodArea } from './rules.ts';
import type { BBox, Ring } from './geo.ts';

export interface FloodMapData {
  id: number;
  file: string;
  bbox: BBox;
  /**
   * True when the map also has minimal-hazard X polygons (a complete S_FLD_HAZ_AR layer): its polygons are its
   * mapped area, and a point outside all of them is not mapped (D) whatever the declared area.
   */
  complete: boolean;
  /**
   * The community/county the file was cut to (registry or `<file>.area.json`), or null when undeclared. For a
   * floodplain-only file a point outside its polygons is minimal-hazard X only when its zip lies in this area.
   */
  area: FloodArea | null;
  as_of: string | null;
}

export interface FloodPolygonData {
  id: number; // flood_zones.polygon_id
  map: number; // index into maps
  zone: string;
  subtype: string | null;
  sfha: boolean;
  bbox: BBox;
  rings: Ring[]; // outer ring + holes
}

export interface FloodData {
  res: number;
  maps: FloodMapData[];
  polygons: FloodPolygonData[];
  /** H3 cell -> polygon positions, each encoded as position * 2 + (1 when the cell lies wholly inside). */
  cells: Record<string, number[]>;
}

export interface SiteData {
  res: number;
  /** Counted NPL sites: [epa_id, site_name, npl_status, lat, lng]. */
  sites: [string, string, string, number, number][];
  /** H3 cell -> site positions whose 1-mile disk reaches the cell. */
  cells: Record<string, number[]>;
  /** Active SEMS sites not on the NPL, never counted as Superfund: [epa_id, site_name, lat, lng] (absent before). */
  others?: [string, string, number, number][];
}

export interface ZctaData {
  res: number;
  zctas: { zip: string; bbox: BBox; polygons: Ring[][] }[];
  /** H3 cell -> zcta positions * 2 + (1 when the cell lies wholly inside). */
  cells: Record<string, number[]>;
}

export interface ZipData {
  /** [zip, lat, lng, radius_m, city, state, county NRI risk score | null, county FIPS | null] */
  zips: [string, number, number, number, string, string, number | null, string | null][];
}
