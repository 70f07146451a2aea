// F7: New York City's co-op apartments are no condos (warehouse/docs/market.md "Co-ops"), over the shared real build
// (REII_TEST_ARTIFACTS) against the raw rolling sales files:
// - every row of building class categories 09 and 10 (COOPS - WALKUP / ELEVATOR APARTMENTS) and 17 (CONDO COOPS) is a
//   'coop' sale, and no other row is;
// - Queens' February 2024 condo figures (GET /v1/market/trends) are its condominium sales only: before, 326 sales at a
//   median of $370,000, which were the condo and co-op rows of the raw file together (226 co-ops at $315,000);
// - a New York zip's condo comps note counts the co-op sales of the window it leaves out.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The raw rows: category code, the unit a row names (apartment column, else the street's part after the comma), whether
 *  the lot sold under two or more units in the files, and the sale's identity (lot, street line, apartment). */
const RAW = `(select *, count(distinct unit) over (partition by b, blk, lot) as lot_units from (
  select trim("BOROUGH") as b, trim("BLOCK") as blk, trim("LOT") as lot, left(trim("BUILDING CLASS CATEGORY"), 2) as cat,
         coalesce(nullif(upper(trim("APARTMENT NUMBER")), ''), nullif(upper(trim(split_part("ADDRESS", ',', 2))), '')) as unit,
         trim("BOROUGH") || '-' || trim("BLOCK") || '-' || trim("LOT") || '|' || upper(trim("ADDRESS")) || '|' || upper(coalesce(trim("APARTMENT NUMBER"), '')) as prop,
         trim("ZIP CODE") as zip, try_cast("SALE DATE" as date) as d, try_cast(replace("SALE PRICE", ',', '') as double) as price
  from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)))`;

/** market.md's NYC types of a raw row: co-op, condominium (its classes, a billing lot's row naming an apartment, a rental
 *  building's row naming a unit of a lot sold under two or more units), else other. */
const TYPE = `case when cat in ('09', '10', '17') then 'coop'
  when cat in ('04', '12', '13', '15', '16') or (cat = '11' and regexp_matches(coalesce(unit, ''), '[0-9]'))
       or (cat in ('02', '03', '07', '08', '14') and unit is not null and lot_units >= 2) then 'condo' else 'other' end`;

/** The raw arm's-length sales (market.md "Arm's-length rule", NYC: over $10,000; no portfolio deed: two or more
 *  properties of one block, day and price, or of one borough at a price no multiple of $500 nor $1 under one of $1,000;
 *  one copy of a sale recorded twice) with their type. */
const ARMS = `(select *, ${TYPE} as t from (
  select *, count(distinct prop) over (partition by b, blk, d, price) >= 2
            or (price % 500 <> 0 and (price + 1) % 1000 <> 0 and count(distinct prop) over (partition by b, d, price) >= 2) as portfolio,
         row_number() over (partition by prop, d, price) as copy
  from ${RAW} where price > 10000 and d is not null) where not portfolio and copy = 1)`;

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(async () => { await srv.close(); });

describe('F7: NYC co-ops are not condos', () => {
  test("categories 09, 10 and 17 are the 'coop' sales, all of them and no other", async () => {
    const [raw] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${RAW} where cat in ('09', '10', '17') and d is not null and price >= 0`);
    const built = await warehouseRows<{ coop_cat: boolean; property_type: string; n: number }>(`
      select left(g.building_class_category, 2) in ('09', '10', '17') as coop_cat, s.property_type, count(*)::int as n
      from sales s join stg_nyc__sales g on g.file = s.file and g.row_number + 1 = s.line
      where s.source = 'nyc' and (s.property_type = 'coop' or left(g.building_class_category, 2) in ('09', '10', '17')) group by all order by all`);
    expect(built).toEqual([{ coop_cat: true, property_type: 'coop', n: raw!.n }]);
    expect(raw!.n).toBe(36_566); // 5,626 + 28,338 + 2,602 rows (SOURCE.md's two files)
  });

  test("Queens' February 2024 condo month: its condominium sales only, the co-ops left out", async () => {
    const raw = await rawQuery<{ t: string; n: number; median: number }>(`
      select t, count(*)::int as n, median(price) as median from ${ARMS} where b = '4' and strftime(d, '%Y-%m') = '2024-02'
      group by grouping sets ((t), ()) having t is distinct from 'other' order by t nulls last`);
    const [condo, coop] = [raw.find((r) => r.t === 'condo')!, raw.find((r) => r.t === 'coop')!];
    // the co-ops are most of what the condo month counted before, and much cheaper
    expect([coop.n, coop.median]).toEqual([226, 315_000]);
    const [both] = await rawQuery<{ n: number; median: number }>(`
      select count(*)::int as n, median(price) as median from ${ARMS} where b = '4' and strftime(d, '%Y-%m') = '2024-02' and t <> 'other'`);
    expect([both!.n, both!.median]).toEqual([326, 370_000]); // the build's answer before F7
    const res = await srv.get('/v1/market/trends?city=Queens&state=NY&property_type=condo&months=12', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { series: { month: string; sales_count: number; median_price: number }[] };
    const feb = body.series.find((m) => m.month === '2024-02')!;
    expect([feb.sales_count, feb.median_price]).toEqual([condo.n, Math.round(condo.median)]); // the API's whole dollars
  });

  test("a zip's condo comps note counts the window's co-op sales it leaves out", async () => {
    // zip 11375 (Forest Hills, Queens): the 12 months to its last arm's-length sale
    const [w] = await warehouseRows<{ window_start: string; window_end: string; note: string }>(`
      select cast(window_start as varchar) as window_start, cast(window_end as varchar) as window_end, note
      from mart_comps where zip = '11375' and property_type = 'condo' and months = 12`);
    const [raw] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${ARMS}
      where zip = '11375' and t = 'coop' and d > date '${w!.window_start}' and d <= date '${w!.window_end}'`);
    expect(raw!.n).toBeGreaterThan(100);
    expect(w!.note).toContain(`${raw!.n} arm's-length co-op apartment sales in the window are not counted: a co-op (New York City building classes 09, 10 and 17) is a share in a cooperative, not a condominium`);
  });
});
