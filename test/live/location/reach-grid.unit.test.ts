// The reach box and grid of live/location/reach-grid.ts, pure: they may only drop zips that cannot reach a point
// (checked with the lookup's own haversine on points at and just inside the reach, at high latitudes and across the
// 180th meridian), keep the zips' order, and list far fewer candidates than the zips they index.
import { describe, expect, it } from 'vitest';
import { ReachGrid, reachBox } from '../../../live/location/reach-grid.ts';
import { haversineM } from '../../../live/location/rules.ts';

const R = 6_371_008.8;

/** The point `distM` from (lat, lng) on bearing `brg` (radians), great circle on the haversine's sphere. */
function destination(lat: number, lng: number, distM: number, brg: number): [number, number] {
  const toRad = Math.PI / 180, d = distM / R, p1 = lat * toRad;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(brg));
  let l2 = lng * toRad + Math.atan2(Math.sin(brg) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  l2 = ((l2 + 3 * Math.PI) % (2 * Math.PI)) - Math.PI;
  return [p2 / toRad, l2 / toRad];
}

let seed = 11;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

// centres like the zips': the lower 48, Alaska up to Utqiagvik, the Aleutians either side of 180, Hawaii
const centres: [number, number, number][] = [];
for (let i = 0; i < 400; i++) {
  const kind = i % 4;
  const lat = kind === 0 ? 25 + rnd() * 24 : kind === 1 ? 55 + rnd() * 16.5 : kind === 2 ? 51 + rnd() * 2 : 19 + rnd() * 3;
  const lng = kind === 0 ? -124 + rnd() * 57 : kind === 1 ? -165 + rnd() * 25 : kind === 2 ? 178 + rnd() * 4 : -160 + rnd() * 6;
  centres.push([lat, lng > 180 ? lng - 360 : lng, 16_000 + rnd() * rnd() * 400_000]);
}

describe('reach box and grid', () => {
  it('hold every point within reach of a centre', () => {
    const grid = new ReachGrid(centres.map(([lat, lng, reachM], id) => ({ id, lat, lng, reachM })));
    let checked = 0;
    centres.forEach(([lat, lng, reachM], id) => {
      const [lat0, lat1, lng0, lng1] = reachBox(lat, lng, reachM);
      for (let k = 0; k < 64; k++) {
        const [pLat, pLng] = destination(lat, lng, reachM * (k % 2 ? 1 - 1e-9 : rnd()), (k / 64) * 2 * Math.PI);
        if (haversineM(pLat, pLng, lat, lng) > reachM) continue;
        expect(pLat >= lat0 && pLat <= lat1 && pLng >= lng0 && pLng <= lng1, `${pLat},${pLng} from ${lat},${lng} (${reachM} m)`).toBe(true);
        expect(grid.candidates(pLat, pLng), `${pLat},${pLng} from #${id}`).toContain(id);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(20_000);
  });

  it('lists a point\'s candidates in the order given, far fewer than all', () => {
    const grid = new ReachGrid(centres.map(([lat, lng, reachM], id) => ({ id, lat, lng, reachM })));
    let total = 0;
    for (let i = 0; i < 500; i++) {
      const c = grid.candidates(25 + rnd() * 45, -170 + rnd() * 105);
      expect([...c]).toEqual([...c].sort((a, b) => a - b));
      total += c.length;
    }
    expect(total / 500).toBeLessThan(centres.length / 10);
  });
});
