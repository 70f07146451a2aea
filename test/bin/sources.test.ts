// `reii sources list` and `reii sources pull` as real processes (node bin/reii.js, through test/helpers/cli.ts):
// the list over a folder of a hand-written source and a real one (counts read off the files), and a pull from a
// loopback mirror whose every file answers 500.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { FIX, RAW as SHARED, STACK_LINE, cleanupCli, env, parseTable, rawQuery, reii, tmp } from '../helpers/cli.ts';
import { startFileServer } from '../helpers/file-server.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';

afterAll(cleanupCli);

// ---------------------------------------------------------------------------------------------------

describe('reii sources', () => {
  test('sources list and --json: present sources with their file and row counts (oracle: the files), the rest absent', async () => {
    const src = tmp('reii-cli-src-');
    fs.symlinkSync(path.join(FIX, 'good', 'canonical'), path.join(src, 'canonical'));
    fs.symlinkSync(path.join(SHARED, 'louisville-metro-lien-foreclosures'), path.join(src, 'louisville-metro-lien-foreclosures'));
    const louisvilleRows = (await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${SHARED}/louisville-metro-lien-foreclosures/foreclosures.csv.gz')`))[0]!.n;
    const canonicalRows = fs.readFileSync(path.join(FIX, 'good', 'canonical', 'sales.csv'), 'utf8').trimEnd().split('\n').length - 1; // 3 hand-written rows
    const e = env({ REII_SOURCES: src, REII_ARTIFACTS: tmp(), REII_STATE: tmp() });

    const json = await reii(['sources', 'list', '--json'], e);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as { id: string; present: boolean; files: number; rows: number | null }[];
    expect(rows.map((r) => r.id)).toEqual(SOURCES.map((s) => s.id));
    expect(rows.find((r) => r.id === 'canonical')).toMatchObject({ present: true, files: 1, rows: canonicalRows });
    expect(rows.find((r) => r.id === 'louisville')).toMatchObject({ present: true, files: 1, rows: louisvilleRows });
    for (const r of rows.filter((x) => x.id !== 'canonical' && x.id !== 'louisville')) expect(r, r.id).toMatchObject({ present: false, files: 0, rows: null });

    const table = await reii(['sources', 'list'], e);
    expect(table.code, table.stderr).toBe(0);
    const t = parseTable(table.stdout);
    expect(t.columns).toEqual(['source', 'status', 'files', 'rows', 'vintage', 'licence', 'attribution']);
    expect(t.rows.map((r) => r['source'])).toEqual(SOURCES.map((s) => s.id));
    expect(t.rows.find((r) => r['source'] === 'canonical')).toMatchObject({ status: 'present', files: '1', rows: String(canonicalRows) });
    expect(t.rows.find((r) => r['source'] === 'louisville')).toMatchObject({ status: 'present', files: '1', rows: String(louisvilleRows) });
    expect(t.rows.filter((r) => r['status'] === 'absent')).toHaveLength(SOURCES.length - 2);
  });

  test('sources list names a misnamed canonical file and the name it should have, as the build that fails on it does', async () => {
    const src = tmp('reii-cli-src-');
    fs.mkdirSync(path.join(src, 'canonical'));
    const sales = fs.readFileSync(path.join(FIX, 'good', 'canonical', 'sales.csv'));
    for (const name of ['Sales.csv', 'sales_2024.csv']) fs.writeFileSync(path.join(src, 'canonical', name), sales);
    const e = env({ REII_SOURCES: src, REII_ARTIFACTS: tmp(), REII_STATE: tmp() });
    const caseWhy = 'looks like a canonical data file but is not read: file names are case-sensitive: rename it sales.csv';
    const otherWhy = expect.stringMatching(/^looks like a canonical data file but is not read: not a canonical file name \(only sales\.csv, .*\): rename it or move it out of canonical\/$/);

    const json = await reii(['sources', 'list', '--json'], e);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as { id: string; present: boolean; files: number; misnamed: { file: string; message: string }[] }[];
    expect(rows.find((r) => r.id === 'canonical')).toMatchObject({ present: true, files: 0, misnamed: [
      { file: 'canonical/Sales.csv', message: caseWhy }, { file: 'canonical/sales_2024.csv', message: otherWhy }] });
    for (const r of rows.filter((x) => x.id !== 'canonical')) expect(r.misnamed, r.id).toEqual([]);

    const table = await reii(['sources', 'list'], e);
    expect(table.code, table.stderr).toBe(0);
    expect(parseTable(table.stdout).rows.find((r) => r['source'] === 'canonical')).toMatchObject({ status: 'misnamed', files: '0' });
    const lines = table.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`reii: canonical/Sales.csv ${caseWhy}; \`reii build\` fails on it`);
    expect(lines[1]).toMatch(/^reii: canonical\/sales_2024\.csv looks like a canonical data file but is not read: not a canonical file name .*; `reii build` fails on it$/);

    // the build says the same of the first one, and stops on it
    const build = await reii(['build'], e);
    expect(build.code, build.stderr).toBe(3);
    expect(build.stderr).toContain(`reii: stage sources failed in canonical/Sales.csv: ${caseWhy}; also: canonical/sales_2024.csv (see README "Canonical format")\n`);
  });

  test('sources pull from a mirror whose files answer 500: exit 1 with a message, every file a failed row, nothing saved', async () => {
    // A loopback mirror laid out like ../shared/data: the folder listing works, every file answers 500.
    const root = tmp('reii-cli-mirror-');
    const folder = 'census-gazetteer-2025';
    const names = ['2025_Gaz_place_national.txt', '2025_Gaz_counties_national.txt', '2025_Gaz_zcta_national.txt', '2025_Gaz_cbsa_national.txt'];
    fs.mkdirSync(path.join(root, folder));
    for (const n of names) fs.writeFileSync(path.join(root, folder, n), 'never served\n');
    const mirror = await startFileServer(root);
    for (const n of names) mirror.fault(`/${folder}/${n}`, { status: 500 });
    try {
      const into = tmp('reii-cli-pull-');
      const r = await reii(['sources', 'pull', '--into', into, '--base-url', mirror.url, '--only', 'gazetteer'], env({ REII_ARTIFACTS: tmp(), REII_STATE: tmp() }));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^reii: some downloads failed \(see the table\)$/m);
      expect(r.stderr).not.toMatch(STACK_LINE);
      const t = parseTable(r.stdout);
      expect(t.columns).toEqual(['source', 'file', 'status', 'bytes', 'sha256', 'attempts', 'message']);
      expect(t.rows.map((row) => row['file']).sort()).toEqual(names.map((n) => `${folder}/${n}`).sort());
      for (const row of t.rows) {
        expect(row, JSON.stringify(row)).toMatchObject({ source: 'gazetteer', status: 'failed', sha256: '' });
        expect(row['message']).toMatch(/HTTP 500/);
        // every attempt reached the mirror and was answered 500
        const asked = mirror.requests.filter((q) => q.path === `/${row['file']}`);
        expect(asked.length).toBe(Number(row['attempts']));
        expect(asked.every((q) => q.status === 500)).toBe(true);
      }
      const saved = fs.readdirSync(path.join(into), { recursive: true, encoding: 'utf8' })
        .filter((p) => fs.statSync(path.join(into, p)).isFile() && !path.basename(p).startsWith('.'));
      expect(saved).toEqual([]);
    } finally {
      await mirror.close();
    }
  });
});
