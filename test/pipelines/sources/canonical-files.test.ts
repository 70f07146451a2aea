// Which files of canonical/ the sources stage reads (README "Canonical format"): only the documented names
// (sales.csv, parcels.csv, permits.csv, distress.csv, or the same + .gz); every other file is named in a warning,
// and a file that looks like a misnamed canonical data file (Sales.csv, sales.CSV, sales_2024.csv) fails the stage
// naming it, so the operator's rows are never silently absent. Real files in a tmp folder, a real DuckDB.
import zlib from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, sale } from '../../helpers/canonical-sources.ts';
import { removeTmpDirs } from '../../helpers/tmp.ts';
import { StageError } from '../../../warehouse/errors.ts';
import { canonicalFolderCheck } from '../../../pipelines/sources/registry.ts';

afterAll(removeTmpDirs);

const current = [HEADER, sale({ address: '3526 HIGH ST', sale_price: '610000' }), sale({ address: '2 MAIN ST' })].join('\n') + '\n';
const stale = [HEADER, sale({ address: '3526 HIGH ST', sale_price: '590000' })].join('\n') + '\n';

describe('the canonical folder: documented names only', () => {
  test('a stale sales.csv.bak beside sales.csv is not loaded, and is named in a warning', async () => {
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': current, 'sales.csv.bak': stale, 'notes.txt': 'x' }));
    try {
      expect(await ctx.rows(`select distinct _file as f from raw."canonical__sales"`)).toEqual([{ f: expect.stringMatching(/\/canonical\/sales\.csv$/) }]);
      expect(await ctx.rows(`select address, sale_price from sales order by address`)).toEqual([
        { address: '2 MAIN ST', sale_price: 500000 }, { address: '3526 HIGH ST', sale_price: 610000 }]);
      expect(warnings).toContain('canonical: ignored (not a canonical file name): canonical/notes.txt, canonical/sales.csv.bak');
    } finally { ctx.close(); }
  });

  test('sales.csv.gz is read like sales.csv', async () => {
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv.gz': zlib.gzipSync(current) }));
    try {
      expect(await ctx.rows(`select count(*)::int as n from sales`)).toEqual([{ n: 2 }]);
      expect(warnings.filter((w) => w.includes('ignored'))).toEqual([]);
    } finally { ctx.close(); }
  });

  test.each([
    ['Sales.csv', 'file names are case-sensitive: rename it sales.csv'],
    ['sales.CSV', 'file names are case-sensitive: rename it sales.csv'],
    ['sales_2024.csv', 'not a canonical file name (only sales.csv, sales.csv.gz, parcels.csv, parcels.csv.gz, permits.csv, permits.csv.gz, distress.csv, distress.csv.gz are read): rename it or move it out of canonical/'],
  ])('%s fails the sources stage naming the file', async (name, why) => {
    const err = await load(canonicalSources({ [name]: current })).then((l) => { l.ctx.close(); return null; }, (e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    expect((err as StageError).exitCode).toBe(3);
    expect((err as Error).message).toBe(`stage sources failed in canonical/${name}: looks like a canonical data file but is not read: ${why} (see README "Canonical format")`);
  });

  test('every misnamed file is named; dot files are skipped', () => {
    expect(canonicalFolderCheck(['.DS_Store', 'sales.csv', 'Parcels.csv.gz', 'permits_old.csv', 'README.md', 'sales.csv.bak'])).toEqual({
      ignored: ['README.md', 'sales.csv.bak'],
      misnamed: [{ name: 'Parcels.csv.gz', why: 'file names are case-sensitive: rename it parcels.csv.gz' }, { name: 'permits_old.csv', why: expect.stringMatching(/^not a canonical file name/) }],
    });
  });
});
