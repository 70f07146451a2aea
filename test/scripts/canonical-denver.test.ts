// scripts/canonical-denver.ts: Denver's raw deeds in both canonical forms, keyed by parcel (sales.csv without a place,
// parcels.csv with it) and by address, loaded through the real canonical steps (test/helpers/canonical-sources.ts):
// the same sales, row for row, and as many as the native Denver adapter keeps of the same file (23,317 of 23,319:
// SOURCE.md's rows less the deeds with no date or no price), with no reject; one parcels.csv row per parcel.
import { afterAll, describe, expect, test } from 'vitest';
import { load } from '../helpers/canonical-sources.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { writeCanonicalDenver } from '../../scripts/canonical-denver.ts';

afterAll(removeTmpDirs);

const SALES = `select * exclude (file) from sales order by line`;

describe('Denver as a canonical folder keyed by parcel', () => {
  test('both forms load every deed the native adapter keeps, the same sales; no reject', async () => {
    const byParcel = tmp('reii-canon-denver-parcel-');
    const byAddress = tmp('reii-canon-denver-address-');
    expect(await writeCanonicalDenver(SHARED_DATA, byParcel, 'parcel')).toEqual({ sales: 23317, parcels: 21362, left_out: 2 });
    expect(await writeCanonicalDenver(SHARED_DATA, byAddress, 'address')).toEqual({ sales: 23317, parcels: 0, left_out: 2 });
    const p = (await load(byParcel)).ctx;
    const a = (await load(byAddress)).ctx;
    try {
      const rows = await p.rows(SALES);
      expect(rows).toHaveLength(23317);
      expect(rows).toEqual(await a.rows(SALES));
      expect(await p.rows(`select count(*)::int as n from meta.rejects`)).toEqual([{ n: 0 }]);
      expect(await p.rows(`select count(*)::int as n, count(distinct parcel_id)::int as parcels from parcels`)).toEqual([{ n: 21362, parcels: 21362 }]);
    } finally { p.close(); a.close(); }
  }, 300_000);
});
