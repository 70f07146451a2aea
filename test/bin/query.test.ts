// `reii query` as a real process (node bin/reii.js, through test/helpers/cli.ts) over the shared test build's
// warehouse: the three output formats (checked against the raw files, DuckDB over ../shared/data in place), no
// published build, and the statements it refuses (writes, and any file outside the warehouse).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildDir, artifactsDir } from '../helpers/build.ts';
import { RAW as SHARED, STACK_LINE, cleanupCli, env, parseTable, rawQuery, reii, tmp } from '../helpers/cli.ts';

afterAll(cleanupCli);

// ---------------------------------------------------------------------------------------------------

describe('reii query', () => {
  const e = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp() });
  const SQL = `select state_code, state_name, state_fips from states where state_code in ('TX', 'DC', 'WY') order by state_code`;

  test('--format json, csv and table print the warehouse values (oracle: the raw states.csv and foreclosures file)', async () => {
    const want = await rawQuery<{ state_code: string; state_name: string; state_fips: string }>(
      `select Code as state_code, Name as state_name, FIPS as state_fips from read_csv('${SHARED}/usgeo-census-tables/states.csv', all_varchar = true)
       where Code in ('TX', 'DC', 'WY') order by Code`);
    expect(want.map((w) => w.state_code)).toEqual(['DC', 'TX', 'WY']);
    const [json, csv, table, count] = await Promise.all([
      reii(['query', SQL, '--format', 'json'], e()),
      reii(['query', SQL, '--format', 'csv'], e()),
      reii(['query', SQL], e()), // table is the default
      reii(['query', `select count(*)::int as n from raw."louisville__foreclosures"`, '--format', 'json'], e()),
    ]);
    for (const r of [json, csv, table, count]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(JSON.parse(json.stdout)).toEqual(want);
    expect(csv.stdout).toBe(['state_code,state_name,state_fips', ...want.map((w) => `${w.state_code},${w.state_name},${w.state_fips}`)].join('\n') + '\n');
    const t = parseTable(table.stdout);
    expect(t.columns).toEqual(['state_code', 'state_name', 'state_fips']);
    expect(t.rows).toEqual(want);
    const raw = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${SHARED}/louisville-metro-lien-foreclosures/foreclosures.csv.gz')`);
    expect(raw[0]!.n).toBeGreaterThan(0);
    expect(JSON.parse(count.stdout)).toEqual([{ n: raw[0]!.n }]);
  });

  test('with no published build: exit 6 naming the folder', async () => {
    const empty = tmp('reii-cli-art-');
    const r = await reii(['query', 'select 1'], env({ REII_ARTIFACTS: empty, REII_STATE: tmp() }));
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`reii: no published build in ${empty}: run \`reii build\` first\n`);
  });

  test('write statements are refused with a clear error and a non-zero status; the warehouse is unchanged', async () => {
    const wh = path.join(buildDir(), 'warehouse.duckdb');
    const before = fs.statSync(wh);
    const writes = [`delete from states`, `create table cli_probe as select 1 as x`, `update states set state_name = 'x'`];
    const runs = await Promise.all(writes.map((sql) => reii(['query', sql], e())));
    for (const [i, sql] of writes.entries()) {
      const r = runs[i]!;
      expect(r.code, sql).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, sql).toMatch(/^reii: query failed: .*read-only/);
      expect(r.stderr).not.toMatch(STACK_LINE);
    }
    // nor may it write or read any other file on the machine
    const outside = path.join(tmp(), 'leak.csv');
    fs.writeFileSync(path.join(path.dirname(outside), 'secret.csv'), 'a\n1\n');
    const escapes = [`copy (select state_code from states) to '${outside}'`, `select * from read_csv('${path.join(path.dirname(outside), 'secret.csv')}')`, `attach '${path.join(path.dirname(outside), 'other.duckdb')}' as other`, `set enable_external_access = true`];
    const escaped = await Promise.all(escapes.map((sql) => reii(['query', sql], e())));
    for (const [i, sql] of escapes.entries()) {
      const r = escaped[i]!;
      expect(r.code, `${sql}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, sql).toMatch(/^reii: query failed: .*(disabled by configuration|configuration has been locked)/);
    }
    expect(fs.readdirSync(path.dirname(outside)).sort()).toEqual(['secret.csv']);
    const after = fs.statSync(wh);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    const n = await reii(['query', `select count(*)::int as n from states where state_name = 'x'`, '--format', 'json'], e());
    expect(JSON.parse(n.stdout)).toEqual([{ n: 0 }]);
  });
});
