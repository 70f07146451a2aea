// meta.rejects and the reject-share gate (pipelines/sources/rejects.ts) over given rows: a file whose lines break
// the row contracts (issue 19) beyond REII_REJECT_MAX_SHARE fails the stage naming it, and the table is defined
// once (its columns, the ones generated from the detail, and the migration of an older warehouse's table).
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../../helpers/context.ts';
import { PINNED_NOW } from '../../helpers/clock.ts';
import { REJECTS_DDL, REJECTS_DDL_BEFORE_CONTRACTS, checkRejectShare, ensureRejectsTable, queryCommand } from '../../../pipelines/sources/rejects.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import { StageError } from '../../../warehouse/errors.ts';

// ---------------------------------------------------------------------------------------------------------------

describe('meta.rejects and the reject-share gate', () => {
  async function gateContext(): Promise<TestContext> {
    const ctx = await makeContext({ now: PINNED_NOW });
    await ctx.db.run(`insert into meta.source_files values ('canonical', 'sales', 'canonical/sales.csv', 'x', 0, 98), ('allegheny', 'foreclosures', 'allegheny/f.csv', 'x', 0, 100)`);
    return ctx;
  }
  const reject = (source: string, file: string, line: number, rule: string, stage = 'intermediate', detail = 'sale_date=2099-01-01'): string =>
    `('${stage}', '${source}', '${file}', ${line}, '${rule}', '${detail}')`;

  test('a file over the share fails the stage naming the file, its share and its top rules; at the share it passes', async () => {
    const ctx = await gateContext();
    try {
      // canonical/sales.csv: 98 loaded rows + 2 lines the parser refused = 100 rows; 5 contract lines = 5% (passes)
      await ctx.db.run(`insert into meta.rejects values
        ${reject('canonical', '/src/canonical/sales.csv', 3, 'unclosed_quote', 'sources', '=x')}, ${reject('canonical', '/src/canonical/sales.csv', 9, 'wrong_column_count', 'sources', '=x')},
        ${reject('canonical', '/src/canonical/sales.csv', 4, 'date_in_future')}, ${reject('canonical', '/src/canonical/sales.csv', 5, 'date_in_future')},
        ${reject('canonical', '/src/canonical/sales.csv', 6, 'out_of_range', 'intermediate', 'sale_price=1e400')},
        -- the same line rejected from two tables counts once; rows dropped for another reason never count
        ${reject('canonical', '/src/canonical/sales.csv', 6, 'outside_state', 'intermediate', 'lat,lng=1,1 (WA)')},
        ${Array.from({ length: 60 }, (_, i) => reject('allegheny', '/src/allegheny/f.csv', i + 2, 'merged_docket_event', 'intermediate', 'x')).join(', ')}`);
      const files = await checkRejectShare(ctx);
      expect(files.map((f) => [f.file, f.rows, f.rejected, f.share])).toEqual([['canonical/sales.csv', 100, 5, 0.05]]);
      // one more line breaking the contract: 6 of 100 > 5%
      await ctx.db.run(`insert into meta.rejects values ${reject('canonical', '/src/canonical/sales.csv', 7, 'date_in_future')}`);
      const err = await checkRejectShare(ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StageError);
      expect((err as StageError).exitCode).toBe(3);
      expect((err as Error).message).toMatch(/^stage intermediate failed in canonical\/sales\.csv: 6% of its rows were rejected \(6 of 100\), more than the 5% allowed \(REII_REJECT_MAX_SHARE\); top reasons: date_in_future \(sale_date\) 3, out_of_range \(sale_price\) 1 \(e\.g\. "1e400"; bounds: warehouse\/docs\/market\.md "Row contracts"\), outside_state \(lat,lng\) 1 /);
      // the limit is a setting
      expect((await checkRejectShare({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 0.1 } })).map((f) => f.rejected)).toEqual([6]);
    } finally { ctx.close(); }
  });

  test("a not_a_date reason gives an example of the file's value and the format dates must have (review 15)", async () => {
    const ctx = await gateContext();
    try {
      await ctx.db.run(`insert into meta.rejects values ${Array.from({ length: 6 }, (_, i) => reject('canonical', '/src/canonical/sales.csv', i + 2, 'not_a_date', 'intermediate', `sale_date=0${i + 1}/15/2022`)).join(', ')}`);
      const err = await checkRejectShare(ctx).catch((e: unknown) => e);
      expect((err as Error).message).toContain('top reasons: not_a_date (sale_date) 6 (e.g. "01/15/2022"; dates are YYYY-MM-DD) (every rejected row');
    } finally { ctx.close(); }
  });

  test("every number rule gives an example of the file's value and the format numbers must have, as a date's (review 25 #2)", async () => {
    const ctx = await gateContext();
    try {
      await ctx.db.run(`insert into meta.rejects values ${Array.from({ length: 6 }, (_, i) => reject('canonical', '/src/canonical/sales.csv', i + 2, 'not_a_number', 'intermediate', `sale_price=${i + 1}.295,00`)).join(', ')}`);
      const err = await checkRejectShare(ctx).catch((e: unknown) => e);
      // before: "not_a_number (sale_price) 6 (every rejected row": no example, no format
      expect((err as Error).message).toContain('top reasons: not_a_number (sale_price) 6 (e.g. "1.295,00"; numbers are plain: 295000 or 1250.50) (every rejected row');
    } finally { ctx.close(); }
  });

  test('the command that reads the rejects names the artifacts folder the build was given, the default left out (review 25 #4)', () => {
    const paths = { build: '/x/builds/20261130T181500000Z-abc123' } as never;
    const given = queryCommand({ settings: loadSettings({ artifacts: '/tmp/r25/my art' }, {}), paths }, 'select * from meta.rejects');
    expect(given).toBe(`reii query --artifacts '/tmp/r25/my art' --build 20261130T181500000Z-abc123 "select * from meta.rejects"`);
    expect(queryCommand({ settings: loadSettings({}, {}), paths }, 'select 1')).toBe('reii query --build 20261130T181500000Z-abc123 "select 1"');
  });

  test('the table is defined once: its columns, the generated ones read from the detail, and a warehouse with the old table migrated', async () => {
    const inst = await DuckDBInstance.create(':memory:');
    const db = await inst.connect();
    try {
      await db.run(REJECTS_DDL_BEFORE_CONTRACTS);
      await db.run(`insert into meta.rejects values ('intermediate', 'nyc', '/d/nyc.csv', 3, 'zero_price', 'price=0')`);
      await ensureRejectsTable(db);
      await db.run(`insert into meta.rejects select 'intermediate', 'canonical', '/d/sales.csv', 4, 'out_of_range', reject_detail('sale_price', '1e400')`);
      const rows = (await db.runAndReadAll(`select * from meta.rejects order by line`)).getRowObjectsJson();
      expect(rows).toEqual([
        { stage: 'intermediate', source: 'nyc', file: '/d/nyc.csv', line: '3', rule: 'zero_price', detail: 'price=0', column_name: 'price', value: '0', breaks_contract: false, reason: 'zero_price' },
        { stage: 'intermediate', source: 'canonical', file: '/d/sales.csv', line: '4', rule: 'out_of_range', detail: 'sale_price=1e400', column_name: 'sale_price', value: '1e400', breaks_contract: true, reason: 'out_of_range' },
      ]);
      // a fresh warehouse gets the same columns, in the same order (every step inserts the first six by position)
      const fresh = await DuckDBInstance.create(':memory:');
      const fdb = await fresh.connect();
      await fdb.run(REJECTS_DDL);
      const columns = async (c: typeof db): Promise<unknown[]> => (await c.runAndReadAll(`select column_name from duckdb_columns() where table_name = 'rejects' order by column_index`)).getRows();
      expect(await columns(db)).toEqual(await columns(fdb));
      expect((await columns(fdb)).flat()).toEqual(['stage', 'source', 'file', 'line', 'rule', 'detail', 'column_name', 'value', 'breaks_contract', 'reason']);
      fdb.closeSync(); fresh.closeSync();
    } finally { db.closeSync(); inst.closeSync(); }
  });
});
