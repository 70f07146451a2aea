// GET /v1/market/comps over a window its sales records do not cover (review 9 #3, warehouse/docs/market.md "Coverage
// of a window"): Sacramento's file holds one week (2008-05-15..21, read from the raw file), so months=3 and months=24
// answered the same 60 comps, 'high', with nothing saying the data starts on 2008-05-15. Now the answers differ by
// their coverage and note, and neither is above low confidence. A real server over the shared build.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Comps { sample_count: number | null; confidence: string; as_of: string; note: string | null;
  coverage?: { window_start: string; window_end: string; window_days: number; records_start: string | null; records_end: string | null; records_days: number } }

let srv: TestServer;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
afterAll(async () => { await srv.close(); });

test('Sacramento 95823 sfr: months=3 and months=24 say how much of the window the records cover, and are low confidence', async () => {
  const [raw] = await rawQuery<{ lo: string; hi: string }>(`select min(sale_date_iso)::varchar as lo, max(sale_date_iso)::varchar as hi
    from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)`);
  const key = srv.key('builder');
  const get = async (months: number): Promise<Comps> => {
    const res = await srv.get(`/v1/market/comps?zip=95823&property_type=sfr&months=${months}`, key);
    expect(res.status).toBe(200);
    return (await res.json()) as Comps;
  };
  const [m3, m24] = [await get(3), await get(24)];
  expect(m24).not.toEqual(m3);
  const day = (d: string): number => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
  for (const [months, a] of [[3, m3], [24, m24]] as const) {
    const c = a.coverage!;
    // the window asked: its last day the zip's latest sale, its first the day after the same date `months` earlier
    const start = new Date(Date.parse(`${c.window_end}T00:00:00Z`));
    start.setUTCMonth(start.getUTCMonth() - months);
    start.setUTCDate(start.getUTCDate() + 1);
    expect(c.window_start, `${months}`).toBe(start.toISOString().slice(0, 10));
    expect(c.window_days).toBe(day(c.window_end) - day(c.window_start) + 1);
    expect([c.records_start, c.records_end, c.records_days]).toEqual([raw!.lo, raw!.hi, day(raw!.hi) - day(raw!.lo) + 1]);
    expect(a.note).toMatch(new RegExp(`^sales records cover ${raw!.lo} to ${raw!.hi} only, 7 of the ${c.window_days} days asked(; |$)`));
    expect([a.sample_count, a.confidence]).toEqual([60, 'low']);
  }
  expect([m3.coverage!.window_days, m24.coverage!.window_days]).toEqual([90, 731]);
});
