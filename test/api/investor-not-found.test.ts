// The investor overview's 404 of a city the build knows says why, as the trends' does (h25): it read "No investor data
// for <city>" alone, for a city whose records are all flagged, a city of a county a sales source covers (Skykomish:
// zip-of-covered-county.test.ts) and a city no sales or filing source covers. And a city only a flagged sale names
// (Sloughhouse, CA: not a Census place) was told "no city of that name in CA is known to this build", though the
// Sacramento file names it. Over HTTP on the shared build; the records recounted from the raw files.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, statusAndMessage, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { NASHVILLE } from '../helpers/oracle-raw-permits.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const message = (path: string): Promise<[number, string]> => statusAndMessage(srv, path, key);

describe('investor overview and trends 404 of a city the build knows', () => {
  test('Sloughhouse, CA: its one sale record is nominal, flagged; both answers name the source and the flag', async () => {
    const rows = await rawQuery<{ price: string }>(`select price from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      where upper(trim(city)) = 'SLOUGHHOUSE'`);
    // one record, under the $10,000 nominal floor (warehouse/docs/market.md "Arm's-length rule")
    expect(rows.map((r) => Number(r.price) < 10_000)).toEqual([true]);
    const flagged = "The Sacramento real estate transactions (May 2008) source (sacramento) covers Sloughhouse, CA, but its 1 sale record there is flagged not arm's-length (nominal price: 1), and the market endpoints count arm's-length sales only";
    // before: "No investor data for Sloughhouse, CA: no city of that name in CA is known to this build" (trends the same)
    expect(await message('/v1/market/investor-overview?city=Sloughhouse&state=CA')).toEqual([404, `${flagged}: no investor data`]);
    expect(await message('/v1/market/trends?city=Sloughhouse&state=CA')).toEqual([404, `${flagged}: no sfr sales`]);
  });

  test('Nashville, TN: permits recorded, but no sale or filing, which are what the overview counts', async () => {
    const [permits] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${NASHVILLE}`);
    expect(permits!.n).toBeGreaterThan(0);
    // the build's filing files are Louisville's (KY) and Allegheny County's (PA), its sales files of no Tennessee market
    // before: "No investor data for Nashville, TN"
    expect(await message('/v1/market/investor-overview?city=Nashville&state=TN')).toEqual([404,
      'No investor data for Nashville, TN: no sales source and no distress filing source of this build covers it (no sale or filing is recorded there: its sales and filing sources are county and city files of other markets), which says nothing of the investors active there']);
  });

  test('an unknown name keeps its hint', async () => {
    expect(await message('/v1/market/investor-overview?city=Zzqx&state=WA')).toEqual([404, 'No investor data for Zzqx, WA: no city of that name in WA is known to this build']);
  });
});
