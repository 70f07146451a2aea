// Candidates among zips of long reach (zip-locator.ts: a zip reaches points within max(16 km, 2 x its equivalent
// radius) of its centroid): a 1-degree lat/lng grid where each zip is listed in every cell its reach box touches,
// so a point's candidates are its cell's list, not every such zip (1,842 haversines a lookup before, the grid's
// list a few dozen). The box errs wide (100 km a degree of latitude, the latitude farthest from the equator for
// the longitude span, every longitude near a pole): it only drops zips that cannot reach the point, and each list
// keeps the zips' order, so the nearest search finds the same zip, ties included.

/**
 * A box holding every point within `reachM` of (lat, lng), [minLat, maxLat, minLng, maxLng], wide by design (see
 * above); longitudes span -Infinity..Infinity where the box would cross the 180th meridian or come near a pole.
 */
export function reachBox(lat: number, lng: number, reachM: number): [number, number, number, number] {
  const dLat = reachM / 100_000;
  const top = Math.abs(lat) + dLat;
  const dLng = top >= 85 ? Infinity : dLat / Math.cos((top * Math.PI) / 180);
  const wraps = !(lng - dLng >= -180 && lng + dLng <= 180);
  return [lat - dLat, lat + dLat, wraps ? -Infinity : lng - dLng, wraps ? Infinity : lng + dLng];
}

/** Grid cell of a point: whole degrees, latitude 90 in the top row, longitude 180 wrapped to -180. */
function cellKey(latDeg: number, lngDeg: number): number {
  const row = Math.min(89, Math.max(-90, latDeg));
  const col = ((((lngDeg + 180) % 360) + 360) % 360) - 180;
  return (row + 90) * 360 + (col + 180);
}

export class ReachGrid {
  private readonly cells = new Map<number, number[]>();

  /** `reachM[i]`: how far item `ids[i]` reaches from (`lat[i]`, `lng[i]`); ids are listed in the order given. */
  constructor(items: readonly { id: number; lat: number; lng: number; reachM: number }[]) {
    for (const { id, lat, lng, reachM } of items) {
      const [lat0, lat1, minLng, maxLng] = reachBox(lat, lng, reachM);
      const lng0 = Number.isFinite(minLng) ? Math.floor(minLng) : -180, lng1 = Number.isFinite(maxLng) ? Math.floor(maxLng) : 179;
      const seen = new Set<number>();
      for (let r = Math.floor(lat0); r <= Math.floor(lat1); r++) {
        for (let c = lng0; c <= lng1; c++) {
          const k = cellKey(r, c);
          if (seen.has(k)) continue;
          seen.add(k);
          const list = this.cells.get(k);
          if (list) list.push(id); else this.cells.set(k, [id]);
        }
      }
    }
  }

  /** The items that may reach the point, in the order given to the constructor. */
  candidates(lat: number, lng: number): readonly number[] {
    return this.cells.get(cellKey(Math.floor(lat), Math.floor(lng))) ?? [];
  }
}
