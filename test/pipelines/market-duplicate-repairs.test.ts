// Of two copies of one sale, the one whose values the row contracts did not null is kept (review 17 #3): the reviewer's
// canonical file held 2 COLONIAL CT, 06840 twice, one copy with its coordinates swapped (nulled, meta.repairs
// nulled_outside_state) and the later document number; the rule kept that copy by document order, so GET /v1/property
// answered lat/lng null while autocomplete had the good coordinates. 30_market_45_sale_flags.sql over given rows (meta.repairs
// names the file relative to the sources folder, the sale the path read, as the real build does).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

async function copy(id: string, doc: string, line: number, lat: number | null): Promise<void> {
  await ctx.db.run(`insert into sales (sale_id, source, parcel_id, address, city, state_code, zip, sale_date, sale_price, property_type,
      document_id, lat, lng, file, line)
    values ($id, 'canonical', 'P1', '2 COLONIAL CT', 'New Canaan', 'CT', '06840', date '2023-03-01', 1500000, 'sfr', $doc, $lat, $lng, '/src/canonical/sales.csv', $line)`,
  { id, doc, line, lat, lng: lat === null ? null : -73.49 });
}

describe('duplicates: the copy with fewer repairs is kept', () => {
  test('the good copy is kept over a later document whose coordinates were nulled', async () => {
    await copy('good', '230001', 2, 41.14);
    await copy('swapped', '230002', 3, null);
    await ctx.db.run(`insert into meta.repairs values ('intermediate', 'canonical', 'canonical/sales.csv', 3, 'nulled_outside_state', 'lat,lng=-73.49,41.14 -> null')`);
    await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
    const rows = await ctx.rows(`select sale_id as id, is_duplicate as duplicate, duplicate_of as of from sales order by sale_id`);
    // before: good was the duplicate of swapped (the latest document)
    expect(rows).toEqual([{ id: 'good', duplicate: false, of: null }, { id: 'swapped', duplicate: true, of: 'good' }]);
  });

  test('without repairs the existing order holds: the latest document', async () => {
    await copy('a', '230001', 2, 41.14);
    await copy('b', '230002', 3, 41.14);
    await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select sale_id as id, is_duplicate as duplicate from sales order by sale_id`)).toEqual([{ id: 'a', duplicate: true }, { id: 'b', duplicate: false }]);
  });
});
