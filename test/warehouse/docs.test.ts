// Analysts: every table of the real build is documented with a grain sentence ("one row per ...") in
// warehouse/README.md or warehouse/docs/*.md, and staging views follow the stg_<source>__<entity> rule.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { repoPath } from '../helpers/paths.ts';

const DOCS = repoPath('warehouse');
const text = [path.join(DOCS, 'README.md'), ...fs.readdirSync(path.join(DOCS, 'docs')).map((f) => path.join(DOCS, 'docs', f))]
  .filter((f) => f.endsWith('.md')).map((f) => fs.readFileSync(f, 'utf8')).join('\n');

describe('warehouse documentation', () => {
  test('every main-schema table has a grain sentence next to its name', async () => {
    const tables = await warehouseRows<{ name: string }>(`select table_name as name from duckdb_tables() where schema_name = 'main' and not temporary order by 1`);
    expect(tables.length).toBeGreaterThan(20);
    const grain = /one row (per|for)|one row,|a row per/;
    const undocumented = tables.map((t) => t.name).filter((name) => {
      // some entry that names the table carries its grain sentence within the next few lines
      for (let i = text.indexOf(`\`${name}\``); i >= 0; i = text.indexOf(`\`${name}\``, i + 1)) {
        if (grain.test(text.slice(i, i + 400).toLowerCase())) return false;
      }
      return true;
    });
    expect(undocumented).toEqual([]);
  });
  test('staging views are named stg_<source>__<entity>', async () => {
    const views = await warehouseRows<{ name: string }>(`select view_name as name from duckdb_views() where schema_name = 'main' and not internal`);
    for (const v of views) expect(v.name).toMatch(/^stg_[a-z0-9_]+__[a-z0-9_]+$/);
  });
});
