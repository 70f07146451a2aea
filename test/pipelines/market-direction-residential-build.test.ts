// The 30-day direction's rehab resales are the rehab score's: residential sales only (warehouse/macros.sql
// is_rehab_resale; warehouse/docs/market.md "mart_market_direction"). Before h27 the direction counted a store's, an
// office's or a vacant lot's quick resale at a gain as a rehab event while the score's resale share counted homes only.
// NYC's file types every row by its BUILDING CLASS CATEGORY (01-04 one to three family homes and tax class 1 condos,
// 07-17 rentals, co-ops and condos; 05 vacant land, 06 garages, 21-49 offices, stores, lofts: SOURCE.md), read here
// from the RAW files (the row found by its file and line, its price checked), the resale gain from the raw price
// against the build's pairing of a lot's consecutive arm's-length sales (int_market_resales, its own tests), over the
// shared real build (REII_TEST_ARTIFACTS), and the served rehab and trends answers compared with it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const warehouse = (): string => path.join(buildDir(), 'warehouse.duckdb').replaceAll("'", "''");
const FILES = ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz'];
const RESIDENTIAL = ['01', '02', '03', '04', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17'];

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

interface Zip { zip: string; end: string; last_res: number; prior_res: number; last_all: number; prior_all: number; last: number; prior: number; price_ok: boolean }

/** Per NYC zip market of the direction: the quick resales at a gain (1 to 365 days after the purchase, at 10% or more
 *  over it) in the 30 days to its window end and the 30 before, residential ones by the raw category, and all of them. */
const nycZips = (): Promise<Zip[]> => rawQuery<Zip>(`attach '${warehouse()}' as wh (read_only);
  with raw as (${FILES.map((f) => `
    select '${f}' as file, row_number() over () + 1 as line, left("BUILDING CLASS CATEGORY", 2) as cat,
           try_cast(replace("SALE PRICE", ',', '') as double) as price
    from read_csv('${dataFile(`nyc-rolling-sales/${f}`)}', all_varchar = true)`).join(' union all ')}),
  s as (select s.sale_id, s.zip, s.sale_date, s.sale_price, r.cat, r.price from wh.sales s
        join raw r on s.file like '%' || r.file and r.line = s.line where s.source = 'nyc' and s.is_arms_length),
  q as (select s.*, s.cat in (${RESIDENTIAL.map((c) => `'${c}'`).join(', ')}) as res,
               coalesce(date_diff('day', p.purchase_date, s.sale_date) between 1 and 365 and p.purchase_price > 0
                        and s.price >= 1.10 * p.purchase_price, false) as quick
        from s left join wh.int_market_resales p using (sale_id)),
  d as (select zip, window_end as e, events_last_30d, events_prior_30d from wh.mart_market_direction
        where market_kind = 'zip' and zip in (select zip from s))
  select d.zip, strftime(d.e, '%Y-%m-%d') as end,
         count(*) filter (where quick and res and sale_date > d.e - 30 and sale_date <= d.e)::int as last_res,
         count(*) filter (where quick and res and sale_date > d.e - 60 and sale_date <= d.e - 30)::int as prior_res,
         count(*) filter (where quick and sale_date > d.e - 30 and sale_date <= d.e)::int as last_all,
         count(*) filter (where quick and sale_date > d.e - 60 and sale_date <= d.e - 30)::int as prior_all,
         any_value(d.events_last_30d)::int as last, any_value(d.events_prior_30d)::int as prior,
         coalesce(bool_and(price is not distinct from sale_price), true) as price_ok
  from d left join q using (zip) group by all order by 1`);

/** New York City's market (every NYC sale, city 'new-york'), counted as nycZips counts a zip. */
const nycCity = (): Promise<Omit<Zip, 'zip' | 'price_ok'>[]> => rawQuery(`attach '${warehouse()}' as wh (read_only);
  with raw as (${FILES.map((f) => `
    select '${f}' as file, row_number() over () + 1 as line, left("BUILDING CLASS CATEGORY", 2) as cat,
           try_cast(replace("SALE PRICE", ',', '') as double) as price
    from read_csv('${dataFile(`nyc-rolling-sales/${f}`)}', all_varchar = true)`).join(' union all ')}),
  q as (select s.sale_date, r.cat in (${RESIDENTIAL.map((c) => `'${c}'`).join(', ')}) as res,
               coalesce(date_diff('day', p.purchase_date, s.sale_date) between 1 and 365 and p.purchase_price > 0
                        and r.price >= 1.10 * p.purchase_price, false) as quick
        from wh.sales s join raw r on s.file like '%' || r.file and r.line = s.line
        left join wh.int_market_resales p using (sale_id) where s.source = 'nyc' and s.is_arms_length),
  d as (select window_end as e, events_last_30d, events_prior_30d from wh.mart_market_direction
        where market_kind = 'city' and state_code = 'NY' and city_slug = 'new-york')
  select strftime(any_value(d.e), '%Y-%m-%d') as end,
         count(*) filter (where quick and res and sale_date > d.e - 30 and sale_date <= d.e)::int as last_res,
         count(*) filter (where quick and res and sale_date > d.e - 60 and sale_date <= d.e - 30)::int as prior_res,
         count(*) filter (where quick and sale_date > d.e - 30 and sale_date <= d.e)::int as last_all,
         count(*) filter (where quick and sale_date > d.e - 60 and sale_date <= d.e - 30)::int as prior_all,
         any_value(d.events_last_30d)::int as last, any_value(d.events_prior_30d)::int as prior
  from d, q`);

const pct = (last: number, prior: number): number => Math.round((1000 * (last - prior)) / Math.max(prior, 1)) / 10;

describe('the 30-day direction counts residential rehab resales, as the rehab score (NYC, raw files)', () => {
  test("every NYC zip's events are its residential quick resales at a gain; the served rehab and trends answers say them", async () => {
    const zips = await nycZips();
    expect(zips.length).toBeGreaterThan(150);
    // the raw row found by file and line is the sale's own (its price)
    expect(zips.filter((z) => !z.price_ok).map((z) => z.zip)).toEqual([]);
    expect(zips.filter((z) => z.last !== z.last_res || z.prior !== z.prior_res)
      .map((z) => `${z.zip} to ${z.end}: raw residential ${z.last_res} vs ${z.prior_res}, mart ${z.last} vs ${z.prior}`)).toEqual([]);
    // before, a land or commercial lot's quick resale counted too: the zips whose windows hold one (the files' last 60
    // days, to 2024-02-29; 11222 read 4 events against 0 where 2 are homes')
    const moved = zips.filter((z) => z.last_all !== z.last_res || z.prior_all !== z.prior_res);
    expect(moved.map((z) => `${z.zip}: ${z.last_all} vs ${z.prior_all} -> ${z.last_res} vs ${z.prior_res}`))
      .toEqual(['11101: 1 vs 1 -> 0 vs 0', '11222: 4 vs 0 -> 2 vs 0', '11411: 1 vs 0 -> 0 vs 0']);
    // the served answers: the rehab score's trend and the zip's trends summary (every type's: the market's direction)
    let served = 0;
    for (const z of moved) {
      const want = pct(z.last_res, z.prior_res);
      const res = await srv.get(`/v1/market/rehab-score?zip=${z.zip}&months=24`, key);
      if (res.status === 200) {
        const rehab = await res.json() as { trend_pct: number; trend_end: string };
        expect([z.zip, rehab.trend_end, rehab.trend_pct]).toEqual([z.zip, z.end, want]);
        served++;
      }
      for (const type of ['sfr', 'condo']) {
        const t = await srv.get(`/v1/market/trends?zip=${z.zip}&months=12&property_type=${type}`, key);
        if (t.status !== 200) continue;
        const trends = await t.json() as { summary: { direction_30d_pct: number; direction_30d_end: string } };
        expect([z.zip, type, trends.summary.direction_30d_end, trends.summary.direction_30d_pct]).toEqual([z.zip, type, z.end, want]);
        served++;
      }
    }
    expect(served).toBeGreaterThan(2);
  });

  test('New York City: its events are its residential quick resales at a gain; the served trends say them', async () => {
    const [c] = await nycCity();
    // before: 62 against 68 (down -8.8%), a store's or a lot's resale among them
    expect(c).toEqual({ ...c, last: c!.last_res, prior: c!.prior_res });
    expect([c!.last_all, c!.prior_all, c!.last_res, c!.prior_res]).toEqual([62, 68, 58, 67]);
    const res = await srv.get('/v1/market/trends?city=New%20York&state=NY&months=12&property_type=condo', key);
    expect(res.status).toBe(200);
    const t = await res.json() as { summary: { direction_30d: string; direction_30d_pct: number; direction_30d_end: string } };
    const want = pct(c!.last_res, c!.prior_res);
    expect(t.summary).toMatchObject({ direction_30d_end: c!.end, direction_30d_pct: want, direction_30d: want > 5 ? 'up' : want < -5 ? 'down' : 'flat' });
  });
});
