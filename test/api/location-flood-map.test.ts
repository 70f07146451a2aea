// A zip outside every loaded FEMA flood map has flood_zone D with the spec's label "Moderate", a risk level no map
// assessed (review 18: 33139 Miami Beach, 98103 Seattle, 11201 Brooklyn). The answer adds `flood_map_loaded` (false
// there, true inside a loaded map) and the research answer's flood fact says the zone is undetermined instead of "is in
// flood zone D". Over HTTP on the shared real build; the loaded maps are the raw FEMA folder's files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro', 100_000); });
afterAll(() => srv.close());

describe('a zip no loaded FEMA flood map covers', () => {
  test('33139, 98103, 11201: flood_map_loaded false; Cambridge MA 02139, inside the loaded Middlesex map: true', async () => {
    // raw: the only FEMA flood files are Belmont County, OH and Middlesex County (Cambridge), MA
    const maps = fs.readdirSync(path.join(SHARED_DATA, 'fema-nfhl-flood-zones')).filter((f) => f.endsWith('.geojson'));
    expect(maps).toEqual(['belmont_county_oh_39013_fld_haz_ar_dissolved.geojson', 'cambridge_ma_25017C_fld_haz_ar.geojson']);
    for (const zip of ['33139', '98103', '11201']) {
      const res = await srv.get(`/v1/location/risk?zip=${zip}`, key);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      // before: no flood_map_loaded; flood_zone D, label Moderate and nothing but the notes to say no map was read
      expect(body, zip).toMatchObject({ flood_zone: 'D', flood_map_loaded: false });
      expect(schemaErrors('LocationRisk', body), zip).toEqual([]);
    }
    const cambridge = (await (await srv.get('/v1/location/risk?zip=02139', key)).json()) as Record<string, unknown>;
    expect(cambridge['flood_map_loaded']).toBe(true);
    expect(cambridge['flood_zone']).not.toBe('D');
    const point = (await (await srv.get('/v1/location/risk?lat=25.79&lng=-80.13', key)).json()) as Record<string, unknown>;
    expect(point).toMatchObject({ flood_zone: 'D', flood_map_loaded: false });
  });

  test('the research answer: "no FEMA flood map is loaded for this zip, so its flood zone is undetermined (FEMA zone D)"', async () => {
    for (const zip of ['33139', '98103', '11201']) {
      const res = await srv.post('/v1/research/query', { query: `what flood zone is zip ${zip} in?` }, key);
      expect(res.status).toBe(200);
      const { answer } = (await res.json()) as { answer: string };
      expect(answer, zip).toContain(`: no FEMA flood map is loaded for this zip, so its flood zone is undetermined (FEMA zone D)`);
      // before: 'Zip 33139 (Miami Beach, FL) is in flood zone D (undetermined: no FEMA flood map was loaded for this area)'
      expect(answer, zip).not.toMatch(/is in flood zone D/);
    }
  });
});
