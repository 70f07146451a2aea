// The Belmont County, OH flood file studies only the Bridgeport area (warehouse/docs/location.md "Mapped area",
// detailed-study extent): its A, AE and floodway polygons all lie there, read here from the RAW GeoJSON, and the rest of
// the county is one "minimal" polygon. Bellaire, Martins Ferry, Shadyside and Powhatan Point answered X / Minimal
// (medium) as if studied; now they answer unmapped (D, low).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bbox } from '@turf/turf';
import { serveSharedBuild } from '../../helpers/build.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';

const FILE = path.join(SHARED_DATA, 'fema-nfhl-flood-zones', 'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson');
const EXTENT = [-80.7555, 40.0387, -80.7311, 40.0851];
const OUTSIDE = [['43906', 'Bellaire'], ['43935', 'Martins Ferry'], ['43947', 'Shadyside'], ['43942', 'Powhatan Point']];

describe('Belmont County flood: mapped only around Bridgeport', () => {
  const api = serveSharedBuild('starter', 1000);

  it('the raw file studies floodplains only inside the extent', () => {
    const doc = JSON.parse(fs.readFileSync(FILE, 'utf8')) as { features: { properties: Record<string, string | null>; geometry: never }[] };
    const studied = doc.features.filter((f) => !/MINIMAL/i.test(f.properties['ZONE_SUBTY'] ?? f.properties['zone_subty'] ?? ''));
    expect(studied.length).toBeGreaterThan(0);
    for (const f of studied) {
      const [w, s, e, n] = bbox({ type: 'Feature', properties: {}, geometry: f.geometry });
      expect(w).toBeGreaterThanOrEqual(EXTENT[0]! - 1e-9);
      expect(s).toBeGreaterThanOrEqual(EXTENT[1]! - 1e-9);
      expect(e).toBeLessThanOrEqual(EXTENT[2]! + 1e-9);
      expect(n).toBeLessThanOrEqual(EXTENT[3]! + 1e-9);
    }
  });

  it('zips of the county outside it answer unmapped (D) with low confidence, not X / Minimal', async () => {
    for (const [zip, name] of OUTSIDE) {
      const r = await api.get(`/v1/location/risk?zip=${zip}`);
      expect(r.status, name).toBe(200);
      const b = (await r.json()) as { city: string; flood_zone: string; flood_risk_label: string; confidence: string };
      expect(b.city, zip).toBe(name);
      expect(b.flood_zone, name).toBe('D');
      expect(b.confidence, name).toBe('low');
    }
  });
});
