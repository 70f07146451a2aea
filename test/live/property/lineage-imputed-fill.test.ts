// The geography fill says which cities and states it took from the zip (city_from_zip, state_from_zip), so the property
// lineage cites them as 'zip_city' / 'zip_state', not as read (warehouse/docs/property.md "Tables"). The reference build
// has no canonical source; these rows are canonical ones: a permits.csv row has no city or state column, a sales.csv
// row may leave either empty, and a value the row names is kept and flagged as read.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../../helpers/context.ts';
import { marketTables, run, zipsTable } from '../../helpers/market-fixtures.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await makeContext();
  await marketTables(ctx);
  await zipsTable(ctx, [{ zip: '37206', city: 'Nashville', state_code: 'TN', lat: 36.18, lng: -86.74, is_zcta: true }],
    [{ geoid: '4752006', state_code: 'TN', name: 'Nashville', zctas: ['37206'], land: { '37206': 100 }, zipCodes: ['37206'], population: 690000 }]);
  const sale = (id: string, city: string | null, state: string | null) => ctx.db.run(`insert into sales by name
    select $id as sale_id, 'canonical' as source, $city as city, $state as state_code, '37206' as zip, date '2024-03-01' as sale_date,
    300000 as sale_price, 'sfr' as property_type`, { id, city, state });
  await sale('named', 'Nashville', 'TN');
  await sale('no-city', null, 'TN');
  await sale('no-state', 'Nashville', null);
  await ctx.db.run(`insert into permits by name select 'canonical:p1' as permit_id, 'canonical' as source, '929 CAHAL AVE' as address,
    '37206' as zip, null as city, null as state_code, date '2024-03-08' as issue_date, 'renovation' as permit_type, false as zip_imputed`);
  await run(ctx, 'pipelines/intermediate/30_market_80_fill_geo.sql');
});
afterAll(() => ctx?.close());

describe('the geography fill flags a city or state it took from the zip', () => {
  test('a filled value is flagged, a value the row names is not', async () => {
    expect(await ctx.rows(`select sale_id as id, city, state_code, city_from_zip, state_from_zip from sales
      union all select permit_id, city, state_code, city_from_zip, state_from_zip from permits order by id`)).toEqual([
      { id: 'canonical:p1', city: 'Nashville', state_code: 'TN', city_from_zip: true, state_from_zip: true },
      { id: 'named', city: 'Nashville', state_code: 'TN', city_from_zip: false, state_from_zip: false },
      { id: 'no-city', city: 'Nashville', state_code: 'TN', city_from_zip: true, state_from_zip: false },
      { id: 'no-state', city: 'Nashville', state_code: 'TN', city_from_zip: false, state_from_zip: true },
    ]);
  });
});
