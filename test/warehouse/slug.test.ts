// A city's shard path uses its slug, spelled twice: slug() in warehouse/layout.ts (the API, from the query) and the
// macro slug() in warehouse/macros.sql (the build, from the data). A city whose two slugs differ would be written at
// one path and asked for at another: a 404 for a city the build has. Oracle: DuckDB running the macro over every
// city and place name of the raw simplemaps and Census Gazetteer files.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openWarehouse, queryRows, type Warehouse } from '../../warehouse/db.ts';
import { slug } from '../../warehouse/layout.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

let wh: Warehouse;
let db: DuckDBConnection;
beforeAll(async () => {
  wh = await openWarehouse(':memory:');
  db = await wh.connect();
});
afterAll(() => { db?.closeSync(); wh?.close(); });

const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

describe('slug: the SQL macro and the TypeScript function agree', () => {
  test('on every city and place name of the raw files', async () => {
    const cities = path.join(SHARED_DATA, 'simplemaps-uscities/uscities.csv.gz');
    const places = path.join(SHARED_DATA, 'census-gazetteer-2025/2025_Gaz_place_national.txt.gz');
    const rows = await queryRows<{ name: string; sql: string }>(db, `
      select distinct name, slug(name) as sql from (
        select city as name from read_csv(${lit(cities)}, all_varchar = true)
        union all
        select NAME from read_csv(${lit(places)}, all_varchar = true, delim = '|'))
      where name is not null`);
    expect(rows.length).toBeGreaterThan(40_000);
    expect(rows.filter((r) => slug(r.name) !== r.sql)).toEqual([]);
  });

  test('on names written the ways people write them', async () => {
    const names = ['St. Louis', "Coeur d'Alene", 'Winston-Salem', '  San   José ', 'Cañon City', 'Española', 'LA PORTE', 'Ste. Genevieve', '!!!', '', 'Mañana--Beach'];
    const rows = await queryRows<{ name: string; sql: string }>(db, `select name, slug(name) as sql from (values ${names.map((n) => `(${lit(n)})`).join(', ')}) t(name)`);
    expect(rows.length).toBe(names.length);
    for (const r of rows) expect(slug(r.name), r.name).toBe(r.sql);
    expect(slug('  San   José ')).toBe('san-jose');
    expect(slug("Coeur d'Alene")).toBe('coeur-d-alene');
  });
});
