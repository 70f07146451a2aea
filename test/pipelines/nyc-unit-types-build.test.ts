// NYC's unit sales are condo sales and a garage is no apartment (review 15 F2/F5; warehouse/docs/market.md, the NYC
// adapter row), over the shared real build (REII_TEST_ARTIFACTS) against the raw rolling sales files:
// - category "11 SPECIAL CONDO BILLING LOTS" rows naming an apartment ("138 WILLOUGHBY STREET, 47H", apartment column
//   RESI) sell one condominium unit: condo, not multi; its rows naming none ("531 MYRTLE AVENUE, RU") stay multi;
// - a rental building's row (02, 03, 07, 08, 14) of a lot sold under two or more units is a unit's sale: condo;
// - so zip 11201's multi December 2023 is its six building sales ($4,612,500 median), not a unit's price;
// - "18 CRANBERRY STREET, GAR" (a 3-family of 5,375 sqft sold with its garage) keeps its area and is a multi comp.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir, warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { readCompSet } from '../../live/valuation/comp-arrow.ts';

/** The raw rows with the building class category's code, the street's part after the comma, and whether the lot sold
 *  under two or more units (any part or apartment column, as written) in the files. */
const RAW = `(select *, count(distinct coalesce(nullif(trim(apt), ''), part)) over (partition by b, blk, lot) as lot_units from (
  select "BOROUGH" as b, "BLOCK" as blk, "LOT" as lot, left("BUILDING CLASS CATEGORY", 2) as cat, "ADDRESS" as address,
         "APARTMENT NUMBER" as apt, nullif(trim(split_part("ADDRESS", ',', 2)), '') as part, trim("ZIP CODE") as zip,
         try_cast("SALE DATE" as date) as d, try_cast(replace("SALE PRICE", ',', '') as double) as price
  from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)))`;

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(async () => { await srv.close(); });

describe('NYC unit sales and garages', () => {
  test('category 11 rows naming an apartment are condo sales, the others multi', async () => {
    const raw = await rawQuery<{ unit: boolean; n: number }>(`
      select regexp_matches(coalesce(apt, '') || coalesce(part, ''), '[0-9]') as unit, count(*)::int as n
      from ${RAW} where cat = '11' and d is not null and price >= 0 group by 1 order by 1`);
    const built = await warehouseRows<{ property_type: string; n: number }>(`
      select s.property_type, count(*)::int as n from sales s join stg_nyc__sales g on g.file = s.file and g.row_number + 1 = s.line
      where s.source = 'nyc' and g.building_class_category like '11 %' group by 1 order by 1`);
    expect(built).toEqual([{ property_type: 'condo', n: raw.find((r) => r.unit)!.n }, { property_type: 'multi', n: raw.find((r) => !r.unit)!.n }]);
    expect(raw.find((r) => r.unit)!.n).toBeGreaterThan(400);
  });

  test('zip 11201 multi, December 2023: the building sales of the raw file, no unit', async () => {
    // $10,000 or more, not a package (one block, day and price over two lots or more), no unit's sale
    const raw = await rawQuery<{ n: number; median: number }>(`
      with r as (select * from ${RAW} where zip = '11201' and price >= 10000),
      pkg as (select b, blk, d, price from ${RAW} where price >= 10000 group by all having count(distinct lot) >= 2)
      select count(*)::int as n, median(price) as median from r anti join pkg using (b, blk, d, price)
      where cat in ('02', '03', '07', '08', '14', '11') and strftime(d, '%Y-%m') = '2023-12'
        and not (cat = '11' and regexp_matches(coalesce(apt, '') || coalesce(part, ''), '[0-9]'))
        and not (cat <> '11' and lot_units >= 2)`);
    expect(raw).toEqual([{ n: 6, median: 4_612_500 }]);
    const res = await srv.get('/v1/market/trends?zip=11201&property_type=multi&months=12', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { series: { month: string; sales_count: number; median_price: number }[] };
    const dec = body.series.find((m) => m.month === '2023-12')!;
    expect([dec.sales_count, dec.median_price]).toEqual([raw[0]!.n, raw[0]!.median]);
  });

  test('18 CRANBERRY STREET, GAR is a 3-family with its area: a multi comp of 11201', async () => {
    const [raw] = await rawQuery<{ cat: string; gsf: number; price: number; d: string }>(`
      select left("BUILDING CLASS CATEGORY", 2) as cat, try_cast(replace("GROSS SQUARE FEET", ',', '') as double) as gsf,
             try_cast(replace("SALE PRICE", ',', '') as double) as price, "SALE DATE" as d
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true) where "ADDRESS" = '18 CRANBERRY STREET, GAR'`);
    expect(raw).toEqual({ cat: '03', gsf: 5375, price: 4_001_000, d: '2024-02-08' });
    const d = readCompSet(path.join(buildDir(), 'live', 'valuation', 'comps-nyc.arrow'));
    const day = Date.parse(raw!.d) / 86_400_000;
    const i = d.key.findIndex((k, j) => k?.startsWith('18 CRANBERRY ST') && d.day[j] === day && d.price[j] === raw!.price);
    expect(i).toBeGreaterThanOrEqual(0);
    expect([d.key[i], d.sqft[i], d.zips[d.zip[i]!]]).toEqual(['18 CRANBERRY ST', raw!.gsf, '11201']);
  });
});
