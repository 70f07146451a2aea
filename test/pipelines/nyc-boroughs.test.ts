// New York City's boroughs have one definition (review 24): the macro nyc_boroughs() of warehouse/macros.sql, read by
// the NYC adapter (30_market_12_sales_nyc.sql: a sale's city part and neighbourhood) and the address step
// (50_address_09_addresses.sql: a borough's county); before, three lists were written in those two SQL steps. The
// macro's rows are recomputed from the raw files (the rolling sales' SOURCE.md codes, simplemaps' county of each
// borough), and the adapter's statements, run over the shared build's own NYC rows, give the build's city parts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarehouse, queryRows, withConnection } from '../../warehouse/db.ts';
import { buildDir } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
type Borough = { code: string; name: string; county_fips: string };

describe('nyc_boroughs(): the one list of the boroughs', () => {
  it('its codes and names are the rolling sales\' SOURCE.md, its counties simplemaps\' of each borough', async () => {
    const doc = fs.readFileSync(dataFile('nyc-rolling-sales/SOURCE.md'), 'utf8');
    const line = /^\| BOROUGH \| (.*) \|$/m.exec(doc)![1]!;
    const named = line.split(', ').map((x) => /^(\d) (.*)$/.exec(x)!.slice(1) as [string, string]);
    const counties = await rawQuery<{ name: string; fips: string }>(`select city as name, county_fips as fips
      from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) where state_id = 'NY' and city in (${named.map(([, n]) => `'${n}'`).join(', ')})`);
    const want = named.map(([code, name]) => ({ code, name, county_fips: counties.find((c) => c.name === name)!.fips }));
    expect(want).toHaveLength(5);
    const wh = await openWarehouse(':memory:');
    try {
      expect(await withConnection(wh, (c) => queryRows<Borough>(c, 'select * from nyc_boroughs() order by code'))).toEqual(want);
    } finally { wh.close(); }
  });

  it('no other SQL step writes a borough list', () => {
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.sql') ? [path.join(dir, e.name)] : []));
    const lists = [...files(path.join(ROOT, 'pipelines')), ...files(path.join(ROOT, 'warehouse'))]
      .filter((f) => !f.endsWith(path.join('warehouse', 'macros.sql')))
      .filter((f) => /'Staten Island'|'STATEN ISLAND'|'Brooklyn'|'BROOKLYN'/.test(fs.readFileSync(f, 'utf8').replace(/--.*$/gm, '')));
    expect(lists.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('the adapter\'s city-part statement over the shared build\'s NYC rows gives the build\'s own city parts', async () => {
    const sql = fs.readFileSync(path.join(ROOT, 'pipelines/intermediate/30_market_12_sales_nyc.sql'), 'utf8');
    const at = sql.indexOf('create or replace temp view int_market_nyc_checked');
    const insert = sql.indexOf('insert into int_market_city_parts');
    const select = sql.slice(sql.indexOf('select', insert), sql.indexOf(';', insert));
    const wh = await openWarehouse(path.join(buildDir(), 'warehouse.duckdb'), { readOnly: true });
    try {
      const rows = await withConnection(wh, async (c) => {
        await c.run(sql.slice(at, sql.indexOf(';', at) + 1));
        return queryRows<{ only_new: number; only_build: number; n: number }>(c, `
          with new as (${select}), built as (select * from int_market_city_parts where starts_with(sale_id, 'nyc:'))
          select (select count(*) from (from new except all from built))::int as only_new,
                 (select count(*) from (from built except all from new))::int as only_build, (select count(*) from built)::int as n`);
      });
      expect(rows[0]!.n).toBeGreaterThan(100_000);
      expect(rows[0]).toMatchObject({ only_new: 0, only_build: 0 });
    } finally { wh.close(); }
  });
});
