// A canonical deed file keyed by parcel through a real build (until the marts, over the real geography: symlinks into
// ../shared/data; the run's one build of it, test/helpers/denver-parcel-build.ts): Denver's raw deeds of the parcels
// 1611* (281 deeds, 279 parcels), sales.csv without address, city, state or zip, parcels.csv giving them
// (test/helpers/canonical-denver.ts), one parcel (16110001000, one deed) left out of parcels.csv. The sales land placed
// by their parcel; the deed of the unlisted parcel is a counted reject in the manifest (the report's "Rejected rows"
// table), never a silent drop; and the property record and the valuation's subjects read the roll's beds of 0
// (BED_RMS 0 on five parcels) as unknown, not as a studio's 0.
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, test } from 'vitest';
import { denverParcelBuild, UNLISTED_PARCEL } from '../helpers/denver-parcel-build.ts';
import type { Manifest } from '../../pipelines/manifest.ts';

describe('a canonical deed file keyed by parcel builds as a market', () => {
  let warehouse: string;
  let manifest: Manifest;
  beforeAll(async () => { ({ warehouse, manifest } = await denverParcelBuild()); }, 900_000);

  async function rows<T>(sql: string): Promise<T[]> {
    const inst = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
    const db = await inst.connect();
    try { return (await db.runAndReadAll(sql)).getRowObjectsJson() as T[]; } finally { db.closeSync(); inst.closeSync(); }
  }

  test('every deed of a listed parcel is a sale placed by its parcel; the unlisted parcel\'s deed a counted reject', async () => {
    expect(await rows(`select count(*)::int as n, count(*) filter (where zip = '80202' and state_code = 'CO' and city = 'Denver'
        and address = 'PARCEL ' || parcel_id)::int as placed from sales where source = 'canonical'`)).toEqual([{ n: 280, placed: 280 }]);
    expect(manifest.rejects.by_source.filter((r) => r.source === 'canonical')).toEqual([
      { source: 'canonical', rule: 'unknown_parcel', rows: 1, breaks_contract: true },
    ]);
    expect(await rows(`select rule, column_name, value from meta.rejects where source = 'canonical'`))
      .toEqual([{ rule: 'unknown_parcel', column_name: 'parcel_id', value: UNLISTED_PARCEL }]);
  });

  test('the property record reads the roll\'s beds of 0 as unknown: no property has 0 beds, 16110007000 none at all', async () => {
    expect(await rows(`select count(*)::int as n, count(*) filter (where beds = 0 or baths = 0)::int as zero from properties where source = 'canonical'`))
      .toEqual([{ n: 279 - 1, zero: 0 }]);
    expect(await rows(`select beds, baths, sqft from properties where source = 'canonical' and parcel_id = '16110007000'`))
      .toEqual([{ beds: null, baths: 2.5, sqft: 2010 }]);
    // no 0 stands as a losing value either, and the valuation's subjects (the parcels it reads) carry none
    expect(await rows(`select count(*)::int as n from property_lineage l join properties p using (property_id)
        where p.source = 'canonical' and l.field in ('beds', 'baths') and l.value in ('0', '0.0')`)).toEqual([{ n: 0 }]);
    expect(await rows(`select count(*)::int as n from parcels where source = 'canonical' and (beds = 0 or baths = 0)`)).toEqual([{ n: 0 }]);
  });
});
