// The research index's Redfin snapshots (live/research/redfin-index.ts): the columnar redfin.json gives back every
// zip's snapshots as the build step gathered them, in order, nulls kept; the file is read at the first lookup, not
// when the index is opened (the serving process pays for it only when a days-on-market question needs a snapshot).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RedfinIndex, redfinFile, type RedfinSnapshots } from '../../../live/research/redfin-index.ts';
import { removeTmpDirs, tmp } from '../../helpers/tmp.ts';

afterAll(removeTmpDirs);

const snaps: RedfinSnapshots = {
  '60614': [['2025-05', '2025-05-31', 21, 40, 'All Residential'], ['2025-06', '2025-06-30', 24.5, null, null]],
  '02139': [['2025-07', '2025-07-31', 33, 3, null]],
  '10001': [['2025-05', '2025-05-31', 56.5, 36, 'Single Family Residential'], ['2025-08', '2025-08-31', 1785, 1, null], ['2025-09', '2025-08-31', 90, 0, 'Condo/Co-op']],
};

describe('RedfinIndex', () => {
  it('gives back each zip\'s snapshots from the columnar file, in order, with null homes sold and types', () => {
    const file = JSON.parse(JSON.stringify(redfinFile(snaps))) as ReturnType<typeof redfinFile>;
    expect(file.zips).toEqual(['02139', '10001', '60614']);
    expect(file.first).toEqual([0, 1, 4, 6]);
    expect(file.months).toHaveLength(5);
    const dir = tmp('reii-redfin-');
    fs.writeFileSync(path.join(dir, 'redfin.json'), JSON.stringify(file));
    const index = RedfinIndex.fromFile(path.join(dir, 'redfin.json'));
    for (const [zip, rows] of Object.entries(snaps)) expect(index.snapshots(zip), zip).toEqual(rows);
    expect(index.has('10001')).toBe(true);
    expect(index.has('98103')).toBe(false);
    expect(index.snapshots('98103')).toBeUndefined();
  });

  it('reads its file at the first lookup, and a build without the file has no snapshots', () => {
    const dir = tmp('reii-redfin-');
    const file = path.join(dir, 'redfin.json');
    const index = RedfinIndex.fromFile(file); // opened before the file exists: nothing read yet
    fs.writeFileSync(file, JSON.stringify(redfinFile(snaps)));
    expect(index.snapshots('02139')).toEqual(snaps['02139']);
    expect(RedfinIndex.fromFile(path.join(dir, 'absent.json')).has('02139')).toBe(false);
    expect(RedfinIndex.none.snapshots('02139')).toBeUndefined();
    expect(RedfinIndex.of(snaps).snapshots('60614')).toEqual(snaps['60614']);
  });
});
