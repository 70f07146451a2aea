// GET /v1/market/comps over a thin extract (review 15 F4; warehouse/docs/market.md "Coverage of a window", thin
// extracts): Windsor, CT 06095's zip-keyed sales come only from Connecticut's head-of-file extract, which never holds a
// quarter of its source's busiest month (the raw files: the 2022 extract's busiest month against the head-of-file's
// months), while the 2022 extract records hundreds of Windsor sales in the window with no zip. The answer said "no
// arm's-length sale of this type in the window" with records_days 365 of 365; now it says the window is covered by no
// file whole and that the zip's sales come from a partial extract, at low confidence.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Comps { confidence: string; coverage: { window_start: string; window_end: string; window_days: number; records_start: string | null; records_end: string | null; records_days: number }; note: string | null }

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(async () => { await srv.close(); });

const CT = (file: string): string => `read_csv('${dataFile(`connecticut-real-estate-sales/${file}`)}', all_varchar = true)`;

describe('comps of a zip whose sales come from a thin extract', () => {
  test('Windsor, CT 06095, 12 months: no day covered whole, the partial extract said, low confidence', async () => {
    // the head-of-file extract's busiest month statewide against the 2022 extract's (every row of $10,000 or more)
    const [vol] = await rawQuery<{ head: number; y2022: number }>(`
      with h as (select date_trunc('month', strptime("Date Recorded", '%m/%d/%Y')) as m, count(*) as n from ${CT('Real_Estate_Sales_2001-2022_GL.head9999.csv.gz')}
                 where try_cast(replace("Sale Amount", ',', '') as double) >= 10000 group by 1),
           y as (select date_trunc('month', strptime("Date Recorded", '%m/%d/%Y')) as m, count(*) as n from ${CT('real_estate_sales_2022-01_2022-09_listyear2021.csv.gz')}
                 where try_cast(replace("Sale Amount", ',', '') as double) >= 10000 group by 1)
      select (select max(n) from h)::int as head, (select max(n) from y)::int as y2022`);
    expect(vol!.head).toBeLessThan(0.25 * vol!.y2022);

    const res = await srv.get('/v1/market/comps?zip=06095&months=12', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Comps;
    expect(schemaErrors('CompsSummary', body)).toEqual([]);
    // Windsor's residential sales of the window in the 2022 extract, which gives no zip
    const [windsor] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${CT('real_estate_sales_2022-01_2022-09_listyear2021.csv.gz')}
      where "Town" = 'Windsor' and "Property Type" = 'Residential' and try_cast(replace("Sale Amount", ',', '') as double) >= 10000
        and strptime("Date Recorded", '%m/%d/%Y')::date > date '${body.coverage.window_start}'`);
    expect(windsor!.n).toBeGreaterThan(300);
    expect(body.coverage).toMatchObject({ window_days: 365, records_start: null, records_end: null, records_days: 0 });
    expect(body.confidence).toBe('low');
    expect(body.note).toMatch(/^sales records cover none of the 365 days asked whole: the zip's sales in the window come from a partial extract of their source, under a quarter of its busiest month's sales a month, not every recorded sale/);
  });
});
