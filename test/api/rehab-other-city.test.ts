// The rehab 404 of a zip whose permits exist but are another city's (review 29: 60707, which Chicago shares with
// Elmwood Park, answered "no building permit source and no sales source of this build covers the zip (no permit or sale
// is recorded there)", though the Chicago file places 252 permits there in the 12 months). The rule
// (warehouse/docs/market.md int_market_zip_permits) keeps a permit whose zip is guessed from its point out of a zip of
// another city; the 404 now says so and counts them. The counts are recomputed here from the RAW Chicago permit file:
// each permit at the nearest Census Gazetteer internal point among the ZCTAs the City of Chicago overlaps (us_geo
// zcta_places, land > 0; coordinates rounded to 4 decimals, market.md "Zips guessed from coordinates"), its kind and
// its building's use by the documented rules (market.md "Residential rehab"), in this file's own SQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { chicagoZipPermits, type ChicagoZipCounts } from '../helpers/oracle-raw-chicago-zip.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

/** A zip's Chicago permits over the whole file and in the `months` to the file's last permit. */
async function chicagoPermits(zip: string, months: number): Promise<ChicagoZipCounts> {
  return (await chicagoZipPermits([months])).find((r) => r.zip === zip)!;
}

const message = async (q: string): Promise<[number, string]> => {
  const res = await srv.get(`/v1/market/rehab-score?${q}`, key);
  return [res.status, ((await res.json()) as { message: string }).message];
};

describe("rehab 404: a zip's permits that are another city's", () => {
  test.each([['60707', 'Elmwood Park', 12], ['60827', 'Riverdale', 12], ['60707', 'Elmwood Park', 6]] as const)(
    '%s (%s), %i months: the Chicago permits placed there, counted from the raw file, and why no score counts them', async (zip, city, months) => {
      const c = await chicagoPermits(zip, months);
      expect(c.all).toBeGreaterThan(50);
      const [status, msg] = await message(`zip=${zip}&months=${months}`);
      expect(status).toBe(404);
      // before: "no building permit source and no sales source of this build covers the zip (no permit or sale is recorded there)"
      expect(msg).toBe(`No renovation data for zip ${zip}: the Chicago building permits source (chicago) places ${c.n.toLocaleString('en-US')} building permits of Chicago `
        + `in the zip by their points (no zip recorded: the nearest Census ZCTA of the permit's city) in its whole file, ${c.first} to ${c.last}; `
        + `${c.all} of them fall in the ${months} months to ${c.last}, the window a score counts, ${c.types} of them renovation, addition or repair permits, ${c.res} of those on residential buildings; `
        + `but the zip's city is ${city}, IL, and a permit whose zip is guessed counts only in a zip of its own city (a rate per the zip's homes would divide Chicago's permits by ${city}'s), `
        + 'so no permit component; and no sales source of this build covers the zip, so no rehab resale share: no rehab score can be computed');
    });
});
