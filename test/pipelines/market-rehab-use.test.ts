// Market domain, marts stage: the rehab score and the 30-day direction count residential rehab only
// (warehouse/docs/market.md "Residential rehab"), over a fresh DuckDB with the domain's canonical tables.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

test('a rehab permit counts when its building is residential, or its use is unknown and it costs $500,000 or less', async () => {
  await ctx.db.run(`insert into int_market_housing_units values ('37203', 1000)`);
  const permit = (id: string, type: string, use: string | null, value: number | null) => ctx.db.run(
    `insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, valuation, building_use)
     values ($id, 'test', '37203', 'Nashville', 'TN', '2024-06-01'::date, $t, $v, $u)`, { id, t: type, v: value, u: use });
  await permit('condo-tower', 'renovation', 'residential', 2000000);   // counts: a residential building, whatever its cost
  await permit('house', 'repair', null, 400000);                       // counts: use unknown, $400,000
  await permit('unknown-big', 'renovation', null, 600000);             // left out: use unknown, over $500,000
  await permit('hotel', 'renovation', 'nonresidential', 50000);        // left out: a commercial building
  await permit('office-new', 'new', 'nonresidential', 9000000);        // not rehab at all (counts in permits_all)
  await run(ctx, 'pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
    'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql', 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql');
  const rows = await ctx.rows<Record<string, unknown>>(`select permits_all, permits_rehab, permits_rehab_valued, permits_rehab_nonresidential,
      rehab_value, events_last_30d from mart_rehab where zip = '37203' and months = 12`);
  expect(rows).toEqual([{ permits_all: '5', permits_rehab: '2', permits_rehab_valued: '2', permits_rehab_nonresidential: '2',
    rehab_value: 2400000, events_last_30d: '2' }]);
});
