// mart_rehab's resale share is residential on both sides (warehouse/docs/market.md mart_rehab "rehab resales"), over
// given canonical rows: a land or commercial arm's-length sale counts neither among the window's sales nor as a quick
// resale at a gain; and mart_rehab_permits keeps the residential rehab permits of every zip's windows, scored or not
// (the rehab 404 reads them). The raw-file recount is market-rehab-residential-build.test.ts.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

const MARTS = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql', 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql'];

const sale = (id: string, date: string, price: number, parcel: string, type: string) => ctx.db.run(
  `insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, line, is_portfolio, is_duplicate)
    values ($id, 'test', $parcel, 'Testville', 'NY', '10001', $date::date, $price, $type, 1000, true, 1, false, false)`,
  { id, date, price, parcel, type });

const permit = (id: string, zip: string, date: string, type: string, use: string | null) => ctx.db.run(
  `insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, building_use, valuation) values ($id, 'test', $zip, 'Nashville', 'TN', $d::date, $t, $u, 1000)`,
  { id, zip, d: date, t: type, u: use });

describe('mart_rehab: residential inputs', () => {
  test('land and commercial sales count in neither side of the resale share', async () => {
    // 5 house sales, one a quick resale at +50%; and 4 commercial and land sales, one a quick resale of a store at +50%
    await sale('h1', '2024-01-05', 200000, 'p1', 'sfr');
    await sale('h2', '2024-03-05', 300000, 'p1', 'sfr');
    await sale('h3', '2024-02-05', 400000, 'p2', 'condo');
    await sale('h4', '2024-04-05', 400000, 'p3', 'multi');
    await sale('h5', '2024-05-05', 400000, 'p4', 'sfr');
    await sale('c1', '2024-01-10', 1000000, 'c1', 'commercial');
    await sale('c2', '2024-03-10', 1500000, 'c1', 'commercial');
    await sale('l1', '2024-02-10', 100000, 'l1', 'land');
    await sale('l2', '2024-04-10', 100000, 'l2', 'land');
    await run(ctx, ...MARTS);
    const [row] = await ctx.rows<Record<string, unknown>>(`select sales_n, rehab_sales, rehab_sale_share from mart_rehab where zip = '10001' and months = 12`);
    // before: 9 sales, 2 of them rehab resales (a share of 2/9)
    expect(row).toEqual({ sales_n: '5', rehab_sales: '1', rehab_sale_share: 0.2 });
  });

  test('an unscored zip keeps its windows\' residential rehab permits (mart_rehab_permits)', async () => {
    // 37027: no housing unit count, so no score; 4 permits in the year: 2 residential rehab, 1 office renovation, 1 new;
    // the 3 months to 2024-04-01 hold the last three
    await permit('a', '37027', '2024-01-01', 'renovation', 'residential');
    await permit('b', '37027', '2024-02-01', 'addition', 'residential');
    await permit('c', '37027', '2024-03-01', 'renovation', 'nonresidential');
    await permit('d', '37027', '2024-04-01', 'new', 'residential');
    await run(ctx, ...MARTS);
    expect(await ctx.rows(`select count(*)::int as n from mart_rehab where zip = '37027'`)).toEqual([{ n: 0 }]);
    expect(await ctx.rows(`select months, strftime(permits_as_of, '%Y-%m-%d') as as_of, permits_all::int as n, permits_rehab_types::int as types, permits_rehab::int as rehab
      from mart_rehab_permits where zip = '37027' and months in (3, 12) order by months`)).toEqual([
      { months: 3, as_of: '2024-04-01', n: 3, types: 2, rehab: 1 },
      { months: 12, as_of: '2024-04-01', n: 4, types: 3, rehab: 2 },
    ]);
  });
});
