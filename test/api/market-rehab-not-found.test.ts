// The rehab score's 404 names its cause (review 17 #4: "No renovation data for zip 06820" said none), over HTTP on the
// shared real build: Sacramento 95823 (a one-week file, no permit source, no address sold twice) says what the trends'
// direction note says of it; NYC 10044 has a score at 5-24 months but its 3-month window holds fewer than 5 sales; a zip
// no source covers says so. The causes are the raw data's: 95823's raw rows hold no street address twice.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const message = async (q: string): Promise<[number, string]> => {
  const res = await srv.get(`/v1/market/rehab-score?${q}`, key);
  return [res.status, ((await res.json()) as { message: string }).message];
};

describe('rehab score 404: the cause', () => {
  test('no permit source and no repeat sale: the direction note\'s cause', async () => {
    const [twice] = await rawQuery<{ n: number }>(`select count(*)::int as n from (select street, count(*) as c
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      where zip = '95823' group by street having count(*) > 1 and count(distinct price) > 1)`);
    expect(twice!.n).toBe(0);
    // before: 'No renovation data for zip 95823'
    expect(await message('zip=95823&months=12')).toEqual([404, 'No renovation data for zip 95823: no building permit is recorded for this market and its sales records show no repeat sale or renovation year, so no rehab event could be seen: no rehab score can be computed']);
  });

  test('a window of fewer than 5 sales beside scored windows; a zip no source covers', async () => {
    const [status, msg] = await message('zip=10044&months=3');
    expect(status).toBe(404);
    expect(msg).toMatch(/^No rehab score for zip 10044 over the last 3 months: no building permit component covers the zip, and the window holds fewer than 5 residential arm's-length sales, too few for a rehab resale share \(minimum cohort 5\); the zip has a score over 5 to 24 months \(months=5\)$/);
    expect((await srv.get('/v1/market/rehab-score?zip=10044&months=5', key)).status).toBe(200);
    // Missoula, MT (a zip of the reference files; no source of the build is in Montana). A zip of no reference file is
    // outside coverage: zip-of-covered-county.test.ts
    expect(await message('zip=59801')).toEqual([404, 'No renovation data for zip 59801: no building permit source and no sales source of this build covers the zip (no permit or sale is recorded there), which says nothing of the renovations that happened']);
  });
});
