// A market whose sales records are all flagged not arm's-length is covered by its source, not uncovered (review 18:
// zip 06779, Watertown CT, answered "No sales source covers zip 06779: this build has no sales records there" over its
// one land sale flagged by the CT non-use code). Over HTTP on the shared real build; the records and the reason are the
// raw files' (the CT list's Non Use Code, NYC's $0-$1 prices); the zip of the CT record is the build's town rule.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const message = async (q: string): Promise<[number, string]> => {
  const res = await srv.get(q, key);
  return [res.status, ((await res.json()) as { message: string }).message];
};
const NYC = ['nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz'];

describe("a zip whose sales records are all flagged", () => {
  test('06779 (Watertown CT): one land sale flagged by its non-use code; comps, trends and rehab say so', async () => {
    const raw = await rawQuery<{ n: number; code: string; amount: string }>(`select count(*)::int as n, any_value("Non Use Code") as code, any_value("Sale Amount") as amount
      from read_csv('${dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz')}', all_varchar = true)
      where "Town" = 'Watertown' and "Address" = '0 PULLEN AVE'`);
    expect(raw[0]).toMatchObject({ n: 1, code: '17 - Two Towns', amount: '75000.00' });
    const flagged = "The Connecticut OPM real estate sales (partial) source (connecticut) covers zip 06779, but its 1 sale record there is flagged not arm's-length (non use code: 1), and the market endpoints count arm's-length sales only";
    // before: 'No sales source covers zip 06779: this build has no sales records there ...'
    expect(await message('/v1/market/comps?zip=06779&property_type=sfr&months=12')).toEqual([404, `${flagged}: no sfr sales to compare`]);
    expect(await message('/v1/market/trends?zip=06779&property_type=sfr')).toEqual([404, `${flagged}: no sfr sales`]);
    const [status, rehab] = await message('/v1/market/rehab-score?zip=06779');
    expect(status).toBe(404);
    expect(rehab).toBe(`No renovation data for zip 06779: no building permit source covers the zip, and t${flagged.slice(1)}: no rehab resale share (minimum cohort 5 sales)`);
    expect(rehab).not.toMatch(/no permit or sale is recorded/);
  });

  test('10041 and 11695 (NYC): every record at a nominal price', async () => {
    const raw = await rawQuery<{ z: string; n: number; nominal: number }>(`select "ZIP CODE" as z, count(*)::int as n,
        count(*) filter (where try_cast(replace("SALE PRICE", ',', '') as double) <= 10000)::int as nominal
      from read_csv([${NYC.map((f) => `'${dataFile(f)}'`).join(', ')}], all_varchar = true) where "ZIP CODE" in ('10041', '11695') group by all order by 1`);
    expect(raw).toEqual([{ z: '10041', n: 15, nominal: 15 }, { z: '11695', n: 1, nominal: 1 }]);
    for (const { z, n } of raw) {
      const [status, msg] = await message(`/v1/market/comps?zip=${z}&property_type=condo&months=24`);
      expect(status).toBe(404);
      expect(msg).toBe(`The NYC DOF rolling sales source (nyc) covers zip ${z}, but ${n === 1 ? 'its 1 sale record there is' : `all ${n} of its sale records there are`} flagged not arm's-length (nominal price: ${n}), and the market endpoints count arm's-length sales only: no condo sales to compare`);
    }
  });

  test('a zip no source records a sale in keeps the uncovered 404', async () => {
    // (a real zip of a county no source covers: 00001 is in no reference file, outside coverage since review 24 C)
    const [status, msg] = await message('/v1/market/comps?zip=59801&property_type=sfr&months=12');
    expect(status).toBe(404);
    expect(msg).toMatch(/^No sales source covers zip 59801: this build has no sales records there/);
  });
});
