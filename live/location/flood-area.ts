// The declared area of a FEMA flood file (the community or county it was cut to) and whether a zip lies in it: read
// by the build (pipelines/intermediate/40_location_40_flood_zones.ts) and by the live point lookup, whose zip
// searches ask it about the same few areas many times (the areas' places are normalised once). Re-exported by
// rules.ts, where the location rules are listed (warehouse/docs/location.md).
/**
 * The area a FEMA flood file was cut to (the community or county it maps), declared by the registry in
 * 40_location_40_flood_zones.ts or a `<file>.area.json` sidecar: counties by 5-digit FIPS, places by city + state.
 */
export interface FloodArea {
  label: string;
  counties: string[];
  places: { city: string; state: string }[];
}

/** Where a point or zip is, for declared-area membership: its zip's primary city, state and county. */
export interface AreaKey {
  city: string | null;
  state: string | null;
  county: string | null;
}

const placeNorm = (s: string | null | undefined): string => (s ?? '').trim().toUpperCase().replace(/\s+/g, ' ');

/** An area's places, normalised once (city -> states): the point lookup asks about the same few areas each time. */
const areaPlaces = new WeakMap<FloodArea, Map<string, Set<string>>>();

function placesOf(area: FloodArea): Map<string, Set<string>> {
  let m = areaPlaces.get(area);
  if (!m) {
    m = new Map();
    for (const p of area.places) {
      const city = placeNorm(p.city);
      const states = m.get(city);
      if (states) states.add(placeNorm(p.state)); else m.set(city, new Set([placeNorm(p.state)]));
    }
    areaPlaces.set(area, m);
  }
  return m;
}

/** True when the zip described by `where` lies in the declared area (its county, or its city in the state). */
export function inFloodArea(area: FloodArea | null | undefined, where: AreaKey | null | undefined): boolean {
  if (!area || !where) return false;
  if (where.county && area.counties.includes(where.county)) return true;
  if (area.places.length === 0) return false;
  const city = placeNorm(where.city);
  return !!city && placesOf(area).get(city)?.has(placeNorm(where.state)) === true;
}

/**
 * Parses a declared area ({label?, counties?: ["39013"], places?: [{city, state}] or ["Cambridge, MA"]}).
 * Returns the area, or an error message naming what is wrong.
 */
export function parseFloodArea(v: unknown): FloodArea | string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  const counties: string[] = [];
  const places: { city: string; state: string }[] = [];
  if (o['counties'] !== undefined) {
    if (!Array.isArray(o['counties'])) return '"counties" must be an array of 5-digit county FIPS codes';
    for (const c of o['counties']) {
      const code = typeof c === 'number' ? String(c).padStart(5, '0') : typeof c === 'string' ? c.trim() : '';
      if (!/^\d{5}$/.test(code)) return `county ${JSON.stringify(c)} is not a 5-digit FIPS code`;
      counties.push(code);
    }
  }
  if (o['places'] !== undefined) {
    if (!Array.isArray(o['places'])) return '"places" must be an array of {"city", "state"} or "City, ST"';
    for (const p of o['places']) {
      let city: unknown, state: unknown;
      if (typeof p === 'string') { const m = /^(.+),\s*([A-Za-z]{2})$/.exec(p.trim()); if (m) { city = m[1]; state = m[2]; } }
      else if (p && typeof p === 'object') { city = (p as Record<string, unknown>)['city']; state = (p as Record<string, unknown>)['state']; }
      if (typeof city !== 'string' || !city.trim() || typeof state !== 'string' || !/^[A-Za-z]{2}$/.test(state.trim())) {
        return `place ${JSON.stringify(p)} needs a city and a 2-letter state`;
      }
      places.push({ city: city.trim(), state: state.trim().toUpperCase() });
    }
  }
  if (!counties.length && !places.length) return 'declares no county and no place';
  const label = typeof o['label'] === 'string' && o['label'].trim()
    ? o['label'].trim()
    : [...places.map((p) => `${p.city}, ${p.state}`), ...counties.map((c) => `county ${c}`)].join('; ');
  return { label, counties, places };
}
