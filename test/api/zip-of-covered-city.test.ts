// A zip no sales source records a sale in, inside a city one does (review 23 #2): Denver's 80205 and Seattle's 98101
// were told "its sales sources are county and city files of other markets", false of both. The 404 now names the city's
// source and says why the zip has none: Denver's files carry no zip code at all (their raw headers hold no zip column),
// King County's records none in 98101 (its raw rows hold no 98101), with the city to ask. Over HTTP on the shared build.
import zlib from 'node:zlib';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, statusAndMessage, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const message = (path: string): Promise<[number, string]> => statusAndMessage(srv, path, key);
const NUMBER = '\\d{1,3}(?:,\\d{3})*';

describe('a zip of a covered city with no sale of its own', () => {
  test("Denver 80205: the source's records carry no zip code, so comps, trends and rehab say so and name the city", async () => {
    for (const f of ['real_property_sales_and_transfers_2018-2019.csv.gz', 'sales_with_residential_characteristics_2018-2019.csv.gz']) {
      const header = zlib.gunzipSync(fs.readFileSync(dataFile(`denver-real-property-sales/${f}`))).toString('utf8').split('\n', 1)[0]!;
      expect(header.split(',').filter((c) => /zip|postal/i.test(c)), f).toEqual([]);
    }
    const denver = `the Denver real property sales and transfers 2018-2019 source \\(denver\\) records ${NUMBER} arm's-length sales in Denver, CO, the zip's city, but its records carry no zip code, so no zip of Denver has sales of its own`;
    for (const [path, what] of [['/v1/market/comps?zip=80205&property_type=sfr', 'sfr sales to compare'], ['/v1/market/trends?zip=80205&property_type=sfr', 'sfr sales']] as const) {
      const [status, msg] = await message(path);
      expect(status, path).toBe(404);
      // before: "No sales source covers zip 80205: ... (its sales sources are county and city files of other markets)"
      // before: "; ask for the city instead (city=Denver&state=CO)", which comps take no city for (a 400)
      expect(msg, path).toMatch(new RegExp(`^No ${what} for zip 80205: ${denver}; ask for the city's trends or investor overview instead \\(city=Denver&state=CO; comps are by zip only\\)$`));
    }
    expect((await message('/v1/market/comps?city=Denver&state=CO'))[0]).toBe(400);
    expect((await srv.get('/v1/market/investor-overview?city=Denver&state=CO', key)).status).toBe(200);
    const [status, rehab] = await message('/v1/market/rehab-score?zip=80205&months=12');
    expect(status).toBe(404);
    expect(rehab).toMatch(new RegExp(`^No renovation data for zip 80205: ${denver}; and no building permit source covers the zip: no rehab score can be computed$`));
    // the city answers
    expect((await srv.get('/v1/market/trends?city=Denver&state=CO&property_type=sfr', key)).status).toBe(200);
  });

  test('Seattle 98101: King County records Seattle sales, none with this zip', async () => {
    const [kc] = await rawQuery<{ here: number; near: number }>(`select count(*) filter (where zipcode = '98101')::int as here, count(*) filter (where zipcode = '98103')::int as near
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    expect(kc!.here).toBe(0);
    expect(kc!.near).toBeGreaterThan(0);
    const [status, msg] = await message('/v1/market/comps?zip=98101&property_type=sfr');
    expect(status).toBe(404);
    expect(msg).toMatch(new RegExp(`^No sfr sales to compare for zip 98101: the King County WA house sales 2014-2015 source \\(king_county\\) records ${NUMBER} arm's-length sales in Seattle, WA, the zip's city, but none of them is recorded in this zip; ask for the city's trends or investor overview instead \\(city=Seattle&state=WA; comps are by zip only\\)$`));
  });

  test('a zip of no covered city keeps the no-source answer', async () => {
    const [status, msg] = await message('/v1/market/comps?zip=59801&property_type=sfr');
    expect(status).toBe(404);
    expect(msg).toContain('No sales source covers zip 59801');
  });
});
