// One property-type list in two languages: warehouse/property-types.ts and the macro property_types() in
// warehouse/macros.sql, which every SQL step uses instead of spelling the list. Oracle: DuckDB evaluating the macro,
// and the SQL files themselves (no step spells the list). The data tests in pipelines/marts/checks/ are the exception
// on purpose: they write their accepted values out, so a wrong list in the code fails them (pipelines/README.md).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openWarehouse, queryRows } from '../../warehouse/db.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';
import { REPO } from '../helpers/paths.ts';

test('the SQL macro property_types() is the TypeScript list, in order', async () => {
  const wh = await openWarehouse(':memory:');
  const db = await wh.connect();
  try {
    const [row] = await queryRows<{ t: string[] }>(db, 'select property_types() as t');
    expect(row!.t).toEqual([...PROPERTY_TYPES]);
  } finally {
    db.closeSync();
    wh.close();
  }
});

test('no SQL step spells the list itself (the data tests do, on purpose)', () => {
  const sqlFiles = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sqlFiles(path.join(dir, e.name)) : e.name.endsWith('.sql') ? [path.join(dir, e.name)] : []);
  const files = sqlFiles(path.join(REPO, 'pipelines')).filter((f) => !f.includes(`${path.sep}checks${path.sep}`));
  expect(files.length).toBeGreaterThan(50);
  const spelled = files.filter((f) => /'sfr',\s*'multi',\s*'condo',\s*'land',\s*'commercial'/.test(fs.readFileSync(f, 'utf8')));
  expect(spelled.map((f) => path.relative(REPO, f))).toEqual([]);
});
