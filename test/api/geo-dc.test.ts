// GET /v1/geo/lookup for the District of Columbia named as people name it ("DC", "Washington DC", "District of
// Columbia"): its one city, Washington (live/places/nicknames.ts CITY_NICKNAMES), the same answer as city=Washington. The
// District's place is checked against the raw Census gazetteer's DC places (Washington city is its only one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); });

describe('geo lookup of the District by its common names', () => {
  it('city=DC, D.C., Washington DC and District of Columbia in DC answer as city=Washington', async () => {
    const places = await rawQuery<{ n: string }>(`select "NAME" as n from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', all_varchar = true, delim = '|') where "USPS" = 'DC'`);
    expect(places.map((p) => p.n)).toEqual(['Washington city']);
    const want = await srv.get('/v1/geo/lookup?city=Washington&state=DC', key);
    expect(want.status).toBe(200);
    const body = await want.json() as { city_name: string; state_code: string };
    expect([body.city_name, body.state_code]).toEqual(['Washington', 'DC']);
    for (const name of ['DC', 'D.C.', 'dc', 'Washington DC', 'Washington, D.C.', 'District of Columbia']) {
      const r = await srv.get(`/v1/geo/lookup?city=${encodeURIComponent(name)}&state=DC`, key);
      expect(r.status, name).toBe(200);
      expect(await r.json(), name).toEqual(body);
    }
    // "DC" names no city of another state
    expect((await srv.get('/v1/geo/lookup?city=DC&state=WA', key)).status).toBe(404);
  });
});
