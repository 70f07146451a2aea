// The zip of a point near a state line or a city line, against the raw FEMA flood files (warehouse/docs/location.md
// "Point lookups"): a point inside the Belmont County, OH file's polygons answered Wheeling, WV (26003: centroid
// 8.2 km away, radius 8.7 km) over Bridgeport, OH (43912: 4.4 km, 3.8 km) and scored Ohio Co. WV's NRI; a point
// between Harvard and Inman Sq answered Somerville (02143) and "no FEMA flood map was loaded" inside Cambridge.
import path from 'node:path';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { sourcesDir } from '../../helpers/location-truth.ts';
import { LocationEngine } from '../../../live/location/endpoint.ts';
import { readGeoJson } from '../../../live/location/prepare.ts';

type Feat = ReturnType<typeof readGeoJson>['features'][number];
const raw = (name: string): Feat[] => readGeoJson(path.join(sourcesDir(), 'fema-nfhl-flood-zones', name)).features;
const inside = (fs: Feat[], lat: number, lng: number): Feat | undefined =>
  fs.find((f) => f.geometry && booleanPointInPolygon([lng, lat], f.geometry as never));

describe('location risk: a point inside a flood file takes a zip of the file\'s area', () => {
  let engine: LocationEngine;
  let belmont: Feat[];
  let cambridge: Feat[];
  beforeAll(() => {
    engine = LocationEngine.fromDir(path.join(buildDir(), 'live', 'location'));
    belmont = raw('belmont_county_oh_39013_fld_haz_ar_dissolved.geojson');
    cambridge = raw('cambridge_ma_25017C_fld_haz_ar.geojson');
  });
  const body = (lat: number, lng: number): Record<string, unknown> => {
    const a = engine.answer(lat, lng);
    if (!a.ok) throw new Error(a.message);
    return a.body as unknown as Record<string, unknown>;
  };

  it('answers Bridgeport, OH for the reviewer\'s point in the Belmont file\'s minimal-hazard polygon', () => {
    const f = inside(belmont, 40.072037, -80.747267);
    expect(JSON.stringify(f?.properties)).toMatch(/AREA OF MINIMAL FLOOD HAZARD/);
    expect(body(40.072037, -80.747267)).toMatchObject({ zip_code: '43912', city: 'Bridgeport', state: 'OH', flood_zone: 'X' });
  });

  it('answers an Ohio zip for every point of a grid over Bridgeport that lies inside the raw Belmont file', () => {
    const pts: [number, number][] = [];
    for (let lat = 40.055; lat <= 40.095; lat += 0.004) for (let lng = -80.78; lng <= -80.725; lng += 0.004) {
      // inside the raw file and its Bridgeport detailed study, where the build keeps its polygons (location.md "Mapped area")
      if (inside(belmont, lat, lng) && lng >= -80.7555 && lng <= -80.7311 && lat >= 40.0387 && lat <= 40.0851) pts.push([lat, lng]);
    }
    expect(pts.length).toBeGreaterThan(15);
    const wrong = pts.filter(([lat, lng]) => body(lat, lng)['state'] !== 'OH');
    expect(wrong).toEqual([]);
  });

  it('answers Cambridge and the Cambridge file\'s minimal hazard between Harvard and Inman Sq', () => {
    expect(inside(cambridge, 42.3736, -71.1097)).toBeUndefined(); // outside its floodplains, inside the city
    const b = body(42.3736, -71.1097);
    expect(b).toMatchObject({ city: 'Cambridge', state: 'MA', flood_zone: 'X', flood_risk_label: 'Minimal' });
    expect(String(b['flood_risk_notes'])).toMatch(/cambridge_ma_25017C_fld_haz_ar/);
  });
});
