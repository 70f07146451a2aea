// A canonical market's property record has an owner type (review 9 #8): the canonical sales adapter records the
// properties seen in its deeds as every other sales adapter does, the owner being the latest grantee (Denver's rule,
// 30_market_47_canonical_deed_parcels.sql), and the property record classes that name with the one owner_type() macro.
// A property the operator's parcels.csv lists keeps the roll's owner. A real build (until the marts) over the real
// geography (symlinks into ../shared/data) and hand-written canonical files in a temp folder.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PINNED_NOW } from '../helpers/clock.ts';
import { HEADER, linkGeography, PROPERTY_STEPS, sale } from '../helpers/canonical-sources.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';

afterAll(removeTmpDirs);

const FILTER = PROPERTY_STEPS.join(',');

const SALES = [HEADER,
  sale({ address: '10 MAIN ST', sale_date: '2023-03-01', buyer_name: '"SMITH, JOHN"' }),
  sale({ address: '10 MAIN ST', sale_date: '2024-02-01', buyer_name: 'ACME HOLDINGS LLC' }), // the latest grantee owns it
  sale({ address: '20 MAIN ST', buyer_name: 'CITY OF SEATTLE' }),
  sale({ address: '30 MAIN ST', buyer_name: 'JONES FAMILY TRUST' }),
  sale({ address: '40 MAIN ST', buyer_name: '', seller_name: '' }),                         // no buyer named: no owner
  sale({ address: '50 MAIN ST', buyer_name: '"DOE, JANE"' }),                              // parcels.csv lists it
  sale({ address: '60 MAIN ST', sale_date: '2099-01-01', buyer_name: 'FUTURE LLC' }),      // rejected (date_in_future)
  ...Array.from({ length: 30 }, (_, i) => sale({ address: `${100 + i} PINE ST`, sale_price: String(400000 + i * 1000) })),
].join('\n') + '\n';
const PARCELS = ['address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng,owner_name',
  '50 MAIN ST,SEATTLE,WA,98101,sfr,3,2,1500,1990,47.6,-122.3,SEATTLE HOUSING AUTHORITY',
  '70 MAIN ST,SEATTLE,WA,98101,sfr,3,2,1500,1990,47.6,-122.3,',
].join('\n') + '\n';

describe('canonical properties carry the owner type of their latest grantee', () => {
  let warehouse: string;
  beforeAll(async () => {
    const sources = tmp('reii-canon-owner-src-');
    linkGeography(sources);
    fs.mkdirSync(path.join(sources, 'canonical'));
    fs.writeFileSync(path.join(sources, 'canonical', 'sales.csv'), SALES);
    fs.writeFileSync(path.join(sources, 'canonical', 'parcels.csv'), PARCELS);
    const artifacts = tmp('reii-canon-owner-art-');
    const r = await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter: FILTER }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
    warehouse = path.join(r.dir, 'warehouse.duckdb');
  }, 600_000);

  async function rows<T>(sql: string): Promise<T[]> {
    const inst = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
    const db = await inst.connect();
    try { return (await db.runAndReadAll(sql)).getRowObjectsJson() as T[]; } finally { db.closeSync(); inst.closeSync(); }
  }

  test('owner name and type per property: the latest buyer, classed by owner_type(); the roll wins where parcels.csv lists it', async () => {
    expect(await rows(`select address, owner_name, owner_type from properties where source = 'canonical' and address like '% MAIN ST' order by address`)).toEqual([
      { address: '10 MAIN ST', owner_name: 'ACME HOLDINGS LLC', owner_type: 'corporate' },
      { address: '20 MAIN ST', owner_name: 'CITY OF SEATTLE', owner_type: 'government' },
      { address: '30 MAIN ST', owner_name: 'JONES FAMILY TRUST', owner_type: 'trust' },
      { address: '40 MAIN ST', owner_name: null, owner_type: null },
      { address: '50 MAIN ST', owner_name: 'SEATTLE HOUSING AUTHORITY', owner_type: 'government' },
      { address: '70 MAIN ST', owner_name: null, owner_type: null },
    ]);
    expect(await rows(`select count(*)::int as n from properties where source = 'canonical' and owner_type = 'individual'`)).toEqual([{ n: 30 }]);
  });

  test('one parcels row per property: the deeds add none where the roll has the property, and none for a rejected sale', async () => {
    expect(await rows(`select address, count(*)::int as n, max(owner_name) as owner_name, max(last_sale_date)::varchar as last_sale_date
      from parcels where source = 'canonical' and address like '% MAIN ST' group by address order by address`)).toEqual([
      { address: '10 MAIN ST', n: 1, owner_name: 'ACME HOLDINGS LLC', last_sale_date: '2024-02-01' },
      { address: '20 MAIN ST', n: 1, owner_name: 'CITY OF SEATTLE', last_sale_date: '2024-01-05' },
      { address: '30 MAIN ST', n: 1, owner_name: 'JONES FAMILY TRUST', last_sale_date: '2024-01-05' },
      { address: '40 MAIN ST', n: 1, owner_name: null, last_sale_date: '2024-01-05' },
      { address: '50 MAIN ST', n: 1, owner_name: 'SEATTLE HOUSING AUTHORITY', last_sale_date: null },
      { address: '70 MAIN ST', n: 1, owner_name: null, last_sale_date: null },
    ]);
    expect(await rows(`select rule, column_name from meta.rejects where source = 'canonical'`)).toEqual([{ rule: 'date_in_future', column_name: 'sale_date' }]);
  });
});
