// A street line that names no lot ("PARADISE DR", "ROUTE 32") is no property's identity and no resale's key, and a
// source without zips keys its resales within the town (warehouse/docs/property.md "Identity", market.md
// "int_market_resales"). The rule (street_line_names_lot, 30_market_00_canonical_tables.sql) is run in DuckDB over lines
// of the raw Connecticut file; the shared real build (REII_TEST_ARTIFACTS) is checked against the raw file's own rows.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { warehouseRows } from '../helpers/build.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

const CT = path.join(SHARED_DATA, 'connecticut-real-estate-sales');
const FILES = ['Real_Estate_Sales_2001-2022_GL.head9999.csv.gz', 'real_estate_sales_2022-01_2022-09_listyear2021.csv.gz'].map((f) => path.join(CT, f));
let ctx: TestContext;
beforeAll(async () => { ctx = await makeContext(); await runSqlFile(ctx, 'pipelines/intermediate/30_market_00_canonical_tables.sql'); });
afterAll(() => ctx?.close());

/** Rows of the two raw Connecticut files whose Address is one of `addresses`: file, serial, town, address. */
async function rawRows(addresses: readonly string[]): Promise<{ file: string; serial: string; town: string; address: string }[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const r = await conn.runAndReadAll(FILES.map((f, i) => `select ${i} as file, "Serial Number" as serial, "Town" as town, "Address" as address
      from read_csv('${f}', all_varchar = true) where "Address" in (${addresses.map((a) => `'${a}'`).join(', ')})`).join(' union all ') + ' order by file, serial');
    return r.getRowObjectsJson() as { file: string; serial: string; town: string; address: string }[];
  } finally { conn.closeSync(); inst.closeSync(); }
}

describe('street_line_names_lot', () => {
  test('a house number in front or behind, a map-block-lot or a unit names a lot; a street, a route or a zero does not', async () => {
    const lines: [string, boolean][] = [
      ['618 ROUTE 6', true], ['230 WAKELEE AVE', true], ['HAVEMEYER LANE 0082', true], ['MBL 26/87/6', true],
      ['ANCHOR REEF CLUB 17E', true], ['MAP42 LOT 20', true], ['HAMLET B01UB', true],
      ['PARADISE DR', false], ['JOHN MACK RD', false], ['ROUTE 32', false], ['ROUTE I-95', false], ['LAND ROUTE 87', false],
      ['RIVER ROAD 0000', false], ['0 ASPEN HILL DR', false], ['5TH AVE', false],
    ];
    // every line is written so in a raw file (as normalize_address keeps it), but 5TH AVE
    const raw = new Set((await rawRows(lines.map(([l]) => l))).map((r) => r.address));
    expect(lines.filter(([l]) => !raw.has(l)).map(([l]) => l)).toEqual(['5TH AVE']);
    const got = await ctx.rows<{ l: string; lot: boolean }>(`select l, street_line_names_lot(normalize_address(l)) as lot from (values ${lines.map(([l]) => `('${l}')`).join(', ')}) t(l)`);
    expect(Object.fromEntries(got.map((r) => [r.l, r.lot]))).toEqual(Object.fromEntries(lines));
  });

  test('property_identity: a lot line within its zip, a street line none, a parcel id whatever its line', async () => {
    const [r] = await ctx.rows<{ lot: string | null; street: string | null; parcel: string | null }>(`select
      property_identity('connecticut', null, '12 MAIN ST', null, '06234') as lot,
      property_identity('connecticut', null, 'PARADISE DR', null, '06234') as street,
      property_identity('nyc', '2-3030-5', 'RADIGAN AVE', null, '10465') as parcel`);
    expect(r).toEqual({ lot: 'connecticut|addr|06234|12 MAIN ST', street: null, parcel: 'nyc|parcel|2-3030-5' });
  });
});

describe('real build: no property or resale made of a street line, no resale across towns', () => {
  test("PARADISE DR's sales of Brooklyn, CT (8 town serials of the GL file, 3 rows of the 2022 one) are in sales and in no property or resale", async () => {
    const raw = await rawRows(['PARADISE DR']);
    expect(raw.map((r) => `${r.file} ${r.town}`)).toEqual([...Array(8).fill('0 Brooklyn'), ...Array(3).fill('1 Brooklyn')]);
    expect(new Set(raw.filter((r) => String(r.file) === '0').map((r) => r.serial)).size).toBe(8);
    const sales = await warehouseRows<{ sale_id: string }>(`select sale_id from sales where source = 'connecticut' and address = 'PARADISE DR' and city = 'Brooklyn'`);
    expect(sales.length).toBe(11);
    const [held] = await warehouseRows<{ props: bigint; resales: bigint }>(`select
      (select count(*) from property_sales where sale_id in (select sale_id from sales where address = 'PARADISE DR')) as props,
      (select count(*) from int_market_resales where property_key like '%PARADISE DR%') as resales`);
    expect([Number(held!.props), Number(held!.resales)]).toEqual([0, 0]);
  });

  test('every address-keyed property and resale names a lot; every resale key names its place (zip or town)', async () => {
    const [r] = await warehouseRows<{ props: bigint; resales: bigint; placeless: bigint; towns: bigint }>(`select
      (select count(*) from properties where identity like '%|addr|%' and not street_line_names_lot(split_part(identity, '|', 4))) as props,
      (select count(*) from int_market_resales r join sales s using (sale_id) where s.parcel_id is null and not street_line_names_lot(s.address)) as resales,
      (select count(*) from int_market_resales r join sales s using (sale_id) where s.parcel_id is null and split_part(r.property_key, '|', 2) = '') as placeless,
      (select count(*) from int_market_resales r join sales s using (sale_id)
        where s.parcel_id is null and s.zip is null and split_part(r.property_key, '|', 2) <> upper(s.city) || ',' || s.state_code) as towns`);
    expect(Object.values(r!).map(Number)).toEqual([0, 0, 0, 0]);
  });
});
