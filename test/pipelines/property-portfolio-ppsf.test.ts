// property_sales.price_per_sqft on a portfolio sale (warehouse/docs/property.md "property_sales"): a portfolio deed's
// one price is the total of its several parcels, so over one parcel's sqft it is no price a sqft and the property record
// prints none (review 15: a canonical Philadelphia parcel printed 446.43). Over the shared real build, against the raw
// OPA file: 881162420's deed of 2022-10-12 is $342,000,000 for the 3 parcels the file records with that date and price.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

const OPA = path.join(SHARED_DATA, 'philadelphia-opa-properties-sample', 'opa_properties_public_sample.csv.gz');

async function rawDeedParcels(date: string, price: string): Promise<string[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const r = await conn.runAndReadAll(`select parcel_number from read_csv('${OPA}', all_varchar = true)
      where sale_date = '${date}' and sale_price = '${price}.0' order by parcel_number`);
    return (r.getRowObjectsJson() as { parcel_number: string }[]).map((x) => x.parcel_number);
  } finally { conn.closeSync(); inst.closeSync(); }
}

describe('property_sales: no price a sqft on a portfolio sale', () => {
  test("881162420's share of a $342,000,000 deed over 3 parcels prints no price a sqft; no portfolio sale does", async () => {
    expect(await rawDeedParcels('2022-10-12', '342000000')).toEqual(['881162420', '881162520', '881162600']);
    // before: 58.22 (342,000,000 / the one parcel's 5,874,141 sqft)
    expect(await warehouseRows(`select ps.price, ps.portfolio, ps.price_per_sqft from property_sales ps join sales s using (sale_id)
      where s.source = 'philadelphia' and s.parcel_id = '881162420' and ps.date = date '2022-10-12'`))
      .toEqual([{ price: 342000000, portfolio: true, price_per_sqft: null }]);
    // before: Denver 377, NYC 2,038, Philadelphia 214 portfolio sales with a price a sqft
    const rows = await warehouseRows<{ source: string; n: number; priced: number }>(`select s.source, count(*)::int as n, count(ps.price_per_sqft)::int as priced
      from property_sales ps join sales s using (sale_id) where ps.portfolio group by all order by s.source`);
    expect(rows.map((r) => r.source)).toEqual(['denver', 'nyc', 'philadelphia']);
    expect(rows.every((r) => r.n > 0 && r.priced === 0)).toBe(true);
    // a sale of one parcel keeps its price a sqft
    expect(await warehouseRows(`select count(*)::int as n from property_sales where not portfolio and price_per_sqft is not null`))
      .toEqual([{ n: expect.toSatisfy((n: number) => n > 50000) }]);
  });
});
