// A Connecticut city's geo lookup lists its town's zips too (warehouse/docs/geo.md "Zip codes"; review: Greenwich's
// lookup listed the Greenwich CDP's 06830, 06831, 06836 while the town's sales are also in 06807 Cos Cob, 06870 Old
// Greenwich and 06878 Riverside, which warehouse/docs/market.md names as Greenwich's). The market's rule: a town's ZCTAs
// are those whose primary county subdivision (us_geo zctas.csv) is the town's, the one holding the ZCTA whose USPS city
// is the town's name. Expected figures come from the raw us_geo file through the test's own SQL; no mart is read.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { RawGeo, sqlPath } from '../helpers/oracle-geo.ts';

let srv: TestServer;
let key: string;
let geo: RawGeo;

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 10_000);
  geo = await RawGeo.open();
});
afterAll(async () => {
  await srv?.close();
  geo?.close();
});

const ZCTAS = `read_csv('${sqlPath('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true)`;

/** The ZCTAs of the county subdivision that holds the given ZCTA (its primary county subdivision). */
async function townZctas(zcta: string): Promise<string[]> {
  const rows = await geo.rows<{ z: string }>(`
    select ZCTA5 as z from ${ZCTAS}
    where "Primary County Subdivision" = (select "Primary County Subdivision" from ${ZCTAS} where ZCTA5 = '${zcta}')
    order by 1`);
  return rows.map((r) => r.z);
}

describe("a Connecticut town's geo lookup lists the zips the market assigns to the town", () => {
  test('Greenwich, CT: the town of 06830 holds 06807, 06870, 06878, and the lookup lists every one', async () => {
    const town = await townZctas('06830');
    expect(town).toEqual(expect.arrayContaining(['06807', '06830', '06870', '06878']));
    const res = await srv.get('/v1/geo/lookup?city=Greenwich&state=CT', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { zip_codes: string[] };
    expect(body.zip_codes).toEqual(expect.arrayContaining(town));
  });
});
